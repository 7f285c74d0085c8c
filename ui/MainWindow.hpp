#pragma once
// The workbench window: the frame that builds the editor and the docked panels and
// wires them to the document (WorkbenchDocument, through DocumentPanels) and to the
// two controllers: DocumentController (files, samples, recovery, trust) and
// RunController (compile, run, stop, sweep, results). Each registers its own menu.
#include "PresentationScaler.hpp"
#include "WindowLayouts.hpp"
#include "doc/Document.hpp"
#include "launch/RunResult.hpp"

#include <QMainWindow>
#include <memory>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QScrollArea;
class QToolBar;

namespace kw {

class ArgumentsPanel;
class ChecksEditor;
class RunnerPicker;
class BreakpointMargin;
class CodeEditor;
class DebugController;
class DebugToolBar;
class PtxView;
class DocumentController;
class DocumentPanels;
class ErrorBanner;
class KernelPicker;
class LaunchPanel;
class LiveDiagnostics;
class NotesPanel;
class PrintfPanel;
class ProblemsPanel;
class ProfileMargin;
class ProfileView;
class PtxPanel;
class ResultsPanel;
class HelpMenu;
class RunHistory;
class RunHistoryPanel;
class RunController;
class GradeController;
class GradeResultsView;
class RunnerClient;
class Settings;
class StepListPanel;
class SweepPanel;
class TimingsPanel;
class TrustBar;
class CompilerNotice;
class VariablesTable;
class WorkbenchDocument;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    struct Options {
        bool restoreLayout = true; // window geometry and docks from Settings
        bool autosave = true;      // recovery copy while modified
        QString runnerProgram;     // empty: kwb-run beside the executable
    };
    explicit MainWindow(const Options& options, QWidget* parent = nullptr);
    explicit MainWindow(QWidget* parent = nullptr)
        : MainWindow(Options{}, parent)
    {
    }
    ~MainWindow() override;

    // Opens without asking about unsaved changes; false (and a banner) on failure.
    bool openDocument(const QString& path);
    // The Trust button of the trust bar: remembers the document's bytes and
    // reloads it with its options and files allowed.
    void trustCurrentDocument();
    TrustBar* trustBar() const { return trustBar_; }
    CompilerNotice* compilerNotice() const { return compilerNotice_; }
    void loadDocument(const Document& doc);
    Document currentDocument() const;
    WorkbenchDocument* document() const { return document_; }
    DocumentController* documentController() const { return documents_; }
    RunController* runController() const { return runs_; }

    bool isModified() const;
    QString documentPath() const; // empty while untitled

    // A recovery copy left by a session that did not end cleanly, if any.
    static QString recoveryFile();
    bool hasRecovery() const;
    void offerRecovery(); // asks, then restores or discards
    // Loads the recovery copy as a modified document under its original path and
    // removes the copy; false (and a banner) when it cannot be read.
    bool restoreRecovery();
    // The autosave step its timer runs: writes the recovery copy while the document
    // is modified. Public so a caller can save at a moment of its choosing.
    void writeRecovery();

    static QString samplesDir();
    // A sample shipped with the program (trusted without asking).
    static bool isShippedSample(const QString& path);
    // True for a document inside samplesDir(): Save asks for a new location.
    static bool isInstalledSample(const QString& path);

    // Parts, for tests and the benchmark.
    CodeEditor* editor() const { return editor_; }
    RunnerClient* runner() const;
    LaunchPanel* launchPanel() const { return launch_; }
    ArgumentsPanel* argumentsPanel() const { return arguments_; }
    ChecksEditor* checksEditor() const { return checksEditor_; }
    VariablesTable* variablesTable() const { return variables_; }
    KernelPicker* kernelPicker() const { return picker_; }
    StepListPanel* stepList() const { return steps_; }
    GradeController* gradeController() const { return grades_; }
    GradeResultsView* gradeView() const { return gradeView_; }
    NotesPanel* notesPanel() const { return notes_; }
    QDockWidget* stepsDock() const { return stepsDock_; }
    QDockWidget* launchDock() const { return launchDock_; }
    QDockWidget* argumentsDock() const { return argumentsDock_; }
    ErrorBanner* banner() const { return banner_; }
    LiveDiagnostics* liveDiagnostics() const;
    QMenu* recentMenu() const;
    PrintfPanel* printfPanel() const { return printf_; }
    QAction* runAction() const;
    QAction* compileAction() const;
    ResultsPanel* resultsPanel() const { return results_; }
    TimingsPanel* timingsPanel() const { return timings_; }
    PtxPanel* ptxPanel() const { return ptx_; }
    ProblemsPanel* problemsPanel() const { return problems_; }
    RunHistory* runHistory() const { return history_; }
    RunHistoryPanel* runHistoryPanel() const { return historyPanel_; }
    HelpMenu* helpMenu() const { return helpMenu_; }
    ProfileView* profileView() const { return profile_; }
    ProfileMargin* profileMargin() const { return profileMargin_; }
    QAction* profileAction() const;
    DebugController* debugController() const { return debug_; }
    BreakpointMargin* breakpointMargin() const { return breakpoints_; }
    DebugToolBar* debugToolBar() const { return debugBar_; }
    PtxView* debugPtxView() const { return debugPtx_; }
    // The debugger's docks: Lanes, Shared memory, Warps, Call stack, Breakpoints.
    const std::vector<QDockWidget*>& debugDocks() const { return debugDocks_; }
    QAction* checkAction() const;
    QAction* undoAction() const { return undoAct_; }
    QAction* redoAction() const { return redoAct_; }

