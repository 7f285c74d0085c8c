#pragma once
// The run's buffers: pick one, see it as a line plot (1-D) or heat map (2-D/3-D shape),
// a histogram and a paged table; the checks' outcome when the document has checks.
#include "launch/RunResult.hpp"

#include <QTimer>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QTabWidget;
class QStackedWidget;
class QPushButton;

namespace kw {

class BarChart;
class LinePlot;
class HeatMap;
class HistogramView;
class BufferTableView;
class ChecksView;

class ResultsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ResultsPanel(QWidget* parent = nullptr);

    void showResult(const RunResult& result); // copies the result once
    void showResult(RunResult&& result);      // takes it over, no copy
    void showResult(std::shared_ptr<const RunResult> result);
    void clear();
    // A new result's views fill in the next pass of the event loop; true until then.
    bool fillPending() const { return fillTimer_.isActive(); }
    const std::shared_ptr<const RunResult>& result() const { return result_; }

    void selectBuffer(int index); // index into result.buffers
    int currentBuffer() const;

    QComboBox* bufferSelector() const { return buffers_; }
    QTabWidget* tabs() const { return tabs_; }
    LinePlot* linePlot() const { return line_; }
    HeatMap* heatMap() const { return heat_; }
    BarChart* barChart() const { return bars_; }
    bool showsBars() const;
    HistogramView* histogram() const { return histogram_; }
    BufferTableView* table() const { return table_; }
    ChecksView* checks() const { return checks_; }
    bool showsHeatMap() const;
    // The words shown in place of a plot (no run yet, no buffers, an empty buffer); empty
    // while a plot is shown.
    QString placeholderText() const;

private:
    void showBuffer(int resultIndex);
    void setBuffersEnabled(bool on);
    void updateCurrentTab();
    void fillPlot();
    void exportPlot();
    void exportBuffer();

    std::shared_ptr<const RunResult> result_;
    std::shared_ptr<const HostBuffer> shown_;
    int shownIndex_ = -1; // into result_->buffers
    QComboBox* buffers_;
    QLabel* info_;
    QString bufferInfo_; // info_'s words for the buffer shown, before the element pointed at
    QPushButton* exportPlot_;
    QPushButton* exportBuffer_;
    QTabWidget* tabs_;
    QStackedWidget* plotStack_;
    LinePlot* line_;
    HeatMap* heat_;
    BarChart* bars_;
    HistogramView* histogram_;
    QWidget* plotPage_ = nullptr; // the tabs' pages: the plots in their scroll areas
    QWidget* histogramPage_ = nullptr;
    BufferTableView* table_;
    ChecksView* checks_;
    QLabel* empty_;
    // Views not in the current tab are filled when their tab is shown: each may
    // read the whole buffer, and a result must not wait for views nobody looks at.
    QTimer fillTimer_;
    bool plotStale_ = true;
    bool histogramStale_ = true;
};

} // namespace kw
