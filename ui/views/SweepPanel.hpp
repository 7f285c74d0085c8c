#pragma once
// Sweeps: the user lists block sizes or values of a -D macro, the main window runs one
// job per value and feeds back each median kernel time, plotted against the parameter.
#include "views/SweepRequest.hpp"

#include <QWidget>

#include <optional>

class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace kw {

class SweepPanel : public QWidget {
    Q_OBJECT
public:
    explicit SweepPanel(QWidget* parent = nullptr);

    // The request the inputs describe, or nothing with *error saying what is wrong.
    std::optional<SweepRequest> request(QString* error = nullptr) const;
    // Values as typed: separated by commas or spaces; "a:b" doubles from a to b
    // ("32:1024" = 32 64 ... 1024).
    static QStringList splitValues(const QString& text);

    QComboBox* kindSelector() const { return kind_; }
    QLineEdit* nameEdit() const { return name_; }
    QLineEdit* valuesEdit() const { return values_; }
    QPushButton* runButton() const { return run_; }
    QLabel* statusLabel() const { return status_; }
    QCustomPlot* plot() const { return plot_; }
    QTableWidget* pointsTable() const { return points_; }
    bool isRunning() const { return running_; }
    // Times from the CPU simulator are labelled as such, not as kernel times.
    void setSimulated(bool on);

public slots:
    void start(); // validates and emits sweepRequested
    void addPoint(double parameter, double medianMs);
    void finish();

signals:
    void sweepRequested(const kw::SweepRequest& request);

private:
    void updateKind();

    QComboBox* kind_;
    QLineEdit* name_;
    QLineEdit* values_;
    QPushButton* run_;
    QLabel* status_;
    QCustomPlot* plot_;
    QTableWidget* points_;
    int expected_ = 0;
    bool running_ = false;
    bool simulated_ = false; // times of the CPU simulator: they rank nothing on a GPU
};

} // namespace kw