    // What Run > Profile per line asks the runner to count: per line, and the lanes
    // last asked for with the Profile view's "Record lanes".
    ProfileRequest profileRequest() const;

public slots:
    void newDocument();
    void open();
    bool save();
    bool saveAs();
    void run();
    void compile();
    void stop();
    void setPresentationMode(bool on);
    // One profiled run on the simulator, recording the lanes of warp `warp` of `block`
    // at `line` (0: counters only), whatever device is chosen for the other runs.
    void profileOnSimulator(int line, kw::Dim3 block, quint32 warp);

signals:
    void runCompleted(const kw::RunResult& result);
    void compileCompleted(const kw::CompileResult& result);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void buildActions();
    void buildEditMenu();
    void buildDocks();
    QDockWidget* addDock(QWidget* w, const QString& title, const QString& objectName, Qt::DockWidgetArea area);
    void wireViews();
    // The debugger: its editor margin, toolbar, docks (hidden until it runs) and controller.
    void buildDebugger();
    // The Launch and Arguments docks say what they edit; the Steps dock is shown for a
    // document of steps.
    void showLaunchTarget(bool sequence, const QString& step);

    Options options_;
    Settings* settings_;
    bool presentation_ = false;
    bool layoutRestored_ = false;
    bool firstShow_ = true;
    QFont normalFont_;
    PresentationScaler scaler_{1.6};
    int normalEditorFont_ = 11;

    WorkbenchDocument* document_;
    CodeEditor* editor_;
    KernelPicker* picker_;
    ErrorBanner* banner_;
    TrustBar* trustBar_;
    CompilerNotice* compilerNotice_;
    QLabel* diagLabel_;
    QLabel* kernelLabel_;
    RunnerPicker* runnerPicker_ = nullptr;
    ArgumentsPanel* arguments_;
    ChecksEditor* checksEditor_;
    LaunchPanel* launch_;
    QScrollArea* launchScroll_;
    VariablesTable* variables_;
    ProblemsPanel* problems_;
    NotesPanel* notes_;
    PrintfPanel* printf_;
    ResultsPanel* results_;
    TimingsPanel* timings_;
    PtxPanel* ptx_;
    ProfileView* profile_;
    ProfileMargin* profileMargin_ = nullptr;
    SweepPanel* sweep_;
    StepListPanel* steps_;
    RunHistory* history_; // what the run history panel lists; RunController fills it
    RunHistoryPanel* historyPanel_;
    HelpMenu* helpMenu_ = nullptr;
    DocumentPanels* panels_ = nullptr;
    DocumentController* documents_ = nullptr;
    RunController* runs_ = nullptr;
    GradeController* grades_ = nullptr; // an exercise's grading (Exercise menu, Grade dock)
    GradeResultsView* gradeView_ = nullptr;
    QAction* undoAct_ = nullptr;
    QAction* redoAct_ = nullptr;
    QAction* presentAct_ = nullptr;
    QAction* annotAct_ = nullptr;
    std::vector<QDockWidget*> docks_;
    QDockWidget* printfDock_ = nullptr;
    QDockWidget* stepsDock_ = nullptr;
    QDockWidget* launchDock_ = nullptr;
    QDockWidget* argumentsDock_ = nullptr;
    std::optional<bool> showingSequence_; // whether the Steps dock was last shown for a document of steps
    QDockWidget* profileDock_ = nullptr;
    QDockWidget* shapeDock_ = nullptr;
    DebugController* debug_ = nullptr;
    BreakpointMargin* breakpoints_ = nullptr;
    DebugToolBar* debugBar_ = nullptr;
    PtxView* debugPtx_ = nullptr;
    std::vector<QDockWidget*> debugDocks_;
    WindowLayouts::Docks layoutDocks_; // filled as the docks are built
    WindowLayouts* layouts_ = nullptr;
    std::vector<QToolBar*> toolBarsShown_; // before presentation mode
};

} // namespace kw
