// The frame of the window: it builds the editor and the docks, hands the panels that
// edit the document to DocumentPanels, and wires the views to each other and to the
// two controllers, which own the file actions and the run loop.
#include "MainWindow.hpp"

#include "ArgumentsPanel.hpp"
#include "ChecksEditor.hpp"
#include "CodeEditor.hpp"
#include "CompilerNotice.hpp"
#include "DefaultWindowSize.hpp"
#include "DocumentController.hpp"
#include "DocumentPanels.hpp"
#include "ErrorBanner.hpp"
#include "GradeController.hpp"
#include "GradeResultsView.hpp"
#include "HelpMenu.hpp"
#include "KernelPicker.hpp"
#include "LaunchPanel.hpp"
#include "LaunchShapeView.hpp"
#include "NotesPanel.hpp"
#include "ProblemsPanel.hpp"
#include "RunController.hpp"
#include "RunHistory.hpp"
#include "RunHistoryPanel.hpp"
#include "RunHistoryStore.hpp"
#include "RunnerClient.hpp"
#include "RunnerPicker.hpp"
#include "Settings.hpp"
#include "StepListPanel.hpp"
#include "TrustBar.hpp"
#include "UiResources.hpp"
#include "VariablesTable.hpp"
#include "WholeDockTabs.hpp"
#include "WindowLayouts.hpp"
#include "WorkbenchDocument.hpp"
#include "debugger/BreakpointMargin.hpp"
#include "debugger/BreakpointsView.hpp"
#include "debugger/CallStackView.hpp"
#include "debugger/DebugController.hpp"
#include "debugger/DebugToolBar.hpp"
#include "debugger/LanesView.hpp"
#include "debugger/PtxView.hpp"
#include "debugger/SharedMemoryView.hpp"
#include "debugger/WarpsView.hpp"
#include "profile/ProfileMargin.hpp"
#include "profile/ProfileView.hpp"
#include "views/PrintfPanel.hpp"
#include "views/PtxPanel.hpp"
#include "views/ResultsPanel.hpp"
#include "views/SweepPanel.hpp"
#include "views/TimingsPanel.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace kw {

