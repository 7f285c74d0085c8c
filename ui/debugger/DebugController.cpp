#include "debugger/DebugController.hpp"

#include "CodeEditor.hpp"
#include "ErrorBanner.hpp"
#include "RunnerClient.hpp"
#include "WorkbenchDocument.hpp"
#include "debugger/BreakpointMargin.hpp"
#include "debugger/BreakpointsView.hpp"
#include "debugger/CallStackView.hpp"
#include "debugger/DebugToolBar.hpp"
#include "debugger/LanesView.hpp"
#include "debugger/PtxView.hpp"
#include "debugger/SharedMemoryView.hpp"
#include "debugger/WarpsView.hpp"
#include "doc/StepPaths.hpp"

#include <QAction>
#include <QDockWidget>
#include <QInputDialog>
#include <QMainWindow>
#include <QStatusBar>

#include <algorithm>

namespace kw {

namespace {

// The motions, forwards and backwards, sent in slices so that Pause can stop them: the
// runner goes on with the same motion when it is sent again (docs/protocol.md, `slice_ms`).
bool runsInSlices(const QString& command)
{
    static const QStringList words = {"continue",   "c",
                                      "step",       "s",
                                      "stepi",      "si",
                                      "next",       "n",
                                      "finish",     "barrier",
                                      "reconverge", "reverse-step",
                                      "rs",         "reverse-stepi",
                                      "rsi",        "reverse-continue",
                                      "rc"};
    return words.contains(command);
}

// The motions and focus commands after which the lanes and shared memory are read again.
bool movesOrFocuses(const QString& command)
{
    static const QStringList focus = {"goto", "block", "warp", "thread", "lane", "where"};
    const QString word = command.section(' ', 0, 0);
    return runsInSlices(word) || focus.contains(word);
}

} // namespace

DebugController::DebugController(RunnerClient* runner, const Views& views, QObject* parent)
    : QObject(parent)
    , runner_(runner)
    , v_(views)
{
    debugAct_ = new QAction(QIcon(":/kw/icons/run.svg"), tr("&Debug on the simulator"), v_.window);
    debugAct_->setIconText(tr("Debug"));
    debugAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F5));
    debugAct_->setToolTip(tr("Run the kernel on the CPU simulator, stopped at its first instruction (Ctrl+F5)"));
    stopAct_ = new QAction(QIcon(":/kw/icons/stop.svg"), tr("Stop &debugging"), v_.window);
    stopAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5));
    stopAct_->setEnabled(false);
    connect(debugAct_, &QAction::triggered, this, &DebugController::start);
    connect(stopAct_, &QAction::triggered, this, &DebugController::stop);
    // A debug session compiles and runs the kernel: like Run, not before the document is trusted.
    connect(v_.document, &WorkbenchDocument::trustChanged, this, &DebugController::offerDebugging);
    connect(v_.document, &WorkbenchDocument::changed, this, [this](DocumentPart part) {
        if (part == DocumentPart::Whole)
            offerDebugging();
    });
    offerDebugging();

    connect(runner_, &RunnerClient::sessionReplied, this, &DebugController::onReply);
    connect(runner_, &RunnerClient::jobFailed, this, &DebugController::onFailed);
    // A session lives in its runner process: a restarted or lost runner has none.
    connect(runner_, &RunnerClient::runnerRestarted, this,
            [this](const QString& what) { endSession(tr("The runner was restarted: %1").arg(what)); });
    connect(runner_, &RunnerClient::runnerLost, this, [this](const QString& what) { endSession(what); });

    for (BreakpointMargin* m : {v_.margin, v_.ptx->margin()})
        connect(m, &BreakpointMargin::changed, this, [this, m](int line) { breakpointChanged(m, line); });
    connect(v_.toolBar, &DebugToolBar::commandRequested, this, &DebugController::send);
    connect(v_.toolBar, &DebugToolBar::stopRequested, this, &DebugController::stop);
    connect(v_.toolBar, &DebugToolBar::pauseRequested, this, &DebugController::pause);
    connect(v_.lanes, &LanesView::expressionsChanged, this, &DebugController::refreshViews);
    connect(v_.shared, &SharedMemoryView::typeChanged, this, &DebugController::refreshViews);
    connect(v_.warps, &WarpsView::warpChosen, this, [this](int warp) { send(QString("warp %1").arg(warp)); });
    connect(v_.callStack, &CallStackView::lineChosen, this, [this](int line) { v_.editor->goTo(line, 1); });
    connect(v_.breakpoints, &BreakpointsView::commandRequested, this, &DebugController::send);
    connect(v_.breakpoints, &BreakpointsView::removeBreakpoint, this, &DebugController::removeBreakpoint);
    v_.toolBar->setDebugging(false);
    setDocksVisible(false);
}

