#pragma once
// One row per parameter of the chosen kernel: pointers become buffers (or a null
// pointer, chosen where a buffer's direction is), scalars become typed values. Follows
// signature edits, keeping the settings of every parameter whose name still exists (and
// of removed ones, should they return).
#include "compile/KernelSignature.hpp"
#include "compile/SignatureParser.hpp"
#include "doc/Document.hpp"

#include <QWidget>

#include <map>
#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;

namespace kw {

class BufferEditor;

class ArgumentsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ArgumentsPanel(QWidget* parent = nullptr);

    // Settings from a document; applied to matching parameters by name.
    void load(const std::vector<BufferSpec>& buffers, const std::vector<ArgSpec>& args);
    void setSignature(const KernelSignature& signature);
    // The source's __constant__/__device__ variables, listed under the table.
    void setModuleGlobals(const std::vector<ModuleGlobal>& globals);
    QString moduleGlobalsText() const;
    // Variable names, used for sensible defaults of new parameters ("n"). A scalar left at
    // 0 for want of a variable of its name takes the variable once one is added.
    void setVariableNames(const QStringList& names);
    // The note beside a scalar's value ("0 by default: no variable named n"); empty if none.
    QString noteOf(int row) const;

    std::vector<BufferSpec> buffers() const;
    std::vector<ArgSpec> args() const;
    int rowCount() const { return int(rows_.size()); }

    BufferEditor* bufferEditor() const { return editor_; }
    // "Set up from the signature...": buffers, sizes and a launch proposed from the parameters.
    QPushButton* setupButton() const { return setup_; }
    // Whether the buffer editor is shown (only while a buffer row is selected).
    bool bufferEditorShown() const;

signals:
    void changed();
    void setupRequested();

private:
    struct Row {
        KernelParam param;
        bool isBuffer = false;  // a pointer parameter
        bool null = false;      // a pointer passed as NULL: no buffer
        BufferSpec buffer;      // when isBuffer (kept while null, for when it gets a buffer again)
        ArgSpec arg;            // when scalar
        bool defaulted = false; // a scalar set to 0 for want of a variable of its name
    };
    Row defaultRow(const KernelParam& p) const;
    void rebuildTable();
    void fitColumns();
    void selectRow(int row);
    void rowEdited(int row);

    std::vector<Row> rows_;
    std::map<std::string, Row> remembered_; // by parameter name
    QStringList variables_;
    QTableWidget* table_;
    QLabel* globals_;
    QPushButton* setup_;
    BufferEditor* editor_;
    QWidget* editorScroll_; // shown for buffer rows only
    int selected_ = -1;
    bool rebuilding_ = false;
};

} // namespace kw
