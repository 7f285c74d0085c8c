#include "MainWindow.hpp"

#include <algorithm>
#include <stdexcept>

#include "ArgumentsPanel.hpp"
#include "BufferEditor.hpp"
#include "CodeEditor.hpp"
#include "ErrorBanner.hpp"
#include "KernelPicker.hpp"
#include "LaunchPanel.hpp"
#include "LaunchShapeView.hpp"
#include "LiveDiagnostics.hpp"
#include "NotesPanel.hpp"
#include "ProblemsPanel.hpp"
#include "RunnerClient.hpp"
#include "RunnerPicker.hpp"
#include "Settings.hpp"
#include "UiResources.hpp"
#include "VariablesTable.hpp"

#include "compile/Compiler.hpp"
#include "compile/PtxasReportParser.hpp"
#include "compile/SignatureParser.hpp"
#include "data/NdArray.hpp"
#include "doc/BufferFactory.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/DocumentWriter.hpp"
#include "doc/Expression.hpp"
#include "util/Error.hpp"
#include "doc/VariableScope.hpp"

#include "SweepRunner.hpp"
#include "views/PrintfPanel.hpp"
#include "views/PtxPanel.hpp"
#include "views/ResultsPanel.hpp"
#include "views/SweepPanel.hpp"
#include "views/TimingsPanel.hpp"

#include <QAction>
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
#include <QScrollArea>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

namespace kw {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
QString dim(Dim3 d) { return QString("(%1, %2, %3)").arg(d.x).arg(d.y).arg(d.z); }

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
    in.init.kind = Initializer::Kind::Arange;
    BufferSpec out{"out", DType::F32, "n", {}, {}, Direction::Out, true};
    d.buffers = {in, out};
    d.args = {{"in", "in", DType::F32, ""}, {"out", "out", DType::F32, ""},
              {"factor", "", DType::F32, "2"}, {"n", "", DType::I32, "n"}};
    d.launch.grid = {"(n + block - 1) / block", "1", "1"};
    d.launch.block = {"block", "1", "1"};
    return d;
}
} // namespace

