#include "RunController.hpp"
#include "RunAsYouType.hpp"

#include "CountedNoun.hpp"

#include "CodeEditor.hpp"
#include "ErrorBanner.hpp"
#include "FaultDescription.hpp"
#include "LaunchPanel.hpp"
#include "LaunchShapeView.hpp"
#include "LiveDiagnostics.hpp"
#include "ProblemsPanel.hpp"
#include "RunHistory.hpp"
#include "RunnerClient.hpp"
#include "Settings.hpp"
#include "StepListPanel.hpp"
#include "SweepRunner.hpp"
#include "WorkbenchDocument.hpp"
#include "profile/ProfileMargin.hpp"
#include "profile/ProfileView.hpp"
#include "views/PrintfPanel.hpp"
#include "views/PtxPanel.hpp"
#include "views/ResultsPanel.hpp"
#include "views/SweepPanel.hpp"
#include "views/TimingsPanel.hpp"

#include "compile/Compiler.hpp"
#include "compile/KernelFootprint.hpp"
#include "compile/PtxasReportParser.hpp"
#include "launch/RunNotes.hpp"
#include "run/ProfileFindings.hpp"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QStatusBar>
#include <QTimer>

#include <algorithm>

namespace kw {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
} // namespace

RunController::RunController(Views views, const QString& runnerProgram, QObject* parent)
    : QObject(parent)
    , v_(views)
    , runner_(new RunnerClient(this))
    , live_(new LiveDiagnostics(this))
    , typing_(new RunAsYouType(this))
{
    if (!runnerProgram.isEmpty())
        runner_->setProgram(runnerProgram);
    stageLabel_ = new QLabel;
    progress_ = new QProgressBar;
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(120);
    progress_->hide();
    progressDelay_ = new QTimer(this);
    progressDelay_->setSingleShot(true);
    progressDelay_->setInterval(600);
    connect(progressDelay_, &QTimer::timeout, this, [this] { showRunning(runner_->busy()); });
    v_.window->statusBar()->addPermanentWidget(stageLabel_);
    v_.window->statusBar()->addPermanentWidget(progress_);
    wireRunner();
    wireLive();
    connect(v_.document, &WorkbenchDocument::changed, this, &RunController::documentChanged);
    connect(v_.steps, &StepListPanel::resultStepChosen, this, &RunController::showResultStep);
    // The launch panel shows the resources of the kernel the selected launch step runs.
    connect(v_.steps, &StepListPanel::selectionChanged, this, [this] {
        if (lastLive_ && v_.document->document().isSequence())
            v_.launch->setCompileResult(*lastLive_, loweredNameFor(*lastLive_));
    });
    connect(runner_, &RunnerClient::busyChanged, typing_, &RunAsYouType::setBusy);
    connect(typing_, &RunAsYouType::runDue, this, [this] {
        const int before = runId_;
        startingTypingRun_ = true;
        runOn(v_.launch->currentDevice(), {}, CheckTool::None, true);
        startingTypingRun_ = false;
        typingRunId_ = runId_;
        if (runId_ == before) // refused (the banner says why): no compile to wait for
            live_->release();
    });
    // The run's compile, started in the pause: the run due at its end finds the program
    // in the runner's cache. Its reply is not shown (the run's result carries the same
    // compile); nor is its busy state, as for the run that follows.
    connect(typing_, &RunAsYouType::prepareDue, this, [this] {
        const Document& doc = v_.document->document();
        if (doc.trust != Trust::Trusted || (!doc.isSequence() && !v_.launch->issues().isEmpty()))
            return; // the run refuses it, and says why
        startingTypingRun_ = true;
        prepareId_ = runner_->compile(doc, v_.launch->currentDevice());
        startingTypingRun_ = false;
    });
    // The live check held back for a run follows it, once the runner is idle: asked, not
    // taken from the signal, as a run due meanwhile starts while the signal is delivered.
    // The pause's own compile does not end the wait: the run is still to come.
    connect(runner_, &RunnerClient::busyChanged, this, [this] {
        if (!runner_->busy() && !typing_->waiting())
            live_->release();
    });
    connect(v_.document, &WorkbenchDocument::trustChanged, this, [this] {
        applyTrust();
        live_->compileNow(v_.editor->text());
    });
}

