#pragma once
// Two runs of a document compared: what changed between them, named (a variable, the
// block, a buffer's initialiser, a define; core's DocumentChanges), the source's line
// diff when the source changed, their timings, and the difference of an output buffer:
// a heat map for a 2-D buffer, a plot over the index for a 1-D one, with the largest
// difference and where it is.
#include "RunHistory.hpp"

#include <QWidget>

#include <optional>

class QComboBox;
class QCustomPlot;
class QLabel;
class QStackedWidget;
class QTabWidget;
class QTableWidget;
class QTextBrowser;
class QTreeWidget;

namespace kw {

class HeatMap;

class RunComparison : public QWidget {
    Q_OBJECT
public:
    explicit RunComparison(QWidget* parent = nullptr);

    // Copies what it shows from both; the entries may be dropped from the history afterwards.
    void compare(const RunHistory::Entry& a, const RunHistory::Entry& b);
    void clear();

    QLabel* changesSummary() const { return changesSummary_; } // above the tabs: the first changes by name
    QTreeWidget* changesList() const { return changes_; }      // what, before, after
    QTextBrowser* sourceView() const { return source_; }       // hidden when the source is the same
    QTableWidget* timingsTable() const { return timings_; }
    QComboBox* bufferSelector() const { return buffer_; }
    QLabel* differenceSummary() const { return summary_; }
    QCustomPlot* differencePlot() const { return plot_; } // a 1-D buffer's difference
    HeatMap* differenceMap() const { return map_; }       // a 2-D buffer's difference
    bool showsHeatMap() const;
    QTabWidget* tabs() const { return tabs_; }

private:
    void showChanges();
    void showTimings();
    void showDifference();

    std::optional<RunHistory::Entry> a_, b_;
    QTabWidget* tabs_;
    QLabel* changesSummary_;
    QTreeWidget* changes_;
    QTextBrowser* source_;
    QTableWidget* timings_;
    QComboBox* buffer_;
    QLabel* summary_;
    QStackedWidget* views_;
    QCustomPlot* plot_;
    HeatMap* map_;
    double mapLargest_ = 0; // the map's colour scale runs from -this to +this, zero in the middle
};

} // namespace kw