MainWindow::MainWindow(const Options& options, QWidget* parent)
    : QMainWindow(parent), options_(options), settings_(new Settings)
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
        setModified();
    });
    connect(live_, &LiveDiagnostics::started, this, [this] { diagLabel_->setText(tr("checking…")); });
    connect(live_, &LiveDiagnostics::finished, this, [this](const CompileResult& r) {
        editor_->setDiagnostics(r.diagnostics, LiveDiagnostics::sourceName);
        problems_->setDiagnostics(r.diagnostics);
        launch_->setCompileResult(r, loweredNameFor(r));
        if (r.ok)
            ptx_->setPtxasReport(parsePtxasReport(r.log));
        diagLabel_->setText(r.ok ? tr("✓ compiles (%1 ms)").arg(r.compileMs, 0, 'f', 0)
                                 : tr("%n error(s)", nullptr, problems_->errorCount()));
    });
    connect(live_, &LiveDiagnostics::unavailable, this, [this](const QString& why) {
        diagLabel_->setText(tr("live checking unavailable"));
        diagLabel_->setToolTip(why);
    });
    connect(problems_, &ProblemsPanel::locationActivated, editor_, &CodeEditor::goTo);
    // A block picked in the printf grid is shown where it sits in the launch drawing,
    // scrolled into view: the drawing sits below the launch fields.
    connect(printf_, &PrintfPanel::blockSelected, this, [this](const Dim3& block) {
        launch_->shapeView()->selectBlock(block);
        launchScroll_->ensureWidgetVisible(launch_->shapeView(), 0, 0);
    });
    connect(variables_, &VariablesTable::changed, this, [this] {
        launch_->setVariables(variables_->variables());
        arguments_->setVariableNames(variables_->names());
        arguments_->bufferEditor()->refreshPreview();
        setModified();
    });
    connect(arguments_, &ArgumentsPanel::changed, this, [this] { setModified(); });
    connect(launch_, &LaunchPanel::changed, this, [this] { setModified(); });
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
            const BufferFactory factory(scope, base_.baseDir());
            const std::int64_t count = scope.evaluateInteger(b.count, "count");
            if (count > (std::int64_t(1) << 24))
                return tr("%L1 elements (no preview past 16 M)").arg(count);
            const NdArray a = factory.create(b, "buffer " + b.name);
            QStringList vals;
            for (std::size_t i = 0; i < std::min<std::size_t>(a.data.count(), 8); ++i)
                vals << q(formatNumber(a.data.at(i)));
            return tr("%L1 elements: %2%3").arg(a.data.count()).arg(vals.join(", "),
                                                                    a.data.count() > 8 ? ", …" : "");
        } catch (const std::exception& e) {
            return QString::fromUtf8(e.what());
        }
    });

    autosaveTimer_.setInterval(15000);
    connect(&autosaveTimer_, &QTimer::timeout, this, &MainWindow::writeRecovery);
    if (options_.autosave)
        autosaveTimer_.start();

    if (options_.restoreLayout) {
        restoreGeometry(settings_->windowGeometry());
        layoutRestored_ = restoreState(settings_->windowState());
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
    sweep_ = new SweepPanel;

    launchScroll_ = new QScrollArea;
    launchScroll_->setWidget(launch_);
    launchScroll_->setWidgetResizable(true);

    QDockWidget* notes = addDock(notes_, tr("Notes"), "notesDock", Qt::LeftDockWidgetArea);
    QDockWidget* vars = addDock(variables_, tr("Variables"), "variablesDock", Qt::LeftDockWidgetArea);
    QDockWidget* args = addDock(arguments_, tr("Arguments"), "argumentsDock", Qt::RightDockWidgetArea);
    QDockWidget* launch = addDock(launchScroll_, tr("Launch"), "launchDock", Qt::RightDockWidgetArea);
    QDockWidget* results = addDock(results_, tr("Results"), "resultsDock", Qt::BottomDockWidgetArea);
    QDockWidget* pf = addDock(printf_, tr("printf"), "printfDock", Qt::BottomDockWidgetArea);
    printfDock_ = pf;
    QDockWidget* timings = addDock(timings_, tr("Timings"), "timingsDock", Qt::BottomDockWidgetArea);
    QDockWidget* problems = addDock(problems_, tr("Problems"), "problemsDock", Qt::BottomDockWidgetArea);
    QDockWidget* ptx = addDock(ptx_, tr("PTX"), "ptxDock", Qt::BottomDockWidgetArea);
    QDockWidget* sweep = addDock(sweep_, tr("Sweep"), "sweepDock", Qt::BottomDockWidgetArea);
    tabifyDockWidget(notes, vars);
    notes->raise();
    splitDockWidget(args, launch, Qt::Vertical);
    for (QDockWidget* d : {pf, timings, problems, ptx, sweep})
        tabifyDockWidget(results, d);
    results->raise();
    // Sizes only take once the window has its size; a restored layout wins.
    QTimer::singleShot(0, this, [=, this] {
        if (layoutRestored_)
            return;
        resizeDocks({notes, args}, {300, 480}, Qt::Horizontal);
        resizeDocks({args, launch}, {290, 520}, Qt::Vertical);
        resizeDocks({results}, {280}, Qt::Vertical);
    });
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
    compileAct_ = act(tr("&Compile"), ":/kw/icons/compile.svg", QKeySequence(Qt::CTRL | Qt::Key_B), &MainWindow::compile);
    compileAct_->setToolTip(tr("Compile for the chosen device (Ctrl+B)"));
    stopAct_ = act(tr("&Stop"), ":/kw/icons/stop.svg", QKeySequence(Qt::SHIFT | Qt::Key_F5), &MainWindow::stop);
    stopAct_->setEnabled(false);
    runMenu->addAction(runAct_);
    runMenu->addAction(compileAct_);
    runMenu->addAction(stopAct_);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    presentAct_ = act(tr("&Presentation mode"), ":/kw/icons/presentation.svg", QKeySequence(Qt::Key_F11), [] {});
    presentAct_->setCheckable(true);
    connect(presentAct_, &QAction::toggled, this, &MainWindow::setPresentationMode);
    view->addAction(presentAct_);
    view->addSeparator();
    for (QDockWidget* d : docks_)
        view->addAction(d->toggleViewAction());

    auto* tb = addToolBar(tr("Main"));
    tb->setObjectName("mainToolBar");
    tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    for (QAction* a : {newAct, openAct, saveAct})
        tb->addAction(a);
    tb->addSeparator();
    for (QAction* a : {runAct_, compileAct_, stopAct_, presentAct_})
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
        if (const QString why = SweepRunner::problem(doc, request); !why.isEmpty()) {
            banner_->showError(tr("The sweep cannot run"), why);
            sweep_->finish();
            return;
        }
        sweepRunner_->start(doc, request, launch_->currentDevice());
    });
    connect(sweepRunner_, &SweepRunner::pointFailed, this, [this](const QString& value, const QString& why) {
        banner_->showWarning(tr("Sweep point %1 failed").arg(value), why);
    });
    connect(runner_, &RunnerClient::devicesChanged, launch_, &LaunchPanel::setDevices);
    connect(runner_, &RunnerClient::busyChanged, this, &MainWindow::setRunning);
    connect(runner_, &RunnerClient::stageChanged, this, [this](int, const QString& stage) {
        stageLabel_->setText(tr("Running: %1").arg(stage));
    });
    connect(runner_, &RunnerClient::compileFinished, this, [this](int id, const CompileResult& r) {
        if (id != compileId_)
            return;
        showCompile(r);
        statusBar()->showMessage(r.ok ? tr("Compiled for %1 in %2 ms").arg(q(r.arch)).arg(r.compileMs, 0, 'f', 1)
                                      : tr("Compile failed"), 8000);
        emit compileCompleted(r);
    });
    // The shared result: the results panel keeps it without copying its buffers.
    connect(runner_, &RunnerClient::runResultReady, this, [this](int id, const std::shared_ptr<const RunResult>& r) {
        if (id != runId_)
            return;
        showRun(r);
        emit runCompleted(*r);
    });
    connect(runner_, &RunnerClient::jobFailed, this, [this](int id, const QString& message) {
        if (id != runId_ && id != compileId_)
            return;
        banner_->showError(tr("The job did not complete"), message);
        statusBar()->showMessage(message, 8000);
    });
    connect(runner_, &RunnerClient::runnerRestarted, this, [this](const QString& what) {
        banner_->showError(tr("Runner restarted"), what);
    });
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
    setModified();
    live_->sourceEdited(editor_->text());
    signatureTimer_.start();
}

