#pragma once
// The run history as a list, with two runs to pick and compare (the later one is
// compared against the earlier): how a class sees what an optimisation did. A saved
// document's runs are listed again when it is reopened.
#include <QWidget>

class QComboBox;
class QPushButton;
class QTableWidget;

namespace kw {

class RunComparison;
class RunHistory;

class RunHistoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunHistoryPanel(RunHistory* history, QWidget* parent = nullptr);

    // Compares runs by their numbers; false when either is no longer kept.
    bool compareRuns(int first, int second);

    QTableWidget* list() const { return list_; }
    QComboBox* firstSelector() const { return first_; }
    QComboBox* secondSelector() const { return second_; }
    QPushButton* compareButton() const { return compare_; }
    RunComparison* comparison() const { return comparison_; }

private:
    void refresh();

    RunHistory* history_;
    QTableWidget* list_;
    QComboBox* first_;
    QComboBox* second_;
    QPushButton* compare_;
    RunComparison* comparison_;
};

} // namespace kw
