#pragma once
// Chooses where jobs run: this computer or one of the user's saved runners (an
// ssh or srun command line). Shows whether the runner is connected and its
// devices, offers a reconnect after a lost connection, and says which runner the
// last result came from and the bytes it moved.
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QToolButton;

namespace kw {

class RunnerClient;
class Settings;
struct RunResult;

class RunnerPicker : public QWidget {
    Q_OBJECT
public:
    RunnerPicker(RunnerClient* client, Settings* settings, QWidget* parent = nullptr);

    // Saves (or replaces) a runner and switches to it.
    void addRunner(const QString& name, const QString& command);
    void removeRunner(const QString& name);
    // "" is this computer.
    void selectRunner(const QString& name);
    QString currentRunner() const;
    QString statusText() const;      // the whole status
    QString shownStatusText() const; // as it fits the row ("connected: sim CPU…")
    QStringList runnerNames() const;

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void elideStatus(); // the status cut to the label's width, the whole in its tooltip
    void rebuild(const QString& select);
    void apply(bool connectNow);
    void showConnected(); // "connected: " and the devices the runner listed
    void showStatus(const QString& text, bool problem);
    void addFromDialog();

    RunnerClient* client_;
    Settings* settings_;
    QComboBox* combo_;
    QToolButton* manage_;
    QToolButton* reconnect_;
    QLabel* status_;
    QString statusFull_;
};

} // namespace kw