MainWindow::MainWindow(const Options& options, QWidget* parent)
    : QMainWindow(parent)
    , options_(options)
    , settings_(new Settings)
    , document_(new WorkbenchDocument(this))
{
    initUiResources();
    setObjectName("MainWindow");
    setWindowIcon(QIcon(":/kw/app.svg"));
    setDockNestingEnabled(true);
    new WholeDockTabs(this);
    normalFont_ = QApplication::font();

    editor_ = new CodeEditor;
    editor_->setFontSize(settings_->editorFontSize());
    editor_->setAnnotationsVisible(settings_->inlineAnnotations());
    picker_ = new KernelPicker;
    banner_ = new ErrorBanner;
    trustBar_ = new TrustBar;
    compilerNotice_ = new CompilerNotice;
    auto* central = new QWidget;
    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 2, 4, 2);
    kernelLabel_ = new QLabel(tr("Kernel:"));
    top->addWidget(kernelLabel_);
    top->addWidget(picker_);
    top->addStretch();
    diagLabel_ = new QLabel;
    top->addWidget(diagLabel_);
    auto* v = new QVBoxLayout(central);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    v->addLayout(top);
    v->addWidget(compilerNotice_);
    v->addWidget(trustBar_);
    v->addWidget(banner_);
    v->addWidget(editor_, 1);
    setCentralWidget(central);

    buildDocks();
    profileMargin_ = new ProfileMargin(editor_);
    panels_ = new DocumentPanels(
        *document_, {editor_, picker_, variables_, arguments_, launch_, notes_, steps_, checksEditor_}, this);
    connect(panels_, &DocumentPanels::launchTargetChanged, this, &MainWindow::showLaunchTarget);
    documents_ = new DocumentController({this, document_, settings_, trustBar_, banner_}, options_.autosave, this);
    auto* problemsDock = findChild<QDockWidget*>("problemsDock");
    runs_ = new RunController({this,      document_, settings_, editor_,     banner_,      diagLabel_,  launch_,
                               problems_, printf_,   results_,  timings_,    ptx_,         profile_,    profileMargin_,
                               sweep_,    steps_,    history_,  printfDock_, profileDock_, problemsDock},
                              options_.runnerProgram, this);
    grades_ = new GradeController({document_, gradeView_, findChild<QDockWidget*>("gradeDock"), banner_},
                                  options_.runnerProgram, this);
    connect(documents_, &DocumentController::exerciseOpened, grades_, &GradeController::setExercise);
    connect(gradeView_, &GradeResultsView::lineActivated, editor_, [this](int line) { editor_->goTo(line, 1); });
    connect(runs_, &RunController::runCompleted, this, &MainWindow::runCompleted);
    connect(runs_, &RunController::compileCompleted, this, &MainWindow::compileCompleted);
    runnerPicker_ = new RunnerPicker(runs_->runner(), settings_, central);
    runnerPicker_->setObjectName("runnerPicker");
    top->addWidget(runnerPicker_, 1);
    buildDebugger();
    layouts_ = new WindowLayouts(this, layoutDocks_);
    layouts_->arrange();
    connect(runs_, &RunController::runCompleted, layouts_, &WindowLayouts::showResults);
    connect(runs_, &RunController::compileCompleted, layouts_, &WindowLayouts::showResults);
    connect(runs_->runner(), &RunnerClient::jobFailed, layouts_, &WindowLayouts::showResults);
    connect(runs_, &RunController::runCompleted, layouts_, [this] {
        if (results_->showsHeatMap()) {
            // The editor keeps a line for each of its source's, up to two dozen, and one more.
            const int lineHeight = int(editor_->SendScintilla(QsciScintilla::SCI_TEXTHEIGHT, 0));
            const int keep = lineHeight * (std::min(editor_->lines(), 24) + 1);
            layouts_->makeRoomForImage(editor_->viewport()->height() - keep);
        }
    });
    connect(documents_, &DocumentController::exerciseOpened, this, [this] {
        QDockWidget* grade = findChild<QDockWidget*>("gradeDock");
        grade->show();
        grade->raise();
    });
    buildActions();
    wireViews();

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
    documents_->load(DocumentController::starterDocument());
    runs_->runner()->start();
}

MainWindow::~MainWindow()
{
    runs_->runner()->shutdown();
    delete settings_;
}

// The views that point at each other: the Profile view and the editor margin show the
// same counter, a printf block is found in the launch drawing, a problem in the editor.
void MainWindow::wireViews()
{
    connect(problems_, &ProblemsPanel::locationActivated, editor_, &CodeEditor::goTo);
    connect(profile_, &ProfileView::metricChanged, profileMargin_, &ProfileMargin::setMetric);
    connect(profile_, &ProfileView::lineActivated, editor_, [this](int line) { editor_->goTo(line, 1); });
    connect(profileMargin_, &ProfileMargin::lineClicked, this, [this](int line) {
        profile_->selectLine(line);
        profileDock_->show();
        profileDock_->raise();
    });
    connect(profile_, &ProfileView::profileRequested, runs_, &RunController::profileOnSimulator);
    // A block picked in the printf grid is shown where it sits in the launch drawing,
    // scrolled into view: the drawing sits below the launch fields.
    connect(printf_, &PrintfPanel::blockSelected, this, [this](const Dim3& block) {
        launch_->shapeView()->selectBlock(block);
        shapeDock_->show();
        shapeDock_->raise();
    });
}

