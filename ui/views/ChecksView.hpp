#pragma once
// The document's checks after a run: pass/fail per check, the error (got - expected)
// at the mismatching indices the runner reported, and the first mismatches as a table.
#include "launch/RunResult.hpp"

#include <QWidget>

#include <vector>

class QCustomPlot;
class QTableWidget;
class QLabel;

namespace kw {

class ChecksView : public QWidget {
    Q_OBJECT
public:
    explicit ChecksView(QWidget* parent = nullptr);

    void setChecks(const std::vector<CheckResult>& checks);

    QTableWidget* summaryTable() const { return summary_; }
    QTableWidget* mismatchTable() const { return mismatches_; }
    QCustomPlot* errorPlot() const { return plot_; }
    QLabel* headline() const { return headline_; }

signals:
    // The user picked a mismatch: show that element of that buffer.
    void mismatchActivated(const QString& buffer, qulonglong index);

private:
    QLabel* headline_;
    QTableWidget* summary_;
    QCustomPlot* plot_;
    QTableWidget* mismatches_;
};

} // namespace kw