void DebugController::offerDebugging()
{
    debugAct_->setEnabled(!debugging() && !openId_ && v_.document->document().trust == Trust::Trusted);
}

void DebugController::start()
{
    const Document& doc = v_.document->document();
    if (doc.trust != Trust::Trusted) {
        v_.banner->showError(tr("Cannot debug this document"),
                             tr("Trust the document first (the bar above the editor)."));
        return;
    }
    if (!doc.isSequence()) {
        startAt({});
        return;
    }
    QStringList items;
    QStringList paths;
    for (const auto& [path, step] : StepPaths::list(doc.steps)) {
        if (step->kind != StepSpec::Kind::Launch)
            continue;
        paths << QString::fromStdString(path);
        items << tr("Step %1: %2%3")
                     .arg(QString::fromStdString(path), QString::fromStdString(step->kernel),
                          step->name.empty() ? QString() : " (" + QString::fromStdString(step->name) + ")");
    }
    if (paths.isEmpty()) {
        v_.banner->showWarning(tr("Nothing to debug"), tr("The document has no launch step."));
        return;
    }
    bool ok = true;
    const QString chosen = paths.size() == 1
        ? items.front()
        : QInputDialog::getItem(v_.window, tr("Debug"), tr("Which launch step to debug:"), items, 0, false, &ok);
    if (ok)
        startAt(paths.at(items.indexOf(chosen)));
}

void DebugController::startAt(const QString& step)
{
    if (debugging() || openId_)
        return;
    breakpointIds_.clear();
    pending_.clear();
    // -G, as kwb-run debug: the Lanes dock shows the source's variables by name.
    openId_ = runner_->openDebugSession(v_.document->document(), step, true);
    debugAct_->setEnabled(false);
    v_.window->statusBar()->showMessage(tr("Starting the debugger…"));
}

void DebugController::stop()
{
    if (!debugging())
        return;
    runner_->closeSession(session_);
    endSession({});
}

void DebugController::endSession(const QString& why)
{
    if (!debugging() && !openId_)
        return;
    const bool wasDebugging = debugging();
    session_.clear();
    openId_ = 0;
    pending_.clear();
    pauseAsked_ = false;
    breakpointIds_.clear();
    v_.margin->setCurrentLine(0);
    v_.margin->setDebugging(false);
    v_.ptx->clear(); // its breakpoints are of this compile's instructions
    v_.toolBar->setDebugging(false);
    offerDebugging();
    stopAct_->setEnabled(false);
    setDocksVisible(false);
    if (!why.isEmpty())
        v_.banner->showWarning(tr("The debugger stopped"), why);
    if (wasDebugging)
        emit ended();
}

void DebugController::send(const QString& command)
{
    if (!debugging() || command.trimmed().isEmpty())
        return;
    const QString c = command.trimmed();
    sendMessage(c, runsInSlices(c) ? Purpose::Running : movesOrFocuses(c) ? Purpose::Refresh : Purpose::Plain);
}

int DebugController::sendMessage(const QString& command, Purpose purpose)
{
    nlohmann::json body = {{"command", command.toStdString()}};
    if (purpose == Purpose::Running) {
        body["slice_ms"] = kSliceMs;
        running_ = command;
        pauseAsked_ = false;
        v_.toolBar->setRunning(true);
    }
    const int id = runner_->sessionMessage(session_, body);
    pending_[id] = purpose;
    return id;
}

void DebugController::pause()
{
    const bool running
        = std::any_of(pending_.begin(), pending_.end(), [](const auto& p) { return p.second == Purpose::Running; });
    if (!debugging() || !running)
        return;
    pauseAsked_ = true; // the slice under way ends within kSliceMs, and is not sent again
    v_.toolBar->setRunning(false);
    v_.window->statusBar()->showMessage(tr("Pausing…"));
}

void DebugController::refreshViews()
{
    if (!debugging())
        return;
    const QStringList exprs = v_.lanes->expressions();
    if (!exprs.isEmpty())
        // Separated by commas when one holds a space; a trailing comma keeps a lone one whole.
        send("lanes " + (exprs.join("").contains(' ') ? exprs.join(", ") + "," : exprs.join(" ")));
    if (last_.sharedBytes) {
        const QString type = v_.shared->type();
        const int size = type == "f64" ? 8 : 4;
        send(QString("shared %1 0 %2").arg(type).arg(std::min<std::uint32_t>(last_.sharedBytes / size, 4096)));
    }
}

