#pragma once
// The compiled PTX, read-only and highlighted, under a table of what each kernel entry
// declares (registers, shared/local/const bytes) with its lowered and source names.
#include "compile/CompileResult.hpp"
#include "views/PtxResources.hpp"

#include <QWidget>

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
    void clear();

    QPlainTextEdit* text() const { return text_; }
    QTableWidget* resourcesTable() const { return table_; }
    const std::vector<PtxResources>& resources() const { return resources_; }
    PtxHighlighter* highlighter() const { return highlighter_; }

private:
    QLabel* summary_;
    QTableWidget* table_;
    QPlainTextEdit* text_;
    PtxHighlighter* highlighter_;
    std::vector<PtxResources> resources_;
};

} // namespace kw