void MainWindow::updateKernels()
{
    picker_->setKernels(parseKernelSignatures(editor_->text().toStdString()));
    kernelChosen();
}

void MainWindow::kernelChosen()
{
    if (auto sig = picker_->currentSignature())
        arguments_->setSignature(*sig);
}

std::string MainWindow::loweredNameFor(const CompileResult& r) const
{
    const std::string kernel = picker_->currentKernel().toStdString();
    if (auto it = r.loweredNames.find(kernel); it != r.loweredNames.end())
        return it->second;
    // Itanium mangling starts with the name's length and the name.
    const std::string base = kernel.substr(0, kernel.find('<'));
    const std::string mangled = std::to_string(base.size()) + base;
    for (const PtxEntry& e : r.entries)
        if (e.name == base || e.name.find(mangled) != std::string::npos)
            return e.name;
    return {};
}

void MainWindow::loadDocument(const Document& doc)
{
    loading_ = true;
    base_ = doc;
    banner_->hide();
    editor_->setText(q(doc.source));
    editor_->setDiagnostics({}, LiveDiagnostics::sourceName);
    variables_->setVariables(doc.variables);
    arguments_->setVariableNames(variables_->names());
    arguments_->bufferEditor()->setBaseDir(q(doc.baseDir().string()));
    launch_->setVariables(doc.variables);
    launch_->setLaunch(doc.launch, doc.run);
    arguments_->load(doc.buffers, doc.args);
    {
        const QSignalBlocker quiet(picker_); // one setSignature below, for the document's kernel
        picker_->setKernels(parseKernelSignatures(doc.source));
        picker_->setCurrentKernel(q(doc.kernel));
    }
    kernelChosen();
    notes_->setNotes(q(doc.title), q(doc.description));
    updateLiveOptions();
    live_->setBaseDir(doc.baseDir());
    problems_->setDiagnostics({});
    loading_ = false;
    live_->compileNow(editor_->text());
    setModified(false);
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
    d.launch = launch_->launch();
    d.run = launch_->runSettings();
    return d;
}