namespace {
// A panel taller than a laptop's bottom tabs scrolls in them rather than taking the
// editor's lines.
QScrollArea* scrolled(QWidget* panel)
{
    auto* scroll = new QScrollArea;
    scroll->setWidget(panel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    return scroll;
}
} // namespace

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
    checksEditor_ = new ChecksEditor;
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
    steps_ = new StepListPanel;
    history_ = new RunHistory(std::make_shared<RunHistoryStore>(), this);
    historyPanel_ = new RunHistoryPanel(history_);

    launchScroll_ = new QScrollArea;
    launchScroll_->setWidget(launch_);
    launchScroll_->setWidgetResizable(true);

    QDockWidget* notes = addDock(notes_, tr("Notes"), "notesDock", Qt::LeftDockWidgetArea);
    QDockWidget* vars = addDock(variables_, tr("Variables"), "variablesDock", Qt::LeftDockWidgetArea);
    // A document of steps is read as its list of steps: beside the editor, in front of its notes.
    stepsDock_ = addDock(steps_, tr("Steps"), "stepsDock", Qt::LeftDockWidgetArea);
    QDockWidget* launch = addDock(launchScroll_, tr("Launch"), "launchDock", Qt::RightDockWidgetArea);
    QDockWidget* args = addDock(arguments_, tr("Arguments"), "argumentsDock", Qt::RightDockWidgetArea);
    launchDock_ = launch;
    argumentsDock_ = args;
    QDockWidget* checks = addDock(scrolled(checksEditor_), tr("Checks"), "checksDock", Qt::BottomDockWidgetArea);
    QDockWidget* results = addDock(results_, tr("Results"), "resultsDock", Qt::BottomDockWidgetArea);
    QDockWidget* pf = addDock(printf_, tr("printf"), "printfDock", Qt::BottomDockWidgetArea);
    printfDock_ = pf;
    QDockWidget* timings = addDock(scrolled(timings_), tr("Timings"), "timingsDock", Qt::BottomDockWidgetArea);
    profileDock_ = addDock(scrolled(profile_), tr("Profile"), "profileDock", Qt::BottomDockWidgetArea);
    QDockWidget* problems = addDock(problems_, tr("Problems"), "problemsDock", Qt::BottomDockWidgetArea);
    QDockWidget* ptx = addDock(ptx_, tr("PTX"), "ptxDock", Qt::BottomDockWidgetArea);
    QDockWidget* sweep = addDock(sweep_, tr("Sweep"), "sweepDock", Qt::BottomDockWidgetArea);
    // The launch drawing is taken out of the launch panel, which stays short.
    shapeDock_ = addDock(launch_->shapeView(), tr("Launch shape"), "launchShapeDock", Qt::BottomDockWidgetArea);
    QDockWidget* history
        = addDock(scrolled(historyPanel_), tr("Run history"), "runHistoryDock", Qt::BottomDockWidgetArea);
    gradeView_ = new GradeResultsView;
    QDockWidget* grade = addDock(gradeView_, tr("Grade"), "gradeDock", Qt::BottomDockWidgetArea);
    layoutDocks_.notes = notes;
    layoutDocks_.left = {vars, stepsDock_};
    layoutDocks_.launch = launch;
    layoutDocks_.arguments = args;
    // The checks are written among the run's views, where their results show.
    layoutDocks_.results
        = {results, checks, pf, timings, profileDock_, problems, ptx, sweep, shapeDock_, history, grade};
    // The steps for a document of steps, the grade for an exercise.
    layoutDocks_.hiddenAtFirst = {stepsDock_, grade};
    layoutDocks_.notPresented = {vars, problems, ptx, sweep, timings};
}

