// Over 600 lines: the window is where every panel meets the document and the runner.
// Behaviour lives in the panels and helpers (UnsavedWorkGuard, TrustStore, RunnerClient,
// LaunchPanel, ProfileView, ...); what stays here is their construction and wiring,
// the file actions and the showing of results. Splitting the file actions out is next.
#include "MainWindow.hpp"

#include "compile/KernelFootprint.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "ArgumentsPanel.hpp"
#include "BufferEditor.hpp"
#include "CodeEditor.hpp"
#include "DefaultWindowSize.hpp"
#include "ErrorBanner.hpp"
#include "FaultDescription.hpp"
#include "HelpMenu.hpp"
#include "KernelPicker.hpp"
#include "LaunchPanel.hpp"
#include "LaunchShapeView.hpp"
#include "LiveDiagnostics.hpp"
#include "NotesPanel.hpp"
#include "PresentationScaler.hpp"
#include "ProblemsPanel.hpp"
#include "RunHistory.hpp"
#include "RunHistoryPanel.hpp"
#include "RunnerClient.hpp"
#include "RunnerPicker.hpp"
#include "Settings.hpp"
#include "ShippedSamples.hpp"
#include "TrustBar.hpp"
#include "TrustStore.hpp"
#include "UiResources.hpp"
#include "UnsavedWorkGuard.hpp"
#include "VariablesTable.hpp"
#include "run/ProfileFindings.hpp"

#include "compile/Compiler.hpp"
#include "compile/HostCodeFilter.hpp"
#include "compile/PtxasReportParser.hpp"
#include "compile/SignatureParser.hpp"
#include "data/NdArray.hpp"
#include "doc/BufferFactory.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/DocumentRequests.hpp"
#include "doc/DocumentValidator.hpp"
#include "doc/DocumentWriter.hpp"
#include "doc/Expression.hpp"
#include "doc/VariableScope.hpp"
#include "util/Error.hpp"

#include "SweepRunner.hpp"
#include "profile/ProfileMargin.hpp"
#include "profile/ProfileView.hpp"
#include "views/PrintfPanel.hpp"
#include "views/PtxPanel.hpp"
#include "views/ResultsPanel.hpp"
#include "views/SweepPanel.hpp"
#include "views/TimingsPanel.hpp"

#include <nlohmann/json.hpp>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSaveFile>
#include <QScreen>
#include <QScrollArea>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

namespace kw {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

// A starting document: one kernel, its arguments and a launch that fits it.
Document starterDocument()
{
    Document d;
    d.title = "New kernel";
    d.source = "__global__ void scale(const float* in, float* out, float factor, int n)\n"
               "{\n"
               "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "    if (i < n)\n"
               "        out[i] = factor * in[i];\n"
               "}\n";
    d.kernel = "scale";
    d.variables = {{"n", "1024"}, {"block", "256"}};
    BufferSpec in{"in", DType::F32, "n", {}, {}, Direction::In, true};
    in.init.kind = Initialiser::Kind::Arange;
    BufferSpec out{"out", DType::F32, "n", {}, {}, Direction::Out, true};
    d.buffers = {in, out};
    d.args = {{"in", "in", DType::F32, ""},
              {"out", "out", DType::F32, ""},
              {"factor", "", DType::F32, "2"},
              {"n", "", DType::I32, "n"}};
    d.launch.grid = {"cdiv(n, block)", "1", "1"};
    d.launch.block = {"block", "1", "1"};
    d.trust = Trust::Trusted; // the user's own
    return d;
}

// A document whose source_file an untrusted load refuses, opened for reading with
// a note in place of that file's text (which is read only once it is trusted).
Document withoutSourceFile(const QByteArray& bytes, const QString& path)
{
    nlohmann::json j = nlohmann::json::parse(bytes.toStdString());
    const std::string file = j.value("source_file", std::string());
    j.erase("source_file");
    j["source"] = "// The source file \"" + file
        + "\" lies outside the document's folder.\n// It is read only if you trust this document.\n";
    return DocumentReader::parse(j.dump(), path.toStdString(), Trust::Untrusted);
}
} // namespace

