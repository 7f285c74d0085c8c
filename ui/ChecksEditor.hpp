#pragma once
// The document's checks, written in the window: one row per check (what it compares,
// marked where it is wrong; in a document of steps, the step it is evaluated after) and
// the selected check's fields beside it: the step (where the document has steps), the buffer, how it
// is compared (each element with an expression, an aggregate of the buffer, or each
// element with a reference buffer), the expected expression and the tolerances. Each
// check is validated as it is typed (DocumentValidator::validateCheck, with the names in
// scope at its step), so an expression that does not parse or names what the document
// does not have is marked at once, with the validator's message. Edits are reported through `changed`; DocumentPanels
// makes them edits of the document.
#include "doc/Document.hpp"
#include "doc/PlacedChecks.hpp"

#include <QStringList>
#include <QWidget>

#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace kw {

class ChecksEditor : public QWidget {
    Q_OBJECT
public:
    // How a check compares: the file has per-element and aggregate checks; a reference
    // check is a per-element check whose expected value is another buffer, element by element.
    enum class Kind { Element, Aggregate, Reference };

    explicit ChecksEditor(QWidget* parent = nullptr);

    // A document (loaded, undone, redone): its checks are shown.
    void setDocument(const Document& doc);
    // The rest of the document changed (buffers, variables, arguments): the choices and
    // the validation follow; the checks shown stay.
    void setContext(const Document& doc);

    // Every check with its step ("" for the document's own), as PlacedChecks lists them.
    const std::vector<PlacedCheck>& checks() const { return checks_; }
    // The validator's message for check `row`, empty when it is right.
    QString problemOf(int row) const;
    // How `check` reads in `doc`: Reference when it expects another buffer that no argument passes.
    static Kind kindOf(const CheckSpec& check, const Document& doc);

    QListWidget* list() const { return list_; }
    QPushButton* addButton() const { return add_; }
    QPushButton* removeButton() const { return remove_; }
    QComboBox* stepBox() const { return step_; }
    QComboBox* kindBox() const { return kind_; }
    QComboBox* bufferBox() const { return buffer_; }
    QComboBox* aggregateBox() const { return aggregate_; }
    QComboBox* referenceBox() const { return reference_; }
    QLineEdit* ofEdit() const { return of_; }
    QLineEdit* expectEdit() const { return expect_; }
    QLineEdit* relTolEdit() const { return relTol_; }
    QLineEdit* absTolEdit() const { return absTol_; }
    QLabel* problemLabel() const { return problem_; }

signals:
    // typed: a line typed in, which joins the edits typed just before; adding, removing
    // and choosing are edits of their own.
    void changed(bool typed);

private:
    void addCheck();
    void removeCheck();
    void select(int row);
    // lineEdits: the typed fields show the check too (another check, an undo).
    void showSelected(bool lineEdits);
    void fieldEdited();
    void fillChoices();
    // The rows in the order PlacedChecks lists them (by step), the selection following its check.
    void sortByStep();
    QString stepLabel(const std::string& path) const;
    void validate();
    void showRow(int row);
    QString summary(int row) const;
    QStringList referenceChoices(const std::string& checked) const;

    Document context_; // the document the checks are validated in
    std::vector<PlacedCheck> checks_;
    std::vector<Kind> kinds_;
    std::vector<QString> problems_;
    QString toleranceProblem_; // a tolerance typed that is no number: the check keeps its last one
    QStringList bufferNames_;
    int selected_ = -1;
    bool showing_ = false;

    QListWidget* list_;
    QPushButton* add_;
    QPushButton* remove_;
    QComboBox* step_;
    QLabel* stepLabel_;
    QComboBox* kind_;
    QComboBox* buffer_;
    QComboBox* aggregate_;
    QComboBox* reference_;
    QLineEdit* of_;
    QLineEdit* expect_;
    QLineEdit* relTol_;
    QLineEdit* absTol_;
    QLabel* problem_;
    QLabel* hint_;
    QFormLayout* fields_;
};

} // namespace kw
