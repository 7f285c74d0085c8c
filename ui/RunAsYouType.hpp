#pragma once
// When the document is run by itself: a pause after an edit starts a run, as a live
// preview does. Runs never overlap: an edit made while one is in flight asks for one
// more run when it ends, and only the newest edit counts.
#include <QObject>
#include <QTimer>

namespace kw {

class RunAsYouType : public QObject {
    Q_OBJECT
public:
    explicit RunAsYouType(QObject* parent = nullptr);

    void setEnabled(bool on);
    bool isEnabled() const { return enabled_; }
    void setDelay(int ms) { pause_.setInterval(ms); }
    int delay() const { return pause_.interval(); }
    // A run (of any kind) is in flight: the runner's busy state.
    void setBusy(bool busy);
    bool waiting() const { return pause_.isActive() || pending_; }

public slots:
    // Any edit of the document: (re)starts the pause.
    void edited();

signals:
    // The pause after the last edit is over and nothing is running: run now.
    void runDue();

private:
    void pauseOver();

    QTimer pause_;
    bool enabled_ = false;
    bool busy_ = false;
    bool pending_ = false; // the pause ended during a run
};

} // namespace kw
