#pragma once
// The steps of a document of several launches (version 2) as a tree, a repeat holding
// its inner steps: each row says what the step is and does (a launch its kernel and
// grid x block). Steps are added, removed, moved (up, down, into and out of a repeat)
// and duplicated with the buttons; the selected step's own fields are edited in the
// form below (a launch's in the Launch and Arguments panels). Each of these reports
// `changed` once, with steps() holding the result: `typed` for a field's key, which
// joins the keys before it in one undo step; a step added, removed or moved is one of its own.
//
// After a run it shows each step's runs, kernel time and share of the total, marks a
// step whose checks failed, the step that faulted and a loop stopped at its limit;
// while a run is under way, the step that is running.
#include "StepProblems.hpp"
#include "StepTree.hpp"
#include "doc/Document.hpp"
#include "launch/RunResult.hpp"

#include <QWidget>

#include <functional>
#include <map>
#include <optional>

class QLabel;
class QPushButton;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace kw {

class StepForm;

class StepListPanel : public QWidget {
    Q_OBJECT
public:
    enum Column { ColStep, ColWhat, ColRuns, ColTime, ColShare, ColumnCount };

    explicit StepListPanel(QWidget* parent = nullptr);

    // The document's steps, buffers and variables; keeps the selected path where it still is.
    void setDocument(const Document& doc);
    const std::vector<StepSpec>& steps() const { return steps_; }
    // The step a new launch step starts as (its kernel and arguments); others are made here.
    void setLaunchFactory(std::function<StepSpec()> factory) { launchFactory_ = std::move(factory); }

    std::optional<StepPath> selectedPath() const;
    const StepSpec* selectedStep() const;
    void selectPath(const StepPath& path);

    void setProblems(const StepProblems& problems);
    QString problemText() const; // as shown under the list

    // The run side: the step under way (its path as the runner names it, "2.1"),
    // a run's result, and none.
    void setCurrentStep(const QString& path);
    void showResult(const RunResult& result);
    void clearResult();
    bool hasResult() const { return hasResult_; }
    // The step whose buffers the results show: none means those at the end of the run.
    std::optional<StepPath> resultStep() const { return resultStep_; }

    // Parts, for tests.
    QTreeWidget* tree() const { return tree_; }
    QTreeWidgetItem* itemAt(const StepPath& path) const;
    QToolButton* addButton() const { return add_; }
    QToolButton* removeButton() const { return remove_; }
    QToolButton* upButton() const { return up_; }
    QToolButton* downButton() const { return down_; }
    QToolButton* intoButton() const { return into_; }
    QToolButton* outButton() const { return out_; }
    QToolButton* duplicateButton() const { return duplicate_; }
    QPushButton* endOfRunButton() const { return endOfRun_; }
    StepForm* form() const { return form_; }

signals:
    void changed(bool typed);
    void selectionChanged();
    // The step whose buffers the results should show (none: the end of the run).
    void resultStepChosen(std::optional<kw::StepPath> path);

private:
    void rebuild(const std::optional<StepPath>& select);
    void addItems(QTreeWidgetItem* parent, const std::vector<StepSpec>& list, StepPath& at);
    void fillRow(QTreeWidgetItem* item, const StepSpec& step, const StepPath& path) const;
    void markRows();
    void updateButtons();
    void showSelected();
    void apply(StepPath (*op)(std::vector<StepSpec>&, const StepPath&));
    void add(StepSpec::Kind kind);
    void formEdited();
    StepSpec newStep(StepSpec::Kind kind) const;
    QString whatItDoes(const StepSpec& step, const StepPath& path) const;
    void chooseResultStep();

    std::vector<StepSpec> steps_;
    QStringList buffers_;
    std::vector<std::pair<std::string, std::string>> variables_;
    std::function<StepSpec()> launchFactory_;
    StepProblems problems_;
    // The last run's, by the runner's path ("2.1").
    bool hasResult_ = false;
    std::map<std::string, StepResult> results_;
    double totalMs_ = 0;
    std::string faultStep_, stoppedStep_, stopped_;
    QString current_;
    std::optional<StepPath> resultStep_;

    QTreeWidget* tree_;
    QToolButton* add_;
    QToolButton* remove_;
    QToolButton* up_;
    QToolButton* down_;
    QToolButton* into_;
    QToolButton* out_;
    QToolButton* duplicate_;
    QLabel* problem_;
    QLabel* resultLabel_;
    QPushButton* endOfRun_;
    StepForm* form_;
    bool rebuilding_ = false;
};

} // namespace kw