void DebugController::breakpointChanged(BreakpointMargin* margin, int line)
{
    if (!debugging())
        return;
    if (const auto it = breakpointIds_.find(margin->place(line)); it != breakpointIds_.end()) {
        send(QString("delete %1").arg(it->second));
        breakpointIds_.erase(it);
    }
    if (margin->has(line))
        send(margin->command(line));
}

void DebugController::removeBreakpoint(const QString& place)
{
    // The margins own the breakpoints: an instruction's is the PTX view's.
    BreakpointMargin* m = place.startsWith('*') ? v_.ptx->margin() : v_.margin;
    m->remove(place.startsWith('*') ? m->lineOf(place) : place.toInt());
}

void DebugController::onReply(int id, const nlohmann::json& result)
{
    if (id == openId_) {
        openId_ = 0;
        try {
            session_ = QString::fromStdString(result.at("session").get<std::string>());
        } catch (const std::exception&) {
            endSession(tr("The runner's answer to opening the debugger names no session"));
            return;
        }
        runnerPid_ = runner_->processId();
        stopAct_->setEnabled(true);
        v_.toolBar->setDebugging(true);
        v_.margin->setDebugging(true);
        setDocksVisible(true);
        for (BreakpointMargin* m : {v_.margin, v_.ptx->margin()})
            for (const auto& [line, b] : m->breakpoints())
                send(m->command(line));
        send("ptx"); // the PTX view's listing
        send("where");
        emit started();
        return;
    }
    const auto it = pending_.find(id);
    if (it == pending_.end())
        return;
    const Purpose purpose = it->second;
    pending_.erase(it);
    DebugReply reply;
    try {
        reply = DebugReply::fromJson(result);
    } catch (const std::exception& e) {
        runner_->closeSession(session_);
        endSession(tr("The runner's debug answer could not be read: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    if (purpose == Purpose::Running) {
        // A slice ended with the launch still running: on, unless Pause was pressed or
        // another command was sent meanwhile (it runs from this stop, which is shown).
        if (reply.stop.reason == "paused" && !pauseAsked_ && pending_.empty()) {
            sendMessage(running_, Purpose::Running);
            return;
        }
        pauseAsked_ = false;
        v_.toolBar->setRunning(false);
    }
    show(reply);
    if (purpose != Purpose::Plain && !reply.text.startsWith("error: "))
        refreshViews();
    emit replied(last_);
}

void DebugController::onFailed(int id, const QString& why)
{
    if (id == openId_) {
        openId_ = 0;
        offerDebugging();
        v_.window->statusBar()->clearMessage();
        v_.banner->showError(tr("Cannot debug this document"), why);
        return;
    }
    if (!pending_.erase(id))
        return;
    // Stop on the main toolbar ends the runner, and the session with it.
    if (runner_->processId() != runnerPid_)
        endSession(tr("The runner was stopped: %1").arg(why));
    else
        v_.banner->showWarning(tr("The debugger refused a command"), why);
}

void DebugController::show(const DebugReply& reply)
{
    last_ = reply;
    breakpointIds_.clear();
    for (const DebugBreakpoint& b : reply.breakpoints)
        breakpointIds_[b.place()] = b.id;
    const bool stopped = reply.warp && !reply.warp->done && reply.stop.reason != "finished";
    v_.margin->setCurrentLine(stopped ? reply.warp->where.line : 0);
    if (reply.ptx)
        v_.ptx->setListing(*reply.ptx, v_.editor->text().split('\n'));
    v_.ptx->setCurrentPc(stopped ? reply.warp->where.pc : -1);
    v_.toolBar->show(reply);
    v_.lanes->show(reply);
    if (reply.sharedType)
        v_.shared->show(reply);
    v_.warps->show(reply);
    v_.callStack->show(reply);
    v_.breakpoints->show(reply);
    if (reply.text.startsWith("error: "))
        v_.window->statusBar()->showMessage(reply.text.trimmed(), 8000);
    else if (!reply.lanes && !reply.sharedType && !reply.ptx)
        v_.window->statusBar()->showMessage(reply.text.section('\n', 0, 0), 8000);
}

void DebugController::setDocksVisible(bool on)
{
    for (QDockWidget* d : v_.docks)
        d->setVisible(on);
    if (on)
        for (QDockWidget* d : v_.docks)
            if (d->widget() == v_.lanes || d->widget() == v_.shared)
                d->raise();
}

} // namespace kw
