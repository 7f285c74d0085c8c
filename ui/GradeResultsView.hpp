#pragma once
// The Grade dock: one row per case of a graded exercise (case, size, result, time,
// counters against the goals, what went wrong), from `kwb-run grade --json`'s object.
// Double-clicking a failed case whose first wrong element has a known writer asks for
// that line.
#include <QWidget>

#include <nlohmann/json.hpp>

class QLabel;
class QTableWidget;

namespace kw {

class GradeResultsView : public QWidget {
    Q_OBJECT
public:
    explicit GradeResultsView(QWidget* parent = nullptr);

    // One solution's grade (the first of the report's solutions).
    void showReport(const nlohmann::json& report);
    void showMessage(const QString& text); // grading under way, or why it could not run
    int rowCount() const;

signals:
    void lineActivated(int line);

private:
    QLabel* summary_;
    QTableWidget* table_;
};

} // namespace kw