MainWindow::MainWindow(const Options& options, QWidget* parent)
    : QMainWindow(parent)
    , options_(options)
    , settings_(new Settings)
{
    initUiResources();
    setObjectName("MainWindow");
    setWindowIcon(QIcon(":/kw/app.svg"));
    setDockNestingEnabled(true);
    normalFont_ = QApplication::font();

    editor_ = new CodeEditor;
    editor_->setFontSize(settings_->editorFontSize());
    editor_->setAnnotationsVisible(settings_->inlineAnnotations());
    picker_ = new KernelPicker;
    banner_ = new ErrorBanner;
    trustBar_ = new TrustBar;
    trust_ = std::make_unique<TrustStore>(*settings_);
    connect(trustBar_, &TrustBar::trustRequested, this, &MainWindow::trustCurrentDocument);
    auto* central = new QWidget;
    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 2, 4, 2);
    top->addWidget(new QLabel(tr("Kernel:")));
    top->addWidget(picker_);
    top->addStretch();
    diagLabel_ = new QLabel;
    top->addWidget(diagLabel_);
    auto* v = new QVBoxLayout(central);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    v->addLayout(top);
    v->addWidget(trustBar_);
    v->addWidget(banner_);
    v->addWidget(editor_, 1);
    setCentralWidget(central);

    live_ = new LiveDiagnostics(this);
    runner_ = new RunnerClient(this);
    if (!options_.runnerProgram.isEmpty())
        runner_->setProgram(options_.runnerProgram);
    top->addWidget(new RunnerPicker(runner_, settings_, central), 1);

    buildDocks();
    buildActions();
    wireRunner();

    stageLabel_ = new QLabel;
    progress_ = new QProgressBar;
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(120);
    progress_->hide();
    statusBar()->addPermanentWidget(stageLabel_);
    statusBar()->addPermanentWidget(progress_);

    signatureTimer_.setSingleShot(true);
    signatureTimer_.setInterval(150);
    connect(&signatureTimer_, &QTimer::timeout, this, &MainWindow::updateKernels);
    connect(editor_, &QsciScintilla::textChanged, this, &MainWindow::sourceChanged);
    connect(picker_, &KernelPicker::kernelChanged, this, [this] {
        kernelChosen();
        documentChanged();
    });
    connect(live_, &LiveDiagnostics::started, this, [this] { diagLabel_->setText(tr("checking…")); });
    connect(live_, &LiveDiagnostics::finished, this, [this](const CompileResult& r) {
        editor_->setDiagnostics(r.diagnostics, LiveDiagnostics::sourceName);
        // What the compile left out, NVRTC's verdict included; the first pass alone is
        // shown while typing (showSourceStructure).
        editor_->setHostCode(r.hostCode);
        problems_->setDiagnostics(r.diagnostics);
        launch_->setCompileResult(r, loweredNameFor(r));
        if (r.ok)
            ptx_->setPtxasReport(parsePtxasReport(r.log));
        // The error that stopped the last run is fixed: its banner is old news.
        if (r.ok && banner_->title() == compileFailedTitle())
            banner_->hide();
        diagLabel_->setText(r.ok ? tr("✓ compiles (%1 ms)").arg(r.compileMs, 0, 'f', 0)
                                 : tr("%n error(s)", nullptr, problems_->errorCount()));
    });
    connect(live_, &LiveDiagnostics::unavailable, this, [this](const QString& why) {
        diagLabel_->setText(tr("live checking unavailable"));
        diagLabel_->setToolTip(why);
    });
    connect(problems_, &ProblemsPanel::locationActivated, editor_, &CodeEditor::goTo);
    // The Profile view and the editor margin show the same counter and point at each other.
    profileMargin_ = new ProfileMargin(editor_);
    connect(profile_, &ProfileView::metricChanged, profileMargin_, &ProfileMargin::setMetric);
    connect(profile_, &ProfileView::lineActivated, editor_, [this](int line) { editor_->goTo(line, 1); });
    connect(profileMargin_, &ProfileMargin::lineClicked, this, [this](int line) {
        profile_->selectLine(line);
        profileDock_->show();
        profileDock_->raise();
    });
    connect(profile_, &ProfileView::profileRequested, this, &MainWindow::profileOnSimulator);
    // A block picked in the printf grid is shown where it sits in the launch drawing,
    // scrolled into view: the drawing sits below the launch fields.
    connect(printf_, &PrintfPanel::blockSelected, this, [this](const Dim3& block) {
        launch_->shapeView()->selectBlock(block);
        shapeDock_->show();
        shapeDock_->raise();
    });
    connect(variables_, &VariablesTable::changed, this, [this] {
        launch_->setVariables(variables_->variables());
        arguments_->setVariableNames(variables_->names());
        arguments_->bufferEditor()->refreshPreview();
        documentChanged();
    });
    connect(arguments_, &ArgumentsPanel::changed, this, [this] { documentChanged(); });
    connect(launch_, &LaunchPanel::changed, this, [this] { documentChanged(); });
    connect(launch_, &LaunchPanel::deviceChanged, this, [this](const QString& id) {
        settings_->setLastDevice(id);
        updateLiveOptions();
        if (!loading_)
            live_->compileNow(editor_->text());
    });

    // The preview runs the core's initialiser on the buffer as it stands.
    arguments_->bufferEditor()->setPreview([this](const BufferSpec& b) -> QString {
        try {
            const VariableScope scope = VariableScope::evaluate(variables_->variables());
            const BufferFactory factory(scope, base_.baseDir(), base_.trust);
            const std::int64_t count = scope.evaluateInteger(b.count, "count");
            if (count > (std::int64_t(1) << 24))
                return tr("%L1 elements (no preview past 16 M)").arg(count);
            const NdArray a = factory.create(b, "buffer " + b.name);
            QStringList vals;
            for (std::size_t i = 0; i < std::min<std::size_t>(a.data.count(), 8); ++i)
                vals << q(formatNumber(a.data.at(i)));
            return tr("%L1 elements: %2%3").arg(a.data.count()).arg(vals.join(", "), a.data.count() > 8 ? ", …" : "");
        } catch (const std::exception& e) {
            return QString::fromUtf8(e.what());
        }
    });

    recovery_ = new UnsavedWorkGuard({[this] { return isWindowModified(); }, [this] { return currentDocument(); },
                                      [this] { return path_; },
                                      [this](const Document& doc, const QString& origin) {
                                          loadDocument(doc);
                                          path_ = origin;
                                          setModified(true);
                                      }},
                                     this);
    connect(recovery_, &UnsavedWorkGuard::writeFailed, this,
            [this](const QString& why) { statusBar()->showMessage(tr("Autosave failed: %1").arg(why), 8000); });
    connect(recovery_, &UnsavedWorkGuard::restoreFailed, this,
            [this](const QString& why) { banner_->showError(tr("Cannot restore the recovery copy"), why); });
    if (options_.autosave)
        recovery_->startAutosave(15000);

    bool geometryRestored = false;
    if (options_.restoreLayout) {
        geometryRestored = restoreGeometry(settings_->windowGeometry());
        layoutRestored_ = restoreState(settings_->windowState());
    }
    if (!geometryRestored) {
        // While the docks were added side by side, before they were tabbed, the layout
        // asked for the width of all of them; settle it before sizing the window.
        layout()->activate();
        if (const QScreen* screen = QGuiApplication::primaryScreen())
            setGeometry(DefaultWindowSize::within(screen->availableGeometry()));
    }
    if (!settings_->lastDevice().isEmpty())
        launch_->setCurrentDevice(settings_->lastDevice());
    loadDocument(starterDocument());
    runner_->start();
}

MainWindow::~MainWindow()
{
    runner_->shutdown();
    delete settings_;
}

QDockWidget* MainWindow::addDock(QWidget* w, const QString& title, const QString& objectName, Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(w);
    addDockWidget(area, dock);
    docks_.push_back(dock);
    return dock;
}

