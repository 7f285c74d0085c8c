#pragma once
// Two runs of a document side by side: what changed in the source and settings,
// their timings, and the difference of an output buffer plotted over its index.
#include "RunHistory.hpp"

#include <QWidget>

#include <optional>

class QComboBox;
class QCustomPlot;
class QLabel;
class QTabWidget;
class QTableWidget;
class QTextBrowser;

namespace kw {

class RunComparison : public QWidget {
    Q_OBJECT
public:
    explicit RunComparison(QWidget* parent = nullptr);

    // Copies what it shows from both; the entries may be dropped from the history afterwards.
    void compare(const RunHistory::Entry& a, const RunHistory::Entry& b);
    void clear();

    QTextBrowser* sourceView() const { return source_; }
    QTableWidget* timingsTable() const { return timings_; }
    QCustomPlot* differencePlot() const { return plot_; }
    QComboBox* bufferSelector() const { return buffer_; }
    QLabel* differenceSummary() const { return summary_; }
    QTabWidget* tabs() const { return tabs_; }

private:
    void showSource();
    void showTimings();
    void showDifference();

    std::optional<RunHistory::Entry> a_, b_;
    QTabWidget* tabs_;
    QTextBrowser* source_;
    QTableWidget* timings_;
    QComboBox* buffer_;
    QLabel* summary_;
    QCustomPlot* plot_;
};

} // namespace kw