bool MainWindow::openDocument(const QString& path)
{
    try {
        Document doc;
        try {
            doc = DocumentReader::readFile(path.toStdString());
        } catch (const Error& validation) {
            // Open what parses so the user can fix what the validator refused.
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly))
                throw;
            doc = DocumentReader::parse(f.readAll().toStdString(), path.toStdString());
            loadDocument(doc);
            banner_->showWarning(tr("The document has problems"), QString::fromUtf8(validation.what()));
            path_ = QFileInfo(path).absoluteFilePath();
            settings_->addRecentFile(path_);
            refreshRecentMenu();
            updateTitle();
            return true;
        }
        loadDocument(doc);
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
    const QString path = QFileDialog::getOpenFileName(this, tr("Open document"), dir,
                                                      tr("Workbench documents (*.kwb)"));
    if (!path.isEmpty())
        openDocument(path);
}

bool MainWindow::save()
{
    return path_.isEmpty() ? saveAs() : writeTo(path_);
}

bool MainWindow::saveAs()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save document"),
                                                path_.isEmpty() ? QDir::homePath() + "/untitled.kwb" : path_,
                                                tr("Workbench documents (*.kwb)"));
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
            if (!src.open(QIODevice::WriteOnly) || src.write(QByteArray::fromStdString(doc.source)) < 0 || !src.commit())
                throw std::runtime_error("cannot write " + sourcePath.toStdString());
        }
        DocumentWriter::writeFile(doc, path.toStdString());
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
    const auto answer = QMessageBox::warning(this, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them?").arg(path_.isEmpty() ? tr("The document") : QFileInfo(path_).fileName()),
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
    setWindowModified(on);
    updateTitle();
}

void MainWindow::updateTitle()
{
    const QString name = path_.isEmpty() ? tr("untitled.kwb") : QFileInfo(path_).fileName();
    setWindowTitle(name + "[*] — Kernel Workbench");
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

void MainWindow::run()
{
    const QStringList issues = launch_->issues();
    if (!issues.isEmpty()) {
        banner_->showError(tr("The launch is not valid for %1").arg(launch_->currentDevice()), issues.join('\n'));
        return;
    }
    banner_->hide();
    runId_ = runner_->run(currentDocument(), launch_->currentDevice());
    stageLabel_->setText(tr("Running…"));
}

void MainWindow::compile()
{
    compileId_ = runner_->compile(currentDocument(), launch_->currentDevice());
    live_->compileNow(editor_->text());
}

void MainWindow::stop()
{
    runner_->stop();
}

void MainWindow::showCompile(const CompileResult& r)
{
    editor_->setDiagnostics(r.diagnostics, LiveDiagnostics::sourceName);
    problems_->setDiagnostics(r.diagnostics);
    // The launch panel takes its resources from the live check only: that one
    // compiles for a real architecture, a runner's compile for the simulator does not.
    ptx_->showCompile(r);
}

void MainWindow::showRun(const std::shared_ptr<const RunResult>& shared)
{
    const RunResult& r = *shared;
    showCompile(r.compile);
    if (!r.compile.ok) {
        banner_->showError(tr("Compile failed"), tr("%n error(s); see the Problems list.", nullptr, problems_->errorCount()));
        return;
    }
    if (r.fault) {
        const Fault& f = *r.fault;
        QString where;
        if (f.block && f.thread)
            where = tr("\nblock %1, thread %2").arg(dim(*f.block), dim(*f.thread));
        if (f.line > 0)
            where += tr("\nat %1:%2").arg(q(f.file)).arg(f.line);
        banner_->showError(tr("Kernel %1 failed: %2").arg(picker_->currentKernel(), toString(f.kind)),
                           q(f.message) + where + tr("\nThe document is unchanged."));
        if (f.line > 0 && (f.file.empty() || f.file == LiveDiagnostics::sourceName))
            editor_->goTo(f.line, 1);
    } else if (!r.warnings.empty()) {
        QStringList w;
        for (const std::string& s : r.warnings)
            w << q(s);
        banner_->showWarning(tr("Run finished with warnings"), w.join('\n'));
    }
    launch_->shapeView()->setPrintf(r.printf);
    printf_->showOutput(r.printf, r.grid, r.block);
    // A kernel that only prints (hello_from_gpu) has nothing to plot: show its output.
    const bool anyOutput = std::any_of(r.buffers.begin(), r.buffers.end(),
                                       [](const BufferResult& b) { return b.direction != Direction::In; });
    if (!anyOutput && (!r.printf.lines.empty() || !r.printf.untagged.empty()))
        printfDock_->raise();
    results_->showResult(shared);
    // Drawn in the next pass of the event loop: together with the results the
    // first display of a run would hold the window for longer than a frame or two.
    QTimer::singleShot(0, timings_, [this, shared] {
        if (results_->result() == shared)
            timings_->showResult(*shared);
    });
    int failed = 0;
    for (const CheckResult& c : r.checks)
        failed += c.passed ? 0 : 1;
    statusBar()->showMessage(
        r.fault ? tr("Run failed")
                : tr("Ran on %1: median %2 ms%3").arg(q(r.device.name.empty() ? r.device.id : r.device.name))
                      .arg(r.timings.medianMs, 0, 'g', 4)
                      .arg(r.checks.empty() ? QString() : failed ? tr(", %1 check(s) FAILED").arg(failed) : tr(", checks passed")),
        15000);
}

void MainWindow::setPresentationMode(bool on)
{
    if (on == presentation_)
        return;
    presentation_ = on;
    if (on) {
        statePresentation_ = saveState();
        normalEditorFont_ = editor_->fontSize();
        QFont big = normalFont_;
        big.setPointSizeF(normalFont_.pointSizeF() * 1.6);
        QApplication::setFont(big);
        editor_->setFontSize(int(normalEditorFont_ * 1.8));
        for (QDockWidget* d : hiddenInPresentation_)
            d->hide();
        for (QToolBar* tb : findChildren<QToolBar*>())
            tb->hide();
        menuBar()->hide();
        statusBar()->showMessage(tr("Presentation mode: F5 runs, F11 leaves"), 6000);
        showFullScreen();
    } else {
        QApplication::setFont(normalFont_);
        editor_->setFontSize(normalEditorFont_);
        menuBar()->show();
        restoreState(statePresentation_);
        showNormal();
    }
    // Actions whose widgets are hidden must still answer their keys.
    for (QAction* a : {runAct_, stopAct_, compileAct_, presentAct_})
        addAction(a);
}

QString MainWindow::recoveryFile()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)).filePath("recovery.kwb");
}