void MainWindow::buildDocks()
{
    arguments_ = new ArgumentsPanel;
    launch_ = new LaunchPanel;
    variables_ = new VariablesTable;
    problems_ = new ProblemsPanel;
    notes_ = new NotesPanel;
    printf_ = new PrintfPanel;
    results_ = new ResultsPanel;
    timings_ = new TimingsPanel;
    ptx_ = new PtxPanel;
    profile_ = new ProfileView;
    sweep_ = new SweepPanel;
    history_ = new RunHistory(this);
    historyPanel_ = new RunHistoryPanel(history_);

    launchScroll_ = new QScrollArea;
    launchScroll_->setWidget(launch_);
    launchScroll_->setWidgetResizable(true);

    // The right column runs the window's full height: the launch fields and the
    // arguments need it more than the bottom tabs need the width.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    QDockWidget* notes = addDock(notes_, tr("Notes"), "notesDock", Qt::LeftDockWidgetArea);
    QDockWidget* vars = addDock(variables_, tr("Variables"), "variablesDock", Qt::LeftDockWidgetArea);
    QDockWidget* launch = addDock(launchScroll_, tr("Launch"), "launchDock", Qt::RightDockWidgetArea);
    QDockWidget* args = addDock(arguments_, tr("Arguments"), "argumentsDock", Qt::RightDockWidgetArea);
    QDockWidget* results = addDock(results_, tr("Results"), "resultsDock", Qt::BottomDockWidgetArea);
    QDockWidget* pf = addDock(printf_, tr("printf"), "printfDock", Qt::BottomDockWidgetArea);
    printfDock_ = pf;
    QDockWidget* timings = addDock(timings_, tr("Timings"), "timingsDock", Qt::BottomDockWidgetArea);
    profileDock_ = addDock(profile_, tr("Profile"), "profileDock", Qt::BottomDockWidgetArea);
    QDockWidget* problems = addDock(problems_, tr("Problems"), "problemsDock", Qt::BottomDockWidgetArea);
    QDockWidget* ptx = addDock(ptx_, tr("PTX"), "ptxDock", Qt::BottomDockWidgetArea);
    QDockWidget* sweep = addDock(sweep_, tr("Sweep"), "sweepDock", Qt::BottomDockWidgetArea);
    // The launch drawing is taken out of the launch panel, which stays short.
    shapeDock_ = addDock(launch_->shapeView(), tr("Launch shape"), "launchShapeDock", Qt::BottomDockWidgetArea);
    QDockWidget* history = addDock(historyPanel_, tr("Run history"), "runHistoryDock", Qt::BottomDockWidgetArea);
    tabifyDockWidget(notes, vars);
    notes->raise();
    splitDockWidget(launch, args, Qt::Vertical);
    for (QDockWidget* d : {pf, timings, profileDock_, problems, ptx, sweep, shapeDock_, history})
        tabifyDockWidget(results, d);
    results->raise();
    // Sizes only take once the window has its size; a restored layout wins.
    // Sizes only take once the window is shown at its size; a restored layout wins.
    applyDefaultDockSizes_ = [=, this] {
        // The editor keeps about half the width and most of the height; the launch
        // fields get the height they need, the arguments the rest of the column.
        const int w = width(), h = height();
        resizeDocks({notes, launch}, {int(w * 0.2), int(w * 0.3)}, Qt::Horizontal);
        const int launchHeight = launch_->sizeHint().height() + 40;
        resizeDocks({launch, args}, {launchHeight, std::max(200, h - 120 - launchHeight)}, Qt::Vertical);
        resizeDocks({results}, {int(h * 0.36)}, Qt::Vertical);
    };
    hiddenInPresentation_ = {vars, problems, ptx, sweep, timings};
}

