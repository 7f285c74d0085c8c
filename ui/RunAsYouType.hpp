#pragma once
// When the document is run by itself: a pause after an edit starts a run, as a live
// preview does. Runs never overlap: an edit made while one is in flight asks for one
// more run when it ends, and only the newest edit counts. Part of the way through the
// pause the run's compile may start (prepareDue), so that the run due at its end finds
// its program compiled.
#include <QObject>
#include <QTimer>

namespace kw {

class RunAsYouType : public QObject {
    Q_OBJECT
public:
    explicit RunAsYouType(QObject* parent = nullptr);

    void setEnabled(bool on);
    bool isEnabled() const { return enabled_; }
    void setDelay(int ms);
    int delay() const { return pause_.interval(); }
    // When, after the last edit, the run's compile may start: before the pause ends by
    // a little more than the document's last compile took, at least 150 ms and at most
    // half the pause.
    int prepareDelay() const { return prepare_.interval(); }
    void setCompileTime(double ms);
    // A run (of any kind) is in flight: the runner's busy state.
    void setBusy(bool busy);
    bool waiting() const { return pause_.isActive() || pending_; }

public slots:
    // Any edit of the document: (re)starts the pause.
    void edited();

signals:
    // Nothing is running, and the pause after the last edit is far enough along that the
    // edit is likely the one to run: compile it now.
    void prepareDue();
    // The pause after the last edit is over (a run follows now, or when the one in flight ends).
    void pauseEnded();
    // The pause after the last edit is over and nothing is running: run now.
    void runDue();

private:
    void pauseOver();

    QTimer pause_;
    QTimer prepare_;
    int compileLeadMs_ = 150;
    bool enabled_ = false;
    bool busy_ = false;
    bool pending_ = false; // the pause ended during a run
};

} // namespace kw