void MainWindow::buildDebugger()
{
    breakpoints_ = new BreakpointMargin(editor_);
    debugBar_ = new DebugToolBar(this);
    auto* lanes = new LanesView;
    auto* shared = new SharedMemoryView;
    auto* warps = new WarpsView;
    auto* stack = new CallStackView;
    auto* points = new BreakpointsView;
    debugPtx_ = new PtxView({debugBar_->action("stepi"), debugBar_->action("reverse-stepi")});
    // Lanes, the call stack and the breakpoints take the right column (32 rows want
    // height), Shared memory and Warps the bottom (rows of eight words want width):
    // WindowLayouts arranges them while a session runs.
    QDockWidget* lanesDock = addDock(lanes, tr("Lanes"), "lanesDock", Qt::RightDockWidgetArea);
    QDockWidget* stackDock = addDock(stack, tr("Call stack"), "callStackDock", Qt::RightDockWidgetArea);
    QDockWidget* pointsDock = addDock(points, tr("Breakpoints"), "breakpointsDock", Qt::RightDockWidgetArea);
    QDockWidget* sharedDock = addDock(shared, tr("Shared memory"), "sharedDock", Qt::BottomDockWidgetArea);
    QDockWidget* warpsDock = addDock(warps, tr("Warps"), "warpsDock", Qt::BottomDockWidgetArea);
    // The PTX being stepped: wide lines, a tab of the bottom area beside the source.
    QDockWidget* ptxDock = addDock(debugPtx_, tr("PTX (debugger)"), "debugPtxDock", Qt::BottomDockWidgetArea);
    debugDocks_ = {lanesDock, stackDock, pointsDock, sharedDock, warpsDock, ptxDock};
    layoutDocks_.debugRight = {lanesDock, stackDock, pointsDock};
    layoutDocks_.debugBottom = {sharedDock, warpsDock, ptxDock};
    debug_ = new DebugController(runs_->runner(),
                                 {this, document_, editor_, banner_, breakpoints_, debugBar_, lanes, shared, warps,
                                  stack, points, debugPtx_, debugDocks_},
                                 this);
    // The motions answer their keys while the toolbar is hidden (presentation mode).
    addActions(debugBar_->motionActions());
    addAction(debugBar_->pauseAction());
    // While debugging the layout is the debugger's, and returns as it was after.
    connect(debug_, &DebugController::started, this, [this] { layouts_->setDebugging(true); });
    connect(debug_, &DebugController::ended, this, [this] {
        layouts_->setDebugging(false);
        debugBar_->hide();
    });
}

void MainWindow::buildActions()
{
    documents_->registerActions(menuBar());
    buildEditMenu();
    runs_->registerActions(menuBar());
    for (QObject* o : runs_->runAction()->associatedObjects())
        if (auto* runMenu = qobject_cast<QMenu*>(o)) {
            runMenu->insertSeparator(runs_->profileAction());
            runMenu->insertActions(runs_->profileAction(), {debug_->debugAction(), debug_->stopAction()});
        }

    QMenu* view = menuBar()->addMenu(tr("&View"));
    presentAct_ = new QAction(QIcon(":/kw/icons/presentation.svg"), tr("&Presentation mode"), this);
    presentAct_->setShortcut(QKeySequence(Qt::Key_F11));
    presentAct_->setCheckable(true);
    connect(presentAct_, &QAction::toggled, this, &MainWindow::setPresentationMode);
    view->addAction(presentAct_);
    view->addSeparator();
    for (QDockWidget* d : docks_)
        view->addAction(d->toggleViewAction());

    grades_->registerActions(menuBar()); // after the menus that were there before it
    helpMenu_ = new HelpMenu(this);
    menuBar()->addMenu(helpMenu_);

    auto* tb = addToolBar(tr("Main"));
    tb->setObjectName("mainToolBar");
    tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tb->addActions(documents_->toolBarActions());
    tb->addSeparator();
    tb->addActions(runs_->toolBarActions());
    tb->addAction(debug_->debugAction());
    tb->addAction(presentAct_);
    addToolBarBreak();
    addToolBar(debugBar_);
}