void MainWindow::buildActions()
{
    auto act = [this](const QString& text, const QString& icon, QKeySequence key, auto slot) {
        auto* a = new QAction(icon.isEmpty() ? QIcon() : QIcon(icon), text, this);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* newAct = act(tr("&New"), ":/kw/icons/new.svg", QKeySequence::New, &MainWindow::newDocument);
    QAction* openAct = act(tr("&Open…"), ":/kw/icons/open.svg", QKeySequence::Open, &MainWindow::open);
    QAction* saveAct = act(tr("&Save"), ":/kw/icons/save.svg", QKeySequence::Save, &MainWindow::save);
    file->addAction(newAct);
    file->addAction(openAct);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(saveAct);
    file->addAction(act(tr("Save &As…"), "", QKeySequence::SaveAs, &MainWindow::saveAs));
    file->addSeparator();
    file->addAction(act(tr("&Quit"), "", QKeySequence::Quit, &QWidget::close));
    populateSamples(menuBar()->addMenu(tr("&Samples")));

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    // The editor's own keys do the work while it has focus; the menu makes them known.
    auto editAction = [&](const QString& text, QKeySequence::StandardKey key, auto slot) {
        QAction* a = edit->addAction(text, editor_, slot);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetShortcut); // the editor's key handling stays in charge
        editor_->addAction(a);
        return a;
    };
    editAction(tr("&Undo"), QKeySequence::Undo, &QsciScintilla::undo);
    editAction(tr("&Redo"), QKeySequence::Redo, &QsciScintilla::redo);
    edit->addSeparator();
    QAction* cutAct = editAction(tr("Cu&t"), QKeySequence::Cut, &QsciScintilla::cut);
    QAction* copyAct = editAction(tr("&Copy"), QKeySequence::Copy, &QsciScintilla::copy);
    editAction(tr("&Paste"), QKeySequence::Paste, &QsciScintilla::paste);
    cutAct->setEnabled(false);
    copyAct->setEnabled(false);
    connect(editor_, &QsciScintilla::copyAvailable, cutAct, &QAction::setEnabled);
    connect(editor_, &QsciScintilla::copyAvailable, copyAct, &QAction::setEnabled);
    edit->addSeparator();
    edit->addAction(tr("&Find…"), editor_, &CodeEditor::showFind);
    edit->addAction(tr("&Replace…"), editor_, &CodeEditor::showReplace);
    edit->addSeparator();
    edit->addAction(tr("Larger font"), QKeySequence(Qt::CTRL | Qt::Key_Equal), this, [this] {
        editor_->setFontSize(editor_->fontSize() + 1);
        settings_->setEditorFontSize(editor_->fontSize());
    });
    edit->addAction(tr("Smaller font"), QKeySequence(Qt::CTRL | Qt::Key_Minus), this, [this] {
        editor_->setFontSize(editor_->fontSize() - 1);
        settings_->setEditorFontSize(editor_->fontSize());
    });
    annotAct_ = edit->addAction(tr("Inline diagnostics under the line"));
    annotAct_->setCheckable(true);
    annotAct_->setChecked(editor_->annotationsVisible());
    connect(annotAct_, &QAction::toggled, this, [this](bool on) {
        editor_->setAnnotationsVisible(on);
        settings_->setInlineAnnotations(on);
    });

    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    runAct_ = act(tr("&Run"), ":/kw/icons/run.svg", QKeySequence(Qt::Key_F5), &MainWindow::run);
    runAct_->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
    runAct_->setToolTip(tr("Compile and run the kernel (F5, Ctrl+R)"));
    compileAct_
        = act(tr("&Compile"), ":/kw/icons/compile.svg", QKeySequence(Qt::CTRL | Qt::Key_B), &MainWindow::compile);
    compileAct_->setToolTip(tr("Compile for the chosen device (Ctrl+B)"));
    stopAct_ = act(tr("&Stop"), ":/kw/icons/stop.svg", QKeySequence(Qt::SHIFT | Qt::Key_F5), &MainWindow::stop);
    stopAct_->setEnabled(false);
    runMenu->addAction(runAct_);
    runMenu->addAction(compileAct_);
    runMenu->addAction(stopAct_);
    runMenu->addSeparator();
    profileAct_ = runMenu->addAction(QIcon(":/kw/icons/profile.svg"), tr("&Profile per line (simulator)"));
    profileAct_->setCheckable(true);
    profileAct_->setToolTip(
        tr("Runs on the CPU simulator count, per source line, what Nsight Compute counts on a GPU"));
    profileAct_->setIconText(tr("Profile"));
    // One check at a time, as compute-sanitizer runs one tool at a time.
    QMenu* checkMenu = runMenu->addMenu(tr("&Check"));
    checkMenu->setToolTipsVisible(true);
    auto* checkGroup = new QActionGroup(this);
    const std::pair<CheckTool, QString> tools[] = {{CheckTool::None, tr("&No check")},
                                                   {CheckTool::Memcheck, tr("&Memory errors (memcheck)")},
                                                   {CheckTool::Racecheck, tr("Shared-memory &races (racecheck)")},
                                                   {CheckTool::Initcheck, tr("&Uninitialised reads (initcheck)")},
                                                   {CheckTool::Synccheck, tr("&Barrier misuse (synccheck)")}};
    for (const auto& [tool, label] : tools) {
        QAction* a = checkMenu->addAction(label);
        a->setCheckable(true);
        a->setChecked(tool == CheckTool::None);
        a->setData(int(tool));
        a->setToolTip(tr("On the simulator its own checks; on a GPU compute-sanitizer"));
        checkGroup->addAction(a);
    }
    connect(checkGroup, &QActionGroup::triggered, this,
            [this](QAction* a) { checkTool_ = CheckTool(a->data().toInt()); });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    presentAct_ = act(tr("&Presentation mode"), ":/kw/icons/presentation.svg", QKeySequence(Qt::Key_F11), [] {});
    presentAct_->setCheckable(true);
    connect(presentAct_, &QAction::toggled, this, &MainWindow::setPresentationMode);
    view->addAction(presentAct_);
    view->addSeparator();
    for (QDockWidget* d : docks_)
        view->addAction(d->toggleViewAction());

    menuBar()->addMenu(new HelpMenu(this));

    auto* tb = addToolBar(tr("Main"));
    tb->setObjectName("mainToolBar");
    tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    for (QAction* a : {newAct, openAct, saveAct})
        tb->addAction(a);
    tb->addSeparator();
    for (QAction* a : {runAct_, compileAct_, stopAct_, profileAct_, presentAct_})
        tb->addAction(a);
    refreshRecentMenu();
}

void MainWindow::populateSamples(QMenu* menu)
{
    const QDir dir(samplesDir());
    const QStringList files = dir.entryList({"*.kwb"}, QDir::Files, QDir::Name);
    if (files.isEmpty()) {
        menu->addAction(tr("(no samples found)"))->setEnabled(false);
        return;
    }
    for (const QString& f : files) {
        const QString path = dir.filePath(f);
        menu->addAction(QFileInfo(f).completeBaseName().replace('_', ' '), this, [this, path] {
            if (maybeSave())
                openDocument(path);
        });
    }
}

QString MainWindow::samplesDir()
{
    const QDir app(QCoreApplication::applicationDirPath());
    const QString installed = app.filePath("../share/kernel-workbench/samples");
    if (QDir(installed).exists())
        return QDir(installed).canonicalPath();
    return QString(KW_SOURCE_SAMPLES_DIR);
}

bool MainWindow::isShippedSample(const QString& path)
{
    if (TrustStore::isShipped(path, samplesDir()))
        return true;
    // Run from its build tree, the sources' samples are the program's own too.
    const bool buildTree = QFileInfo::exists(QCoreApplication::applicationDirPath() + "/../CMakeCache.txt");
    return buildTree && TrustStore::isShipped(path, QString(KW_SOURCE_SAMPLES_DIR));
}

