#pragma once
// The debugger's toolbar: the motions of docs/debugger.md (continue, step, next, finish,
// stepi, barrier, reconverge, reverse-step, reverse-continue), Pause (a continue under
// way stops where it is), Stop, the focus (block,
// warp, and a thread of the block as its warp and lane) and where the launch stopped.
// It only asks: each button becomes a command for DebugController.
#include "debugger/DebugReply.hpp"

#include <QList>
#include <QToolBar>

class QLabel;
class QSpinBox;

namespace kw {

class DebugToolBar : public QToolBar {
    Q_OBJECT
public:
    explicit DebugToolBar(QWidget* parent = nullptr);

    void setDebugging(bool on);
    void show(const DebugReply& reply);
    using QToolBar::show;

    // The motions, with their keys (the window adds them so the keys work when the bar is hidden).
    const QList<QAction*>& motionActions() const { return motions_; }
    // The action that sends `command` ("continue", "step"...), or none.
    QAction* action(const QString& command) const;
    QAction* pauseAction() const { return pause_; }
    // A continue is under way: Pause can stop it.
    void setRunning(bool running);
    QSpinBox* blockBox() const { return block_; }
    QSpinBox* warpBox() const { return warp_; }
    QSpinBox* threadBox() const { return thread_; }
    QLabel* stopLabel() const { return stopLabel_; }

signals:
    void commandRequested(const QString& command);
    void stopRequested();
    void pauseRequested();

private:
    QList<QAction*> motions_;
    QAction* pause_;
    QAction* stop_;
    QSpinBox* block_;
    QSpinBox* warp_;
    QSpinBox* thread_;
    QLabel* stopLabel_;
    bool showing_ = false; // the boxes are being set from a reply, not by the user
};

} // namespace kw