void MainWindow::buildEditMenu()
{
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

    // The document's edits in the panels (launch, arguments, variables, kernel) have
    // their own undo stack; its keys work where those panels have the focus, as the
    // editor's keys undo its text where it has the focus.
    QUndoStack* stack = document_->undoStack();
    edit->addSeparator();
    undoAct_ = edit->addAction(tr("Undo panel edit"), stack, &QUndoStack::undo);
    redoAct_ = edit->addAction(tr("Redo panel edit"), stack, &QUndoStack::redo);
    undoAct_->setEnabled(false);
    redoAct_->setEnabled(false);
    connect(stack, &QUndoStack::canUndoChanged, undoAct_, &QAction::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, redoAct_, &QAction::setEnabled);
    connect(stack, &QUndoStack::undoTextChanged, undoAct_, [this](const QString& what) {
        undoAct_->setText(what.isEmpty() ? tr("Undo panel edit") : tr("Undo %1").arg(what));
    });
    connect(stack, &QUndoStack::redoTextChanged, redoAct_, [this](const QString& what) {
        redoAct_->setText(what.isEmpty() ? tr("Redo panel edit") : tr("Redo %1").arg(what));
    });
    for (auto [a, key] : {std::pair{undoAct_, QKeySequence::Undo}, std::pair{redoAct_, QKeySequence::Redo}}) {
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        for (QWidget* panel : std::initializer_list<QWidget*>{launchScroll_, arguments_, variables_, picker_, steps_})
            panel->addAction(a);
    }
}

void MainWindow::showLaunchTarget(bool sequence, const QString& step)
{
    // Only when the kind of document changes (or a restored layout is first met): a Steps
    // dock the user closed stays closed while the selection moves.
    if (sequence != showingSequence_) {
        showingSequence_ = sequence;
        stepsDock_->setVisible(sequence);
        if (sequence)
            stepsDock_->raise(); // in front of the notes, whose tab is beside it
        // The list's columns need more room than the notes alone, and less once it is gone.
        if (isVisible() && !layoutRestored_)
            QTimer::singleShot(0, this, [this] { layouts_->applyDefaultSizes(showingSequence_.value_or(false)); });
    }
    // The label keeps its width: the row above the editor has none to spare at 1366x768.
    if (!sequence) {
        kernelLabel_->setToolTip({});
        launchDock_->setWindowTitle(tr("Launch"));
        argumentsDock_->setWindowTitle(tr("Arguments"));
    } else if (step.isEmpty()) {
        kernelLabel_->setToolTip(tr("The kernel of the launch step selected in the Steps list"));
        launchDock_->setWindowTitle(tr("Launch (no launch step selected)"));
        argumentsDock_->setWindowTitle(tr("Arguments (no launch step selected)"));
    } else {
        kernelLabel_->setToolTip(tr("The kernel of step %1").arg(step));
        launchDock_->setWindowTitle(tr("Launch of step %1").arg(step));
        argumentsDock_->setWindowTitle(tr("Arguments of step %1").arg(step));
    }
}

void MainWindow::loadDocument(const Document& doc) { documents_->load(doc); }
Document MainWindow::currentDocument() const { return document_->document(); }
bool MainWindow::isModified() const { return document_->isModified(); }
QString MainWindow::documentPath() const { return document_->path(); }
bool MainWindow::openDocument(const QString& path) { return documents_->openDocument(path); }
void MainWindow::trustCurrentDocument() { documents_->trustCurrentDocument(); }
void MainWindow::newDocument() { documents_->newDocument(); }
void MainWindow::open() { documents_->open(); }
bool MainWindow::save() { return documents_->save(); }
bool MainWindow::saveAs() { return documents_->saveAs(); }
QString MainWindow::recoveryFile() { return DocumentController::recoveryFile(); }
bool MainWindow::hasRecovery() const { return documents_->hasRecovery(); }
void MainWindow::writeRecovery() { documents_->writeRecovery(); }
void MainWindow::offerRecovery() { documents_->offerRecovery(); }
bool MainWindow::restoreRecovery() { return documents_->restoreRecovery(); }
QString MainWindow::samplesDir() { return DocumentController::samplesDir(); }
bool MainWindow::isShippedSample(const QString& path) { return DocumentController::isShippedSample(path); }
bool MainWindow::isInstalledSample(const QString& path) { return DocumentController::isInstalledSample(path); }
QMenu* MainWindow::recentMenu() const { return documents_->recentMenu(); }