void MainWindow::wireRunner()
{
    sweepRunner_ = new SweepRunner(runner_, sweep_, this);
    connect(sweep_, &SweepPanel::sweepRequested, this, [this](const SweepRequest& request) {
        if (!launch_->issues().isEmpty()) {
            banner_->showError(tr("The launch is not valid"), launch_->issues().join('\n'));
            sweep_->finish();
            return;
        }
        const Document doc = currentDocument();
        if (doc.trust != Trust::Trusted) {
            banner_->showError(tr("The sweep cannot run"), tr("Trust the document first (the bar above the editor)."));
            sweep_->finish();
            return;
        }
        if (const QString why = SweepRunner::problem(doc, request); !why.isEmpty()) {
            banner_->showError(tr("The sweep cannot run"), why);
            sweep_->finish();
            return;
        }
        sweep_->setSimulated(launch_->currentDevice() == "sim");
        sweepRunner_->start(doc, request, launch_->currentDevice());
    });
    connect(sweepRunner_, &SweepRunner::pointFailed, this, [this](const QString& value, const QString& why) {
        banner_->showWarning(tr("Sweep point %1 failed").arg(value), why);
    });
    connect(runner_, &RunnerClient::devicesChanged, launch_, &LaunchPanel::setDevices);
    connect(runner_, &RunnerClient::busyChanged, this, &MainWindow::setRunning);
    connect(runner_, &RunnerClient::stageChanged, this,
            [this](int, const QString& stage) { stageLabel_->setText(tr("Running: %1").arg(stage)); });
    connect(runner_, &RunnerClient::compileFinished, this, [this](int id, const CompileResult& r) {
        if (id == ptxCompileId_) {
            ptx_->showCompile(r);
            return;
        }
        if (id != compileId_)
            return;
        showCompile(r);
        statusBar()->showMessage(r.ok ? tr("Compiled for %1 in %2 ms").arg(q(r.arch)).arg(r.compileMs, 0, 'f', 1)
                                      : tr("Compile failed"),
                                 8000);
        emit compileCompleted(r);
    });
    // The shared result: the results panel keeps it without copying its buffers.
    connect(runner_, &RunnerClient::runResultReady, this, [this](int id, const std::shared_ptr<const RunResult>& r) {
        if (id != runId_)
            return;
        history_->add(runDocument_, q(r->device.name.empty() ? r->device.id : r->device.name), r);
        showRun(r);
        emit runCompleted(*r);
    });
    connect(runner_, &RunnerClient::jobFailed, this, [this](int id, const QString& message) {
        if (id != runId_ && id != compileId_)
            return;
        banner_->showError(tr("The job did not complete"), message);
        statusBar()->showMessage(message, 8000);
    });
    connect(runner_, &RunnerClient::runnerRestarted, this,
            [this](const QString& what) { banner_->showError(tr("Runner restarted"), what); });
}

void MainWindow::setRunning(bool running)
{
    progress_->setVisible(running);
    stopAct_->setEnabled(running);
    if (!running)
        stageLabel_->clear();
}

void MainWindow::sourceChanged()
{
    if (loading_)
        return;
    editor_->setFaultLine(0);
    documentChanged();
    live_->sourceEdited(editor_->text());
    signatureTimer_.start();
}

void MainWindow::updateKernels()
{
    const std::string source = editor_->text().toStdString();
    picker_->setKernels(
        DocumentValidator::kernels(source, base_.baseDir(), base_.sourceFile.empty() ? "kernel.cu" : base_.sourceFile));
    showSourceStructure(source);
    kernelChosen();
}

void MainWindow::showSourceStructure(const std::string& source)
{
    editor_->setHostCode(HostCodeFilter::deviceOnly(source).removed);
    arguments_->setModuleGlobals(parseModuleGlobals(source));
}

void MainWindow::kernelChosen()
{
    if (auto sig = picker_->currentSignature())
        arguments_->setSignature(*sig);
}

std::string MainWindow::loweredNameFor(const CompileResult& r) const
{
    return KernelFootprint::loweredName(r, picker_->currentKernel().toStdString());
}

void MainWindow::loadDocument(const Document& doc)
{
    loading_ = true;
    base_ = doc;
    banner_->hide();
    editor_->setText(q(doc.source));
    editor_->SendScintilla(QsciScintilla::SCI_EMPTYUNDOBUFFER); // undo never reaches the previous document
    editor_->setDiagnostics({}, LiveDiagnostics::sourceName);
    variables_->setVariables(doc.variables);
    arguments_->setVariableNames(variables_->names());
    arguments_->bufferEditor()->setBaseDir(q(doc.baseDir().string()));
    launch_->setVariables(doc.variables);
    launch_->setLaunch(doc.launch, doc.run);
    arguments_->load(doc.buffers, doc.args);
    {
        const QSignalBlocker quiet(picker_); // one setSignature below, for the document's kernel
        picker_->setKernels(DocumentValidator::kernels(doc.source, doc.baseDir(),
                                                       doc.sourceFile.empty() ? "kernel.cu" : doc.sourceFile));
        picker_->setCurrentKernel(q(doc.kernel));
    }
    showSourceStructure(doc.source);
    kernelChosen();
    notes_->setNotes(q(doc.title), q(doc.description), doc.baseDir());
    updateLiveOptions();
    live_->setBaseDir(doc.baseDir());
    problems_->setDiagnostics({});
    // Nothing of the previous document stays on screen.
    results_->clear();
    printf_->clear();
    timings_->clear();
    ptx_->clear();
    profile_->clear();
    profileMargin_->clear();
    capture_.reset();
    launch_->shapeView()->setPrintf({});
    history_->clear();
    editor_->setFaultLine(0);
    runId_ = compileId_ = ptxCompileId_ = -1;
    applyTrust();
    loading_ = false;
    live_->compileNow(editor_->text());
    setModified(false);
    editor_->setFocus();
}

// Live checks compile for the chosen device's architecture (the simulator stands for
// sm_75), so ptxas reports the registers the launch panel's occupancy needs.
void MainWindow::updateLiveOptions()
{
    CompileOptions options = base_.options;
    if (options.arch.empty()) {
        const DeviceInfo device = launch_->currentDeviceInfo();
        options.arch = Compiler::realArchFor(device.ccMajor, device.ccMinor);
    }
    live_->setOptions(options);
}

