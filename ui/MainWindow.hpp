#pragma once
// The workbench window: the editor in the middle, panels in docks, the run
// loop (compile, run, show) wired to the runner client, and the document's
// life cycle (new, open, save, samples, recent files, recovery).
#include "PresentationScaler.hpp"
#include "doc/Document.hpp"
#include "launch/RunResult.hpp"

#include <QMainWindow>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QScrollArea;

namespace kw {

class ArgumentsPanel;
class CodeEditor;
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
class RunHistory;
class RunHistoryPanel;
class RunnerClient;
class Settings;
class SweepPanel;
class SweepRunner;
class TimingsPanel;
class TrustBar;
class TrustStore;
class UnsavedWorkGuard;
class VariablesTable;

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
    void loadDocument(const Document& doc);
    Document currentDocument() const;

    bool isModified() const { return isWindowModified(); }
    QString documentPath() const { return path_; } // empty while untitled

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
    RunnerClient* runner() const { return runner_; }
    LaunchPanel* launchPanel() const { return launch_; }
    ArgumentsPanel* argumentsPanel() const { return arguments_; }
    ErrorBanner* banner() const { return banner_; }
    LiveDiagnostics* liveDiagnostics() const { return live_; }
    QMenu* recentMenu() const { return recentMenu_; }
    PrintfPanel* printfPanel() const { return printf_; }
    QAction* runAction() const { return runAct_; }
    QAction* compileAction() const { return compileAct_; }
    ResultsPanel* resultsPanel() const { return results_; }
    TimingsPanel* timingsPanel() const { return timings_; }
    PtxPanel* ptxPanel() const { return ptx_; }
    ProblemsPanel* problemsPanel() const { return problems_; }
    RunHistory* runHistory() const { return history_; }
    RunHistoryPanel* runHistoryPanel() const { return historyPanel_; }
    ProfileView* profileView() const { return profile_; }
    ProfileMargin* profileMargin() const { return profileMargin_; }
    QAction* profileAction() const { return profileAct_; }

    // What the next run asks the runner to count: Run > Profile per line, and the
    // lanes last asked for with the Profile view's "Record lanes". RunnerClient
    // sends it once the job carries "profile" (core/serve/JobCodec); until then a run
    // comes back without counters and the Profile view says so.
    ProfileRequest nextRunProfile() const;

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
    void buildDocks();
    QDockWidget* addDock(QWidget* w, const QString& title, const QString& objectName, Qt::DockWidgetArea area);
    void wireRunner();
    bool maybeSave();
    bool writeTo(const QString& path);
    void setModified(bool on); // false: what is shown is saved; true: unsaved whatever it holds
    void updateTitle();
    void refreshRecentMenu();
    void populateSamples(QMenu* menu);
    void sourceChanged();
    void updateKernels();
    void kernelChosen();
    void showCompile(const CompileResult& result);
    void showRun(const std::shared_ptr<const RunResult>& result);
    void showFault(const Fault& fault, const std::vector<Diagnostic>& compileDiagnostics);
    void showFindings(const RunResult& result);
    void documentChanged();
    static QString compileFailedTitle();
    void setRunning(bool running);
    void updateLiveOptions();
    void removeRecovery();
    void applyTrust(const QString& refusal = {});
    std::string loweredNameFor(const CompileResult& result) const;
    // The name the compiler gives the editor's text, as diagnostics and -lineinfo use it.
    std::string compiledSourceName() const;
    void runOn(const QString& device, const ProfileRequest& profile);

    Options options_;
    Settings* settings_;
    // Dims the host code in the editor and lists the module globals.
    void showSourceStructure(const std::string& source);
    Document base_; // fields the panels do not edit (options, checks, notes)
    QString path_;
    bool loading_ = false;
    bool presentation_ = false;
    bool layoutRestored_ = false;
    bool firstShow_ = true;
    std::function<void()> applyDefaultDockSizes_;
    QByteArray statePresentation_;
    QFont normalFont_;
    PresentationScaler scaler_{1.6};
    int normalEditorFont_ = 11;

    CodeEditor* editor_;
    KernelPicker* picker_;
    ErrorBanner* banner_;
    TrustBar* trustBar_;
    std::unique_ptr<TrustStore> trust_;
    ArgumentsPanel* arguments_;
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
    QDockWidget* profileDock_ = nullptr;
    std::optional<AccessCaptureRequest> capture_; // the lanes "Record lanes" asked for
    CheckTool checkTool_ = CheckTool::None;       // Run > Check: the tool the next runs use
    ProfileRequest runProfile_;                   // what the run in flight was asked to count
    SweepPanel* sweep_;
    RunHistory* history_;
    RunHistoryPanel* historyPanel_;
    Document runDocument_; // what the run in flight was started with
    SweepRunner* sweepRunner_ = nullptr;
    LiveDiagnostics* live_;
    RunnerClient* runner_;
    QTimer signatureTimer_;
    UnsavedWorkGuard* recovery_;
    QLabel* stageLabel_;
    QLabel* diagLabel_;
    QProgressBar* progress_;
    QMenu* recentMenu_;
    QAction* runAct_;
    QAction* compileAct_;
    QAction* stopAct_;
    QAction* presentAct_;
    QAction* annotAct_;
    QAction* profileAct_;
    std::vector<QDockWidget*> docks_;
    QDockWidget* printfDock_ = nullptr;
    QDockWidget* shapeDock_ = nullptr;
    std::vector<QDockWidget*> hiddenInPresentation_;
    int runId_ = -1;
    int compileId_ = -1;
    int ptxCompileId_ = -1;       // the compile that fills the PTX view after a run
    std::string savedState_;      // the document as last saved or opened
    bool forcedModified_ = false; // a restored recovery copy: unsaved until saved
};

} // namespace kw