void RunController::registerActions(QMenuBar* menus)
{
    auto act = [this](const QString& text, const QString& icon, QKeySequence key, auto slot) {
        auto* a = new QAction(QIcon(icon), text, v_.window);
        a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    QMenu* runMenu = menus->addMenu(tr("&Run"));
    runAct_ = act(tr("&Run"), ":/kw/icons/run.svg", QKeySequence(Qt::Key_F5), &RunController::run);
    runAct_->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
    runAct_->setToolTip(tr("Compile and run the kernel (F5, Ctrl+R)"));
    compileAct_
        = act(tr("&Compile"), ":/kw/icons/compile.svg", QKeySequence(Qt::CTRL | Qt::Key_B), &RunController::compile);
    compileAct_->setToolTip(tr("Compile for the chosen device (Ctrl+B)"));
    stopAct_ = act(tr("&Stop"), ":/kw/icons/stop.svg", QKeySequence(Qt::SHIFT | Qt::Key_F5), &RunController::stop);
    stopAct_->setEnabled(false);
    runMenu->addAction(runAct_);
    runMenu->addAction(compileAct_);
    runMenu->addAction(stopAct_);
    typingAct_ = runMenu->addAction(tr("Run as You &Type"));
    typingAct_->setCheckable(true);
    typingAct_->setToolTip(tr("Run the document again after each pause in editing, as a live preview"));
    connect(typingAct_, &QAction::toggled, this, [this](bool on) {
        typing_->setEnabled(on);
        if (!on && !runner_->busy())
            live_->release();
        v_.settings->setRunAsYouType(on);
    });
    typingAct_->setChecked(v_.settings->runAsYouType());
    runMenu->addSeparator();
    profileAct_ = runMenu->addAction(QIcon(":/kw/icons/profile.svg"), tr("&Profile per line (simulator)"));
    profileAct_->setToolTip(tr("Run once on the CPU simulator, counting per source line what Nsight Compute counts "
                               "on a GPU"));
    profileAct_->setIconText(tr("Profile"));
    connect(profileAct_, &QAction::triggered, this, [this] { profileOnSimulator(0, {}, 0); });
    // One check per run, as compute-sanitizer runs one tool at a time; each entry runs.
    QMenu* checkMenu = runMenu->addMenu(tr("&Check"));
    checkMenu->setToolTipsVisible(true);
    const std::pair<CheckTool, QString> tools[]
        = {{CheckTool::Memcheck, tr("Run checking &memory errors (memcheck)")},
           {CheckTool::Racecheck, tr("Run checking shared-memory &races (racecheck)")},
           {CheckTool::Initcheck, tr("Run checking &uninitialised reads (initcheck)")},
           {CheckTool::Synccheck, tr("Run checking &barrier misuse (synccheck)")}};
    for (const auto& [tool, label] : tools) {
        QAction* a = checkMenu->addAction(label);
        a->setData(int(tool));
        a->setToolTip(tr("On the simulator its own checks; on a GPU compute-sanitizer"));
        connect(a, &QAction::triggered, this, [this, tool = tool] { runChecked(tool); });
    }
    checkAct_ = new QAction(v_.window);
    checkAct_->setMenu(checkMenu);
    connect(checkAct_, &QAction::triggered, this, [this] { runChecked(checkTool_); });
    nameCheck(checkTool_);
}

QList<QAction*> RunController::toolBarActions() const
{
    return {runAct_, compileAct_, stopAct_, profileAct_, checkAct_};
}

void RunController::wireRunner()
{
    sweepRunner_ = new SweepRunner(runner_, v_.sweep, this);
    connect(v_.sweep, &SweepPanel::sweepRequested, this, &RunController::startSweep);
    connect(sweepRunner_, &SweepRunner::pointFailed, this, [this](const QString& value, const QString& why) {
        v_.banner->showWarning(tr("Sweep point %1 failed").arg(value), why);
    });
    connect(runner_, &RunnerClient::devicesChanged, v_.launch, &LaunchPanel::setDevices);
    connect(runner_, &RunnerClient::busyChanged, this, &RunController::setRunning);
    connect(runner_, &RunnerClient::stepStarted, v_.steps, &StepListPanel::setCurrentStep);
    connect(runner_, &RunnerClient::stageChanged, this,
            [this](int, const QString& stage) { stageLabel_->setText(tr("Running: %1").arg(stage)); });
    connect(runner_, &RunnerClient::compileFinished, this, [this](int id, const CompileResult& r) {
        if (id == ptxCompileId_) {
            v_.ptx->showCompile(r);
            return;
        }
        if (id == prepareId_) {
            if (r.ok && !r.cacheHit)
                typing_->setCompileTime(r.compileMs);
            return;
        }
        if (id != compileId_)
            return;
        showCompile(r);
        if (!r.ok)
            showCompileFailure();
        v_.window->statusBar()->showMessage(
            r.ok ? tr("Compiled for %1 in %2 ms").arg(q(r.arch)).arg(r.compileMs, 0, 'f', 1) : tr("Compile failed"),
            8000);
        emit compileCompleted(r);
    });
    // The shared result: the results panel keeps it without copying its buffers.
    connect(runner_, &RunnerClient::runResultReady, this, [this](int id, const std::shared_ptr<const RunResult>& r) {
        if (id != runId_)
            return;
        v_.history->add(runDocument_, q(r->device.name.empty() ? r->device.id : r->device.name), r,
                        QString::fromStdString(runDocument_.path.string()));
        showRun(r);
        emit runCompleted(*r);
    });
    connect(runner_, &RunnerClient::jobFailed, this, [this](int id, const QString& message) {
        if (id != runId_ && id != compileId_)
            return;
        v_.banner->showError(tr("The job did not complete"), message);
        v_.window->statusBar()->showMessage(message, 8000);
    });
    connect(runner_, &RunnerClient::runnerRestarted, this,
            [this](const QString& what) { v_.banner->showError(tr("Runner restarted"), what); });
}

void RunController::wireLive()
{
    connect(live_, &LiveDiagnostics::started, this, [this] { v_.liveLabel->setText(tr("checking…")); });
    connect(live_, &LiveDiagnostics::finished, this, [this](const CompileResult& r) {
        v_.editor->setDiagnostics(r.diagnostics, LiveDiagnostics::sourceName);
        // What the compile left out, NVRTC's verdict included; the first pass alone is
        // shown while typing (DocumentPanels::showSourceStructure).
        v_.editor->setHostCode(r.hostCode);
        v_.problems->setDiagnostics(r.diagnostics);
        lastLive_ = r;
        liveStale_ = false;
        v_.launch->setCompileResult(r, loweredNameFor(r));
        if (r.ok)
            v_.ptx->setPtxasReport(parsePtxasReport(r.log));
        // The error that stopped the last run is fixed: its banner is old news.
        if (r.ok && v_.banner->title() == compileFailedTitle())
            v_.banner->hide();
        v_.liveLabel->setText(r.ok ? tr("✓ compiles (%1 ms)").arg(r.compileMs, 0, 'f', 0)
                                   : errorsText(v_.problems->errorCount()));
    });
    connect(live_, &LiveDiagnostics::unavailable, this, [this](const QString& why) {
        v_.liveLabel->setText(tr("live checking unavailable"));
        v_.liveLabel->setToolTip(why);
    });
    connect(v_.launch, &LaunchPanel::deviceChanged, this, [this](const QString& id) {
        v_.settings->setLastDevice(id);
        updateLiveOptions();
        live_->compileNow(v_.editor->text());
    });
}

void RunController::documentChanged(DocumentPart part)
{
    if (part == DocumentPart::Whole)
        documentReplaced();
    else if (part == DocumentPart::Source) {
        liveStale_ = true;
        // The run due after the pause compiles this text and shows its diagnostics: the
        // live check waits for it rather than share the cores with it.
        if (typing_->isEnabled() && (!runner_->busy() || typing_->waiting())
            && v_.document->document().trust == Trust::Trusted)
            live_->hold();
        live_->sourceEdited(v_.editor->text());
    } else if (part == DocumentPart::Options)
        updateLiveOptions();
    if (part != DocumentPart::Whole)
        typing_->edited();
}

// Nothing of the previous document stays on screen.
void RunController::documentReplaced()
{
    const Document& doc = v_.document->document();
    v_.editor->setDiagnostics({}, LiveDiagnostics::sourceName);
    updateLiveOptions();
    live_->setBaseDir(doc.baseDir());
    v_.problems->setDiagnostics({});
    v_.results->clear();
    v_.printf->clear();
    v_.timings->clear();
    v_.ptx->clear();
    v_.profile->clear();
    v_.profileMargin->clear();
    capture_.reset();
    v_.launch->shapeView()->setPrintf({});
    v_.history->open(QString::fromStdString(doc.path.string())); // its runs of earlier sessions
    v_.steps->clearResult();
    lastRun_.reset();
    lastLive_.reset();
    v_.launch->setCompileResult({}, {}); // registers come from this document's own compile
    v_.editor->setFaultLine(0);
    runId_ = compileId_ = ptxCompileId_ = -1;
    applyTrust();
    live_->compileNow(v_.editor->text());
    live_->release(); // nothing held back from the document before
}

void RunController::applyTrust()
{
    const Trust trust = v_.document->document().trust;
    live_->setTrust(trust);
    for (QAction* a : {runAct_, compileAct_, profileAct_, checkAct_})
        a->setEnabled(trust == Trust::Trusted);
    if (trust != Trust::Trusted)
        v_.liveLabel->setText(tr("not checked until trusted"));
}

// Live checks compile for the chosen device's architecture (the simulator stands for
// sm_75), so ptxas reports the registers the launch panel's occupancy needs.
void RunController::updateLiveOptions()
{
    liveStale_ = true;
    CompileOptions options = v_.document->document().options;
    if (options.arch.empty()) {
        const DeviceInfo device = v_.launch->currentDeviceInfo();
        options.arch = Compiler::realArchFor(device.ccMajor, device.ccMinor);
    }
    live_->setOptions(options);
}

void RunController::setRunning(bool running)
{
    // A debugger's commands are mostly answered at once: their progress (and Stop) shows
    // only when one takes longer, a long `continue`, so that no command flashes it. So
    // does a run while typing, one per pause: the busy bar's paints would also hold the
    // window while the result is on its way.
    progressDelay_->stop();
    if (running && (startingTypingRun_ || runner_->onlySessionWork()))
        progressDelay_->start();
    else
        showRunning(running);
    if (!running) {
        stageLabel_->clear();
        v_.steps->setCurrentStep({});
    }
}

void RunController::showRunning(bool running)
{
    progress_->setVisible(running);
    stopAct_->setEnabled(running);
}

void RunController::run() { runOn(v_.launch->currentDevice(), {}); }

ProfileRequest RunController::profileRequest() const
{
    ProfileRequest p;
    p.enabled = true;
    p.capture = capture_;
    return p;
}

void RunController::profileOnSimulator(int line, Dim3 block, quint32 warp)
{
    if (line > 0)
        capture_ = AccessCaptureRequest{{}, line, block, warp};
    runOn(QStringLiteral("sim"), profileRequest());
}

void RunController::runChecked(CheckTool tool)
{
    nameCheck(tool);
    runOn(v_.launch->currentDevice(), {}, tool);
}

void RunController::nameCheck(CheckTool tool)
{
    checkTool_ = tool;
    const QString name = q(toString(tool));
    checkAct_->setText(tr("Check: %1").arg(name));
    checkAct_->setToolTip(tr("Run once with %1 (the menu chooses another check)").arg(name));
}

void RunController::runOn(const QString& device, const ProfileRequest& profile, CheckTool check, bool once)
{
    if (v_.document->document().trust != Trust::Trusted)
        return; // the trust bar says why
    v_.editor->setFaultLine(0);
    // A document of steps is checked whole by the runner (and live, in the step list):
    // the launch panel shows only one of its launches, at its first pass.
    const QStringList issues = v_.document->document().isSequence() ? QStringList() : v_.launch->issues();
    if (!issues.isEmpty()) {
        v_.banner->showError(tr("The launch is not valid for %1").arg(device), issues.join('\n'));
        return;
    }
    v_.banner->hide();
    runDocument_ = v_.document->document();
    runProfile_ = profile;
    RunOverrides overrides;
    overrides.profile = profile;
    if (runDocument_.isSequence())
        overrides.stepBuffers = {"*"}; // the buffers after every step, for the step list to choose from
    if (check != CheckTool::None)
        overrides.check = check;
    Document sent = runDocument_; // the history keeps the document as it is
    if (once) {
        sent.run.warmup = 0;
        sent.run.repeats = 0;
    }
    runId_ = runner_->run(sent, device, overrides);
    stageLabel_->setText(check == CheckTool::None ? tr("Running…") : tr("Running with %1…").arg(q(toString(check))));
}

void RunController::compile()
{
    if (v_.document->document().trust != Trust::Trusted)
        return;
    compileId_ = runner_->compile(v_.document->document(), v_.launch->currentDevice());
    live_->compileNow(v_.editor->text());
}

void RunController::stop() { runner_->stop(); }

void RunController::startSweep(const SweepRequest& request)
{
    if (!v_.launch->issues().isEmpty()) {
        v_.banner->showError(tr("The launch is not valid"), v_.launch->issues().join('\n'));
        v_.sweep->finish();
        return;
    }
    const Document& doc = v_.document->document();
    if (doc.trust != Trust::Trusted) {
        v_.banner->showError(tr("The sweep cannot run"), tr("Trust the document first (the bar above the editor)."));
        v_.sweep->finish();
        return;
    }
    if (const QString why = SweepRunner::problem(doc, request); !why.isEmpty()) {
        v_.banner->showError(tr("The sweep cannot run"), why);
        v_.sweep->finish();
        return;
    }
    v_.sweep->setSimulated(v_.launch->currentDevice() == "sim");
    sweepRunner_->start(doc, request, v_.launch->currentDevice());
}

std::string RunController::compiledSourceName() const
{
    const Document& doc = v_.document->document();
    return doc.sourceName();
}

std::string RunController::loweredNameFor(const CompileResult& r) const
{
    const Document& doc = v_.document->document();
    if (!doc.isSequence())
        return KernelFootprint::loweredName(r, doc.kernel);
    const StepSpec* s = v_.steps->selectedStep();
    return s && s->kind == StepSpec::Kind::Launch ? KernelFootprint::loweredName(r, s->kernel) : std::string();
}

QString RunController::compileFailedTitle() { return tr("Compile failed"); }

QString RunController::errorsText(int n) { return countedNoun(n, tr("1 error"), tr("%1 errors")); }

void RunController::showCompileFailure()
{
    // The banner sends the user to the Problems list: it is put in front, whichever view was.
    v_.banner->showError(compileFailedTitle(),
                         tr("%1; see the Problems list.").arg(errorsText(v_.problems->errorCount())));
    v_.problemsDock->show();
    v_.problemsDock->raise();
}

void RunController::showCompile(const CompileResult& r)
{
    v_.editor->setDiagnostics(r.diagnostics, LiveDiagnostics::sourceName);
    v_.problems->setDiagnostics(r.diagnostics);
    // The launch panel takes its resources from the live check only: that one
    // compiles for a real architecture, a runner's compile for the simulator does not.
    // A run's compile comes without its PTX: the view keeps what it has until the
    // follow-up compile brings it.
    if (!r.ok || !r.ptx.empty())
        v_.ptx->showCompile(r);
}

void RunController::showRun(const std::shared_ptr<const RunResult>& shared)
{
    const RunResult& r = *shared;
    showCompile(r.compile);
    if (!r.compile.ok) {
        // While typing, half-written code is normal: the squiggles say it, not the banner.
        if (runId_ != typingRunId_)
            showCompileFailure();
        return;
    }
    if (!r.findings.empty())
        showFindings(r);
    else if (r.fault)
        showFault(r);
    else
        showOutcome(r);
    // The PTX view: the live check's compile of this very text when it has one, else
    // one more compile on the runner.
    if (r.compile.ptx.empty()) {
        if (lastLive_ && lastLive_->ok && !lastLive_->ptx.empty() && !liveStale_)
            v_.ptx->showCompile(*lastLive_);
        else
            ptxCompileId_ = runner_->compile(v_.document->document(), v_.launch->currentDevice());
    }
    v_.launch->shapeView()->setPrintf(r.printf);
    v_.printf->showOutput(r.printf, r.grid, r.block);
    // A kernel that only prints (hello_from_gpu) has nothing to plot: show its output.
    const bool anyOutput = std::any_of(r.buffers.begin(), r.buffers.end(),
                                       [](const BufferResult& b) { return b.direction != Direction::In; });
    if (!anyOutput && (!r.printf.lines.empty() || !r.printf.untagged.empty()))
        v_.printfDock->raise();
    lastRun_ = shared;
    v_.results->showResult(shared);
    // The figures and buffers of a step belong to the steps that ran: not to steps edited since.
    if (runDocument_.isSequence() && samePart(DocumentPart::Steps, runDocument_, v_.document->document()))
        v_.steps->showResult(r); // may choose a step whose buffers the results then show
    else if (!r.stopped.empty())
        v_.banner->showWarning(tr("The run stopped"), q(r.stopped));
    v_.profile->setSource(v_.editor->text(), q(compiledSourceName()));
    v_.profile->showResult(r, runProfile_);
    v_.profile->setFindings(r.profile ? profileFindings(*r.profile, runDocument_.source)
                                      : std::vector<ProfileFinding>{});
    if (r.profile)
        v_.profileMargin->setProfile(*r.profile, q(compiledSourceName()));
    else
        v_.profileMargin->clear();
    if (runProfile_.enabled) {
        v_.profileDock->show();
        v_.profileDock->raise();
    }
    // Drawn in the next pass of the event loop: together with the results the
    // first display of a run would hold the window for longer than a frame or two.
    QTimer::singleShot(0, v_.timings, [this, shared] {
        if (lastRun_ == shared)
            v_.timings->showResult(*shared);
    });
    int failed = 0;
    for (const CheckResult& c : r.checks)
        failed += c.passed ? 0 : 1;
    const QString cleanCheck = !r.fault && r.check != CheckTool::None && r.findings.empty()
        ? tr(", %1: no problems found").arg(q(toString(r.check)))
        : QString();
    v_.window->statusBar()->showMessage(
        r.fault ? tr("Run failed")
                : (r.device.id == "sim" ? tr("Ran on %1: median simulator time %2 ms (CPU)%3")
                                        : tr("Ran on %1: median %2 ms%3"))
                      .arg(q(r.device.name.empty() ? r.device.id : r.device.name))
                      .arg(r.timings.medianMs, 0, 'g', 4)
                      .arg((r.checks.empty() ? QString()
                                : failed     ? countedNoun(failed, tr(", 1 check FAILED"), tr(", %1 checks FAILED"))
                                             : tr(", checks passed"))
                           + cleanCheck),
        15000);
}

// A run that completed: its warnings in orange; a check that found nothing and what is
// only worth knowing (the simulator's cap on repeats) as information.
void RunController::showOutcome(const RunResult& r)
{
    QStringList warnings, notes;
    for (const std::string& s : r.warnings)
        (isNote(s) ? notes : warnings) << q(s);
    const QString check = q(toString(r.check));
    if (!warnings.isEmpty()) {
        if (r.check != CheckTool::None)
            warnings.prepend(tr("%1: no problems found.").arg(check));
        v_.banner->showWarning(tr("Run finished with warnings"), (warnings + notes).join('\n'));
    } else if (r.check != CheckTool::None) {
        notes.prepend(tr("%1 checked the run on %2 and reported nothing.")
                          .arg(check, q(r.device.name.empty() ? r.device.id : r.device.name)));
        v_.banner->showInformation(tr("%1: no problems found").arg(check), notes.join('\n'));
    } else if (!notes.isEmpty()) {
        v_.banner->showInformation(tr("Run finished"), notes.join('\n'));
    }
}

void RunController::showFault(const RunResult& r)
{
    const Fault& f = *r.fault;
    const std::vector<Diagnostic>& compileDiagnostics = r.compile.diagnostics;
    const Document& doc = v_.document->document();
    const QString path = v_.document->path();
    const std::string compiledName = compiledSourceName();
    const QString label = !doc.sourceFile.empty() ? q(doc.sourceFile)
        : path.isEmpty()                          ? tr("the kernel source")
                                                  : tr("the kernel source of %1").arg(QFileInfo(path).fileName());
    const FaultDescription d(f, compiledName, label);
    QString what = tr("Kernel %1").arg(q(doc.kernel));
    if (!r.faultStep.empty()) {
        const auto step
            = std::find_if(r.steps.begin(), r.steps.end(), [&](const StepResult& s) { return s.path == r.faultStep; });
        what = tr("Step %1 (%2)").arg(q(r.faultStep), q(step == r.steps.end() ? std::string() : step->kernel));
    }
    v_.banner->showError(tr("%1 failed: %2").arg(what, q(toString(f.kind))),
                         d.detail() + tr("\nThe document is unchanged."));
    if (const int line = d.sourceLine(); line > 0) {
        v_.editor->setFaultLine(line);
        v_.editor->goTo(line, 1);
        v_.banner->setAction(tr("Go to line %1").arg(line), [this, line] { v_.editor->goTo(line, 1); });
        // Listed with the compile's messages, so the Problems list jumps there too.
        std::vector<Diagnostic> all = compileDiagnostics;
        all.insert(all.begin(),
                   Diagnostic{compiledName,
                              line,
                              0,
                              Severity::Error,
                              tr("kernel fault: %1").arg(q(toString(f.kind))).toStdString(),
                              {},
                              {}});
        v_.problems->setDiagnostics(all);
    }
}

// A check's findings, like a fault: the banner lists them, the editor marks the
// first, and the Problems list holds each at its line.
void RunController::showFindings(const RunResult& r)
{
    const std::string compiledName = compiledSourceName();
    QStringList lines;
    std::vector<Diagnostic> all = r.compile.diagnostics;
    QList<int> marked; // the editor's lines at fault: both accesses of a race
    auto mark = [&](const std::string& file, int line, const std::string& what) {
        if (line <= 0)
            return;
        const std::string name = file.empty() ? compiledName : file;
        all.push_back(Diagnostic{name, line, 0, Severity::Error, toString(r.check) + std::string(": ") + what, {}, {}});
        if (name == compiledName)
            marked << line;
    };
    for (const CheckFinding& f : r.findings) {
        const QString where = f.line <= 0 ? QString()
            : f.otherLine > 0             ? tr("lines %1 and %2: ").arg(f.otherLine).arg(f.line)
                                          : tr("line %1: ").arg(f.line);
        // The kind in words first, unless the message starts with it: "write after read"
        // says what the sanitizer's "WAR" in the message means.
        QString message = q(f.message);
        if (!f.kind.empty() && !message.startsWith(q(f.kind)))
            message = q(f.kind) + " — " + message;
        lines << where + message + (f.count > 1 ? tr(" (%1 times)").arg(f.count) : QString());
        mark(f.file, f.line, f.kind);
        mark(f.otherFile, f.otherLine, f.kind + " (the other access)");
    }
    v_.banner->showError(
        tr("%1 found %2")
            .arg(q(toString(r.check)), countedNoun(int(r.findings.size()), tr("1 problem"), tr("%1 problems"))),
        lines.join('\n'));
    v_.problems->setDiagnostics(all);
    v_.editor->setFaultLines(marked);
    const int first = r.findings.front().line;
    if (first > 0) {
        v_.editor->goTo(first, 1);
        v_.banner->setAction(tr("Go to line %1").arg(first), [this, first] { v_.editor->goTo(first, 1); });
    }
}

void RunController::showResultStep(const std::optional<StepPath>& path)
{
    if (!lastRun_)
        return;
    const RunResult& r = *lastRun_;
    const std::string key = path ? StepTree::text(*path) : std::string();
    const auto step = std::find_if(r.steps.begin(), r.steps.end(), [&](const StepResult& s) { return s.path == key; });
    if (!path || step == r.steps.end() || step->runs == 0 || step->buffers.empty()) {
        if (v_.results->result() != lastRun_)
            v_.results->showResult(lastRun_);
        return;
    }
    // The step's own view of the run: its buffers, its checks, its launch.
    RunResult view;
    view.ok = r.ok;
    view.device = r.device;
    view.grid = step->grid;
    view.block = step->block;
    view.sharedBytes = step->sharedBytes;
    view.checks = step->checks;
    view.buffers = step->buffers;
    v_.results->showResult(std::move(view));
}

} // namespace kw