Document MainWindow::currentDocument() const
{
    Document d = base_;
    d.source = editor_->text().toStdString();
    d.kernel = picker_->currentKernel().toStdString();
    d.variables = variables_->variables();
    d.buffers = arguments_->buffers();
    d.args = arguments_->args();
    // Globals and reference buffers have no parameter row: they stay as the document had them.
    for (const BufferSpec& b : base_.buffers) {
        const auto named = [&](const auto& list, auto field) {
            return std::any_of(list.begin(), list.end(), [&](const auto& e) { return e.*field == b.name; });
        };
        if (!named(d.buffers, &BufferSpec::name) && (b.global || !named(base_.args, &ArgSpec::buffer)))
            d.buffers.push_back(b);
    }
    const auto sameArgs = [](const std::vector<ArgSpec>& a, const std::vector<ArgSpec>& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const ArgSpec& x, const ArgSpec& y) {
            return x.name == y.name && x.buffer == y.buffer && x.offset == y.offset && x.type == y.type
                && x.value == y.value;
        });
    };
    d.argsAuto = base_.argsAuto && sameArgs(d.args, base_.args);
    d.launch = launch_->launch();
    d.run = launch_->runSettings();
    return d;
}

void MainWindow::applyTrust(const QString& refusal)
{
    const bool trusted = base_.trust == Trust::Trusted;
    live_->setTrust(base_.trust);
    runAct_->setEnabled(trusted);
    compileAct_->setEnabled(trusted);
    if (trusted) {
        trustBar_->hide();
    } else {
        // What the source names, and every header it reaches, nested ones too.
        std::vector<DocumentRequest> requests = documentRequests(base_);
        for (const BroughtFile& f : TrustManifest::filesOf(base_))
            if (f.role.rfind("#include", 0) == 0)
                requests.push_back({DocumentRequest::Kind::File, "header", f.shownAs});
        trustBar_->showFor(requests, refusal);
        diagLabel_->setText(tr("not checked until trusted"));
    }
}

// The files the document at `path` brings, read as an untrusted document reads them.
static std::vector<BroughtFile> broughtFiles(const QByteArray& bytes, const QString& path)
{
    try {
        return TrustManifest::filesOf(DocumentReader::parse(bytes.toStdString(), path.toStdString(), Trust::Untrusted));
    } catch (const std::exception&) {
        return {}; // what cannot be read as a document brings nothing the record could hold
    }
}

void MainWindow::trustCurrentDocument()
{
    QFile f(path_);
    if (!path_.isEmpty() && !isWindowModified() && f.open(QIODevice::ReadOnly)) {
        const QByteArray bytes = f.readAll();
        trust_->trust(bytes, broughtFiles(bytes, path_));
        f.close();
        openDocument(path_); // again, now with its source file and options allowed
        return;
    }
    base_.trust = Trust::Trusted;
    applyTrust();
    live_->compileNow(editor_->text());
}

bool MainWindow::openDocument(const QString& path)
{
    try {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            throw std::runtime_error("cannot read " + path.toStdString());
        const QByteArray bytes = file.readAll();
        QStringList changed; // files swapped since the user trusted this document
        const std::vector<BroughtFile> brought = broughtFiles(bytes, path);
        const bool shipped = isShippedSample(path) && ShippedSamples::shipped(bytes, brought);
        const Trust trust = shipped || trust_->isTrusted(bytes, brought, &changed) ? Trust::Trusted : Trust::Untrusted;
        Document doc;
        try {
            doc = DocumentReader::readString(bytes.toStdString(), path.toStdString(), trust);
        } catch (const Error& validation) {
            // Open what parses so the user can fix what the validator refused.
            const bool refused = validation.category() == ErrorCategory::Untrusted;
            doc = refused ? withoutSourceFile(bytes, path)
                          : DocumentReader::parse(bytes.toStdString(), path.toStdString(), trust);
            loadDocument(doc);
            if (refused)
                applyTrust(QString::fromUtf8(validation.what()));
            else
                banner_->showWarning(tr("The document has problems"), QString::fromUtf8(validation.what()));
            path_ = QFileInfo(path).absoluteFilePath();
            settings_->addRecentFile(path_);
            refreshRecentMenu();
            updateTitle();
            return true;
        }
        loadDocument(doc);
        if (!changed.isEmpty())
            applyTrust(tr("You trusted this document, but files it brings changed since: %1.").arg(changed.join(", ")));
    } catch (const std::exception& e) {
        banner_->showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), QString::fromUtf8(e.what()));
        return false;
    }
    path_ = QFileInfo(path).absoluteFilePath();
    settings_->addRecentFile(path_);
    refreshRecentMenu();
    updateTitle();
    return true;
}

void MainWindow::newDocument()
{
    if (!maybeSave())
        return;
    path_.clear();
    loadDocument(starterDocument());
    updateTitle();
}

void MainWindow::open()
{
    if (!maybeSave())
        return;
    const QString dir = path_.isEmpty() ? samplesDir() : QFileInfo(path_).absolutePath();
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Open document"), dir, tr("Workbench documents (*.kwb)"));
    if (!path.isEmpty())
        openDocument(path);
}

bool MainWindow::isInstalledSample(const QString& path)
{
    const QString dir = samplesDir();
    const QString file = QFileInfo(path).canonicalFilePath();
    return !dir.isEmpty() && !file.isEmpty() && file.startsWith(QDir(dir).canonicalPath() + '/');
}

bool MainWindow::save()
{
    // A sample belongs to the installation: saving it means saving a copy.
    return path_.isEmpty() || isInstalledSample(path_) ? saveAs() : writeTo(path_);
}