void MainWindow::run() { runs_->run(); }
void MainWindow::compile() { runs_->compile(); }
void MainWindow::stop() { runs_->stop(); }
void MainWindow::profileOnSimulator(int line, Dim3 block, quint32 warp)
{
    runs_->profileOnSimulator(line, block, warp);
}
ProfileRequest MainWindow::profileRequest() const { return runs_->profileRequest(); }
RunnerClient* MainWindow::runner() const { return runs_->runner(); }
LiveDiagnostics* MainWindow::liveDiagnostics() const { return runs_->liveDiagnostics(); }
QAction* MainWindow::runAction() const { return runs_->runAction(); }
QAction* MainWindow::compileAction() const { return runs_->compileAction(); }
QAction* MainWindow::profileAction() const { return runs_->profileAction(); }
QAction* MainWindow::checkAction() const { return runs_->checkAction(); }

void MainWindow::setPresentationMode(bool on)
{
    if (on == presentation_)
        return;
    presentation_ = on;
    if (on) {
        layouts_->setPresenting(true); // first: the layout it keeps is the one before any change
        normalEditorFont_ = editor_->fontSize();
        scaler_.enlarge(this);
        editor_->setFontSize(int(normalEditorFont_ * 1.8));
        debugPtx_->scaleFont(scaler_.factor()); // an editor: the scaler leaves its fonts
        editor_->setWrapLongLines(true);        // nothing cut off at the right edge of a projector
        toolBarsShown_.clear();
        for (QToolBar* tb : findChildren<QToolBar*>()) {
            if (!tb->isHidden())
                toolBarsShown_.push_back(tb);
            tb->setVisible(tb == debugBar_ && debug_->debugging()); // the debugger's buttons stay
        }
        menuBar()->hide();
        // The runner's choice and status would cut the kernel's row on a projector: where
        // it ran stays in the status bar.
        runnerPicker_->hide();
        statusBar()->showMessage(tr("Presentation mode: F5 runs, F11 leaves"), 6000);
    } else {
        scaler_.restore();
        editor_->setFontSize(normalEditorFont_);
        debugPtx_->scaleFont(1);
        editor_->setWrapLongLines(false);
        menuBar()->show();
        runnerPicker_->show();
        for (QToolBar* tb : findChildren<QToolBar*>())
            tb->setVisible(std::find(toolBarsShown_.begin(), toolBarsShown_.end(), tb) != toolBarsShown_.end());
        layouts_->setPresenting(false);
    }
    // Actions whose widgets are hidden must still answer their keys.
    for (QAction* a : {runs_->runAction(), runs_->stopAction(), runs_->compileAction(), presentAct_,
                       debug_->debugAction(), debug_->stopAction()})
        addAction(a);
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (std::exchange(firstShow_, false) && !layoutRestored_)
        QTimer::singleShot(0, this, [this] { layouts_->applyDefaultSizes(showingSequence_.value_or(false)); });
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!documents_->maybeSave()) {
        event->ignore();
        return;
    }
    // The layout kept for the next start is the normal one, never presentation mode's
    // or the debugger's.
    if (options_.restoreLayout) {
        settings_->setWindowGeometry(layouts_->normalGeometry());
        settings_->setWindowState(layouts_->normalState());
    }
    if (presentation_)
        setPresentationMode(false);
    debug_->stop();
    settings_->setEditorFontSize(editor_->fontSize());
    documents_->removeRecovery();
    event->accept();
}

} // namespace kw