bool MainWindow::hasRecovery() const { return QFileInfo::exists(recoveryFile()); }

void MainWindow::writeRecovery()
{
    if (!isWindowModified())
        return;
    try {
        Document doc = currentDocument();
        doc.sourceFile.clear(); // self-contained: the source travels inline
        QDir().mkpath(QFileInfo(recoveryFile()).absolutePath());
        DocumentWriter::writeFile(doc, recoveryFile().toStdString());
        QSaveFile origin(recoveryFile() + ".origin");
        if (origin.open(QIODevice::WriteOnly)) {
            origin.write(path_.toUtf8());
            origin.commit();
        }
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Autosave failed: %1").arg(QString::fromUtf8(e.what())), 8000);
    }
}

void MainWindow::removeRecovery()
{
    QFile::remove(recoveryFile());
    QFile::remove(recoveryFile() + ".origin");
}

namespace {
// The file the recovery copy was made from; empty for an untitled document.
QString recoveryOrigin()
{
    QFile origin(MainWindow::recoveryFile() + ".origin");
    return origin.open(QIODevice::ReadOnly) ? QString::fromUtf8(origin.readAll()) : QString();
}
} // namespace

void MainWindow::offerRecovery()
{
    if (!hasRecovery())
        return;
    const QString original = recoveryOrigin();
    const auto answer = QMessageBox::question(this, tr("Restore unsaved work?"),
        tr("Kernel Workbench did not close cleanly last time. Restore the unsaved copy of %1?")
            .arg(original.isEmpty() ? tr("an untitled document") : original));
    if (answer == QMessageBox::Yes)
        restoreRecovery();
    else
        removeRecovery();
}

bool MainWindow::restoreRecovery()
{
    const QString original = recoveryOrigin();
    bool restored = false;
    try {
        QFile f(recoveryFile());
        if (!f.open(QIODevice::ReadOnly))
            throw std::runtime_error("cannot read " + recoveryFile().toStdString());
        // Parsed under the original path, so files the document names resolve beside it.
        loadDocument(DocumentReader::parse(f.readAll().toStdString(), original.toStdString()));
        path_ = original;
        setModified(true);
        restored = true;
    } catch (const std::exception& e) {
        banner_->showError(tr("Cannot restore the recovery copy"), QString::fromUtf8(e.what()));
    }
    removeRecovery();
    return restored;
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