bool MainWindow::saveAs()
{
    QString suggested = QDir::homePath() + "/untitled.kwb";
    if (!path_.isEmpty())
        suggested = isInstalledSample(path_) ? QDir::homePath() + '/' + QFileInfo(path_).fileName() : path_;
    QString path
        = QFileDialog::getSaveFileName(this, tr("Save document"), suggested, tr("Workbench documents (*.kwb)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(".kwb"))
        path += ".kwb";
    return writeTo(path);
}

bool MainWindow::writeTo(const QString& path)
{
    Document doc = currentDocument();
    try {
        if (!doc.sourceFile.empty()) {
            // The writer stores only the document; the source beside it is ours to write.
            const QString sourcePath = QFileInfo(path).absoluteDir().filePath(q(doc.sourceFile));
            QSaveFile src(sourcePath);
            if (!src.open(QIODevice::WriteOnly) || src.write(QByteArray::fromStdString(doc.source)) < 0
                || !src.commit())
                throw std::runtime_error("cannot write " + sourcePath.toStdString());
        }
        DocumentWriter::writeFile(doc, path.toStdString());
        if (base_.trust == Trust::Trusted) { // what the user saves from a trusted document is theirs
            QFile written(path);
            if (written.open(QIODevice::ReadOnly)) {
                const QByteArray bytes = written.readAll();
                trust_->trust(bytes, broughtFiles(bytes, path));
            }
        }
    } catch (const std::exception& e) {
        banner_->showError(tr("Cannot save %1").arg(QFileInfo(path).fileName()), QString::fromUtf8(e.what()));
        return false;
    }
    path_ = QFileInfo(path).absoluteFilePath();
    base_.path = path_.toStdString();
    settings_->addRecentFile(path_);
    refreshRecentMenu();
    setModified(false);
    removeRecovery();
    statusBar()->showMessage(tr("Saved %1").arg(path_), 4000);
    return true;
}

bool MainWindow::maybeSave()
{
    if (!isWindowModified())
        return true;
    const auto answer
        = QMessageBox::warning(this, tr("Unsaved changes"),
                               tr("%1 has unsaved changes. Save them?")
                                   .arg(path_.isEmpty() ? tr("The document") : QFileInfo(path_).fileName()),
                               QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    if (answer != QMessageBox::Discard)
        return false;
    removeRecovery(); // the changes it holds were just thrown away
    return true;
}

void MainWindow::setModified(bool on)
{
    if (loading_)
        return;
    forcedModified_ = on;
    if (!on)
        savedState_ = DocumentWriter::toString(currentDocument());
    setWindowModified(on);
    updateTitle();
}

// Modified means "differs from what was saved": undoing back to the saved text, or
// setting a field back, clears the mark.
void MainWindow::documentChanged()
{
    if (loading_)
        return;
    setWindowModified(forcedModified_ || DocumentWriter::toString(currentDocument()) != savedState_);
    updateTitle();
}

void MainWindow::updateTitle()
{
    const QString name = path_.isEmpty() ? tr("untitled.kwb") : QFileInfo(path_).fileName();
    const QString sample = !path_.isEmpty() && isInstalledSample(path_) ? tr(" (sample, read-only)") : QString();
    setWindowTitle(name + sample + "[*] — Kernel Workbench");
}

void MainWindow::refreshRecentMenu()
{
    recentMenu_->clear();
    for (const QString& path : settings_->recentFiles()) {
        recentMenu_->addAction(path, this, [this, path] {
            if (!maybeSave())
                return;
            if (!QFileInfo::exists(path)) {
                settings_->removeRecentFile(path);
                refreshRecentMenu();
                banner_->showError(tr("Cannot open %1").arg(path), tr("The file no longer exists."));
                return;
            }
            openDocument(path);
        });
    }
    recentMenu_->setEnabled(!recentMenu_->isEmpty());
}

void MainWindow::run() { runOn(launch_->currentDevice(), nextRunProfile()); }

ProfileRequest MainWindow::nextRunProfile() const
{
    ProfileRequest p;
    p.enabled = profileAct_->isChecked();
    if (p.enabled)
        p.capture = capture_;
    return p;
}

void MainWindow::profileOnSimulator(int line, Dim3 block, quint32 warp)
{
    if (line > 0)
        capture_ = AccessCaptureRequest{{}, line, block, warp};
    ProfileRequest p;
    p.enabled = true;
    p.capture = capture_;
    runOn(QStringLiteral("sim"), p);
}

void MainWindow::runOn(const QString& device, const ProfileRequest& profile)
{
    if (base_.trust != Trust::Trusted)
        return; // the trust bar says why
    editor_->setFaultLine(0);
    const QStringList issues = launch_->issues();
    if (!issues.isEmpty()) {
        banner_->showError(tr("The launch is not valid for %1").arg(device), issues.join('\n'));
        return;
    }
    banner_->hide();
    runDocument_ = currentDocument();
    runProfile_ = profile;
    RunOverrides overrides;
    overrides.profile = profile;
    if (checkTool_ != CheckTool::None)
        overrides.check = checkTool_;
    runId_ = runner_->run(runDocument_, device, overrides);
    stageLabel_->setText(tr("Running…"));
}

std::string MainWindow::compiledSourceName() const { return base_.sourceFile.empty() ? "kernel.cu" : base_.sourceFile; }

void MainWindow::compile()
{
    if (base_.trust != Trust::Trusted)
        return;
    compileId_ = runner_->compile(currentDocument(), launch_->currentDevice());
    live_->compileNow(editor_->text());
}

void MainWindow::stop() { runner_->stop(); }

void MainWindow::showCompile(const CompileResult& r)
{
    editor_->setDiagnostics(r.diagnostics, LiveDiagnostics::sourceName);
    problems_->setDiagnostics(r.diagnostics);
    // The launch panel takes its resources from the live check only: that one
    // compiles for a real architecture, a runner's compile for the simulator does not.
    // A run's compile comes without its PTX: the view keeps what it has until the
    // follow-up compile brings it.
    if (!r.ok || !r.ptx.empty())
        ptx_->showCompile(r);
}

void MainWindow::showRun(const std::shared_ptr<const RunResult>& shared)
{
    const RunResult& r = *shared;
    showCompile(r.compile);
    if (!r.compile.ok) {
        banner_->showError(compileFailedTitle(),
                           tr("%n error(s); see the Problems list.", nullptr, problems_->errorCount()));
        return;
    }
    if (!r.findings.empty())
        showFindings(r);
    else if (r.fault)
        showFault(*r.fault, r.compile.diagnostics);
    else if (!r.warnings.empty()) {
        QStringList w;
        for (const std::string& s : r.warnings)
            w << q(s);
        banner_->showWarning(tr("Run finished with warnings"), w.join('\n'));
    }
    if (r.compile.ptx.empty())
        ptxCompileId_ = runner_->compile(currentDocument(), launch_->currentDevice());
    launch_->shapeView()->setPrintf(r.printf);
    printf_->showOutput(r.printf, r.grid, r.block);
    // A kernel that only prints (hello_from_gpu) has nothing to plot: show its output.
    const bool anyOutput = std::any_of(r.buffers.begin(), r.buffers.end(),
                                       [](const BufferResult& b) { return b.direction != Direction::In; });
    if (!anyOutput && (!r.printf.lines.empty() || !r.printf.untagged.empty()))
        printfDock_->raise();
    results_->showResult(shared);
    profile_->setSource(editor_->text(), q(compiledSourceName()));
    profile_->showResult(r, runProfile_);
    profile_->setFindings(r.profile ? profileFindings(*r.profile, runDocument_.source) : std::vector<ProfileFinding>{});
    if (r.profile)
        profileMargin_->setProfile(*r.profile, q(compiledSourceName()));
    else
        profileMargin_->clear();
    if (runProfile_.enabled) {
        profileDock_->show();
        profileDock_->raise();
    }
    // Drawn in the next pass of the event loop: together with the results the
    // first display of a run would hold the window for longer than a frame or two.
    QTimer::singleShot(0, timings_, [this, shared] {
        if (results_->result() == shared)
            timings_->showResult(*shared);
    });
    int failed = 0;
    for (const CheckResult& c : r.checks)
        failed += c.passed ? 0 : 1;
    statusBar()->showMessage(r.fault ? tr("Run failed")
                                     : (r.device.id == "sim" ? tr("Ran on %1: median simulator time %2 ms (CPU)%3")
                                                             : tr("Ran on %1: median %2 ms%3"))
                                           .arg(q(r.device.name.empty() ? r.device.id : r.device.name))
                                           .arg(r.timings.medianMs, 0, 'g', 4)
                                           .arg(r.checks.empty() ? QString()
                                                    : failed     ? tr(", %1 check(s) FAILED").arg(failed)
                                                                 : tr(", checks passed")),
                             15000);
}

QString MainWindow::compileFailedTitle() { return tr("Compile failed"); }

void MainWindow::showFault(const Fault& f, const std::vector<Diagnostic>& compileDiagnostics)
{
    const Document doc = currentDocument();
    const std::string compiledName = compiledSourceName();
    const QString label = !doc.sourceFile.empty() ? q(doc.sourceFile)
        : path_.isEmpty()                         ? tr("the kernel source")
                                                  : tr("the kernel source of %1").arg(QFileInfo(path_).fileName());
    const FaultDescription d(f, compiledName, label);
    banner_->showError(tr("Kernel %1 failed: %2").arg(picker_->currentKernel(), toString(f.kind)),
                       d.detail() + tr("\nThe document is unchanged."));
    if (const int line = d.sourceLine(); line > 0) {
        editor_->setFaultLine(line);
        editor_->goTo(line, 1);
        banner_->setAction(tr("Go to line %1").arg(line), [this, line] { editor_->goTo(line, 1); });
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
        problems_->setDiagnostics(all);
    }
}

// A check's findings, like a fault: the banner lists them, the editor marks the
// first, and the Problems list holds each at its line.
void MainWindow::showFindings(const RunResult& r)
{
    const std::string compiledName = compiledSourceName();
    QStringList lines;
    std::vector<Diagnostic> all = r.compile.diagnostics;
    for (const CheckFinding& f : r.findings) {
        QString where = f.line > 0 ? tr("line %1: ").arg(f.line) : QString();
        lines << where + q(f.message) + (f.count > 1 ? tr(" (%n times)", nullptr, int(f.count)) : QString());
        if (f.line > 0)
            all.push_back(Diagnostic{f.file.empty() ? compiledName : f.file,
                                     f.line,
                                     0,
                                     Severity::Error,
                                     toString(r.check) + std::string(": ") + f.kind,
                                     {},
                                     {}});
    }
    banner_->showError(tr("%1 found %n problem(s)", nullptr, int(r.findings.size())).arg(q(toString(r.check))),
                       lines.join('\n'));
    problems_->setDiagnostics(all);
    const int first = r.findings.front().line;
    if (first > 0) {
        editor_->setFaultLine(first);
        editor_->goTo(first, 1);
        banner_->setAction(tr("Go to line %1").arg(first), [this, first] { editor_->goTo(first, 1); });
    }
}

void MainWindow::setPresentationMode(bool on)
{
    if (on == presentation_)
        return;
    presentation_ = on;
    if (on) {
        statePresentation_ = saveState();
        normalEditorFont_ = editor_->fontSize();
        scaler_.enlarge(this);
        editor_->setFontSize(int(normalEditorFont_ * 1.8));
        editor_->setWrapLongLines(true); // nothing cut off at the right edge of a projector
        for (QDockWidget* d : hiddenInPresentation_)
            d->hide();
        for (QToolBar* tb : findChildren<QToolBar*>())
            tb->hide();
        menuBar()->hide();
        statusBar()->showMessage(tr("Presentation mode: F5 runs, F11 leaves"), 6000);
        showFullScreen();
    } else {
        scaler_.restore();
        editor_->setFontSize(normalEditorFont_);
        editor_->setWrapLongLines(false);
        menuBar()->show();
        restoreState(statePresentation_);
        showNormal();
    }
    // Actions whose widgets are hidden must still answer their keys.
    for (QAction* a : {runAct_, stopAct_, compileAct_, presentAct_})
        addAction(a);
}

QString MainWindow::recoveryFile() { return UnsavedWorkGuard::file(); }
bool MainWindow::hasRecovery() const { return recovery_->exists(); }
void MainWindow::writeRecovery() { recovery_->write(); }
void MainWindow::removeRecovery() { recovery_->remove(); }
void MainWindow::offerRecovery() { recovery_->offer(this); }
bool MainWindow::restoreRecovery() { return recovery_->restore(); }

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (std::exchange(firstShow_, false) && !layoutRestored_)
        QTimer::singleShot(0, this, applyDefaultDockSizes_);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    if (presentation_)
        setPresentationMode(false);
    if (options_.restoreLayout) {
        settings_->setWindowGeometry(saveGeometry());
        settings_->setWindowState(saveState());
    }
    settings_->setEditorFontSize(editor_->fontSize());
    removeRecovery();
    event->accept();
}

} // namespace kw
