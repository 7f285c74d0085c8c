#pragma once
// The kernel's printf output: the raw console, a filterable table of the tagged lines
// (block, thread, text) and a grid of blocks coloured by line count, where clicking a
// block lists its threads' lines. A banner warns when the output was cut off.
#include "launch/RunResult.hpp"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QTabWidget;
class QTableView;
class QTreeWidget;

namespace kw {

class BlockGridView;
class PrintfFilterProxy;
class PrintfTableModel;

class PrintfPanel : public QWidget {
    Q_OBJECT
public:
    explicit PrintfPanel(QWidget* parent = nullptr);

    void showOutput(const PrintfOutput& output, Dim3 grid, Dim3 block);
    void clear();

    QTabWidget* tabs() const { return tabs_; }
    QPlainTextEdit* console() const { return console_; }
    QLabel* truncationWarning() const { return warning_; }
    PrintfTableModel* tableModel() const { return model_; }
    PrintfFilterProxy* filterModel() const { return proxy_; }
    QLineEdit* blockFilter() const { return blockFilter_; }
    QLineEdit* threadFilter() const { return threadFilter_; }
    QLineEdit* textFilter() const { return textFilter_; }
    BlockGridView* blockGrid() const { return grid_; }
    QSpinBox* sliceSelector() const { return slice_; }
    QTreeWidget* blockLines() const { return blockLines_; }

public slots:
    void showBlock(const kw::Dim3& block); // lists that block's lines beside the grid

signals:
    // A block was chosen in the grid, so other views can show where it sits.
    void blockSelected(const kw::Dim3& block);

private:
    QWidget* buildTableTab();
    QWidget* buildBlocksTab();
    void updateLegend();

    std::vector<PrintfLine> lines_;
    Dim3 launchBlock_;
    QLabel* warning_;
    QTabWidget* tabs_;
    QPlainTextEdit* console_;
    PrintfTableModel* model_;
    PrintfFilterProxy* proxy_;
    QTableView* table_ = nullptr;
    QLineEdit* blockFilter_ = nullptr;
    QLineEdit* threadFilter_ = nullptr;
    QLineEdit* textFilter_ = nullptr;
    QLabel* tableCount_ = nullptr;
    BlockGridView* grid_ = nullptr;
    QSpinBox* slice_ = nullptr;
    QLabel* sliceLabel_ = nullptr;
    QLabel* legend_ = nullptr;
    QLabel* blockTitle_ = nullptr;
    QTreeWidget* blockLines_ = nullptr;
};

} // namespace kw
