#pragma once
// The debugger in the window (docs/debugger.md, "In the window"): Run > Debug opens a
// `debug` session for the current document on the runner (the simulator, stopped at
// entry), sends the editor's breakpoints and the debug toolbar's motions as commands,
// and hands each answer, decoded once (DebugReply), to the views: the editor's arrow,
// Lanes, Shared memory, Warps, Call stack, Breakpoints. After a motion it asks for the
// lanes' expressions and the shared memory the views show. Nothing runs in the window:
// the session lives in the runner and ends with it.
#include "debugger/DebugReply.hpp"

#include <QObject>
#include <QString>

#include <map>
#include <vector>

class QAction;
class QDockWidget;
class QMainWindow;

namespace kw {

class BreakpointMargin;
class BreakpointsView;
class CallStackView;
class CodeEditor;
class DebugToolBar;
class ErrorBanner;
class LanesView;
class PtxView;
class RunnerClient;
class SharedMemoryView;
class WarpsView;
class WorkbenchDocument;

class DebugController : public QObject {
    Q_OBJECT
public:
    struct Views {
        QMainWindow* window;
        WorkbenchDocument* document;
        CodeEditor* editor;
        ErrorBanner* banner;
        BreakpointMargin* margin;
        DebugToolBar* toolBar;
        LanesView* lanes;
        SharedMemoryView* shared;
        WarpsView* warps;
        CallStackView* callStack;
        BreakpointsView* breakpoints;
        PtxView* ptx;
        std::vector<QDockWidget*> docks; // shown while debugging
    };
    DebugController(RunnerClient* runner, const Views& views, QObject* parent = nullptr);

    QAction* debugAction() const { return debugAct_; }
    QAction* stopAction() const { return stopAct_; }
    bool debugging() const { return !session_.isEmpty(); }
    // No answer is awaited (the views show the last one).
    bool idle() const { return pending_.empty() && !openId_; }
    // The last answer, for tests and the status line.
    const DebugReply& lastReply() const { return last_; }

public slots:
    // A document of steps asks which launch step (the first by default).
    void start();
    void startAt(const QString& step);
    void stop();
    // A continue under way stops where the launch is now, and the stop is shown.
    void pause();
    // A command of docs/debugger.md; ignored while no session is open.
    void send(const QString& command);

signals:
    void started();
    void ended();
    // Every answer, after the views have shown it.
    void replied(const kw::DebugReply& reply);

private:
    // Running: a motion (forwards or backwards) sent in slices (the runner pauses it after
    // kSliceMs), sent again after each slice (the runner goes on with it) until it stops by
    // itself or Pause is pressed.
    enum class Purpose { Plain, Refresh, Running };
    static constexpr int kSliceMs = 250;
    int sendMessage(const QString& command, Purpose purpose);
    void onReply(int id, const nlohmann::json& result);
    void onFailed(int id, const QString& why);
    void endSession(const QString& why);
    // The Debug action: enabled unless a session is on or starting, or the document is untrusted.
    void offerDebugging();
    void show(const DebugReply& reply);
    void refreshViews();
    // A breakpoint of `margin` (the editor's or the PTX view's) added, changed or removed.
    void breakpointChanged(BreakpointMargin* margin, int line);
    void removeBreakpoint(const QString& place);
    void setDocksVisible(bool on);

    RunnerClient* runner_;
    Views v_;
    QAction* debugAct_;
    QAction* stopAct_;
    QString session_;
    int openId_ = 0;
    qint64 runnerPid_ = 0;                 // the runner process that holds the session
    std::map<int, Purpose> pending_;       // messages in flight
    std::map<QString, int> breakpointIds_; // where asked ("18", "*24") -> the session's id
    DebugReply last_;
    bool pauseAsked_ = false;
    QString running_; // the motion sent in slices
};

} // namespace kw
