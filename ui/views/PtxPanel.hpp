#pragma once
// The compiled PTX, read-only and highlighted, under a table of what each kernel entry
// declares (registers, shared/local/const bytes) with its lowered and source names,
// and what ptxas allocated (registers, stack, spills) when it compiled for a GPU.
#include "compile/CompileResult.hpp"
#include "compile/KernelResources.hpp"
#include "compile/PtxResources.hpp"

#include <QWidget>

#include <map>
#include <string>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QTableWidget;

namespace kw {

class PtxHighlighter;

class PtxPanel : public QWidget {
    Q_OBJECT
public:
    explicit PtxPanel(QWidget* parent = nullptr);

    void showCompile(const CompileResult& result);
    // A ptxas report for the same source from another compile (the live check compiles
    // for a real architecture when the runner's compile is PTX only).
    void setPtxasReport(std::vector<KernelResources> report);
    void clear();

    QPlainTextEdit* text() const { return text_; }
    QTableWidget* resourcesTable() const { return table_; }
    const std::vector<PtxResources>& resources() const { return resources_; }
    PtxHighlighter* highlighter() const { return highlighter_; }

    enum Column { Kernel, Entry, Params, Registers, Stack, Spills, VirtualRegisters, Shared, Local, Const, Columns };

private:
    void fillTable();

    QLabel* summary_;
    QTableWidget* table_;
    QPlainTextEdit* text_;
    PtxHighlighter* highlighter_;
    std::vector<PtxResources> resources_;
    std::vector<KernelResources> ptxas_;
    std::map<std::string, std::string> sourceNames_; // lowered -> as written
    std::vector<KernelSignature> kernels_;
};

} // namespace kw
