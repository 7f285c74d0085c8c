#pragma once
// The run loop of the window: compile, run, stop, profile and check on the runner
// process, the sweep, the live check while typing, and the results shown in their
// panels and kept in the run history. Registers the Run menu's actions.
#include "DocumentPart.hpp"
#include "StepTree.hpp"
#include "doc/Document.hpp"
#include "launch/RunResult.hpp"

#include <QList>
#include <QObject>

#include <memory>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;
class QMainWindow;
class QMenuBar;
class QProgressBar;
class QTimer;

namespace kw {

class CodeEditor;
class ErrorBanner;
class LaunchPanel;
class LiveDiagnostics;
class RunAsYouType;
class PrintfPanel;
class ProblemsPanel;
class ProfileMargin;
class ProfileView;
class PtxPanel;
class ResultsPanel;
class RunHistory;
class RunnerClient;
class Settings;
class SweepPanel;
class StepListPanel;
class SweepRunner;
class TimingsPanel;
struct SweepRequest;
class WorkbenchDocument;

class RunController : public QObject {
    Q_OBJECT
public:
    struct Views {
        QMainWindow* window; // its status bar
        WorkbenchDocument* document;
        Settings* settings;
        CodeEditor* editor;
        ErrorBanner* banner;
        QLabel* liveLabel; // the live check's verdict above the editor
        LaunchPanel* launch;
        ProblemsPanel* problems;
        PrintfPanel* printf;
        ResultsPanel* results;
        TimingsPanel* timings;
        PtxPanel* ptx;
        ProfileView* profile;
        ProfileMargin* profileMargin;
        SweepPanel* sweep;
        StepListPanel* steps;
        RunHistory* history;
        QDockWidget* printfDock;
        QDockWidget* profileDock;
        QDockWidget* problemsDock; // put in front when a compile fails
    };
    // `runnerProgram`: empty for kwb-run beside the executable.
    RunController(Views views, const QString& runnerProgram, QObject* parent = nullptr);

    // The Run menu.
    void registerActions(QMenuBar* menus);
    QList<QAction*> toolBarActions() const; // run, compile, stop, profile, check
    QAction* runAction() const { return runAct_; }
    QAction* compileAction() const { return compileAct_; }
    QAction* stopAction() const { return stopAct_; }
    QAction* profileAction() const { return profileAct_; }
    // Runs with the check it names ("Check: memcheck"), the one last chosen from its menu.
    QAction* checkAction() const { return checkAct_; }
    // Run > Run as You Type: a pause after an edit runs the document (a live preview).
    QAction* runAsYouTypeAction() const { return typingAct_; }
    RunAsYouType* runAsYouType() const { return typing_; }

    RunnerClient* runner() const { return runner_; }
    LiveDiagnostics* liveDiagnostics() const { return live_; }

    // What Run > Profile asks the runner to count: per line, and the lanes last asked
    // for with the Profile view's "Record lanes".
    ProfileRequest profileRequest() const;

    void run();
    void compile();
    void stop();
    // One profiled run on the simulator, recording the lanes of warp `warp` of `block`
    // at `line` (0: counters only), whatever device is chosen for the other runs.
    void profileOnSimulator(int line, kw::Dim3 block, quint32 warp);
    // One run on the chosen device under `tool` (Run > Check), which the check action
    // then names and runs again.
    void runChecked(CheckTool tool);

signals:
    void runCompleted(const kw::RunResult& result);
    void compileCompleted(const kw::CompileResult& result);

private:
    void wireRunner();
    void wireLive();
    void documentChanged(DocumentPart part);
    void documentReplaced();
    void applyTrust();
    void updateLiveOptions();
    void setRunning(bool running);
    void showRunning(bool running);
    void nameCheck(CheckTool tool); // the check action's tool and text
    // `once`: one launch, no warm-up or timed repeats (a run while typing: the result is
    // what is wanted, and soon; Run gives the timings).
    void runOn(const QString& device, const ProfileRequest& profile, CheckTool check = CheckTool::None,
               bool once = false);
    // The banner's word on a run that completed: problems first, then what to know.
    void showOutcome(const RunResult& result);
    void startSweep(const SweepRequest& request);
    void showCompile(const CompileResult& result);
    void showRun(const std::shared_ptr<const RunResult>& result);
    void showFault(const RunResult& result);
    // After a run of a document of steps: the buffers after the step chosen in the step
    // list (none: at the end of the run).
    void showResultStep(const std::optional<StepPath>& path);
    void showFindings(const RunResult& result);
    std::string loweredNameFor(const CompileResult& result) const;
    // The name the compiler gives the editor's text, as diagnostics and -lineinfo use it.
    std::string compiledSourceName() const;
    static QString compileFailedTitle();
    static QString errorsText(int n); // "1 error", "2 errors"
    void showCompileFailure();        // the banner, and the Problems list in front

    Views v_;
    RunnerClient* runner_;
    LiveDiagnostics* live_;
    RunAsYouType* typing_;
    SweepRunner* sweepRunner_;
    QLabel* stageLabel_;
    QProgressBar* progress_;
    QTimer* progressDelay_; // a debugger's command or a run while typing shows progress only once it takes this long
    QAction* runAct_ = nullptr;
    QAction* compileAct_ = nullptr;
    QAction* stopAct_ = nullptr;
    QAction* profileAct_ = nullptr;
    QAction* checkAct_ = nullptr;
    QAction* typingAct_ = nullptr;
    std::optional<AccessCaptureRequest> capture_; // the lanes "Record lanes" asked for
    CheckTool checkTool_ = CheckTool::Memcheck;   // the tool the check action runs
    ProfileRequest runProfile_;                   // what the run in flight was asked to count
    Document runDocument_;                        // what the run in flight was started with
    std::shared_ptr<const RunResult> lastRun_;    // the result shown
    std::optional<CompileResult> lastLive_;       // the live check's last compile
    bool liveStale_ = true;                       // the source changed since lastLive_
    int runId_ = -1;
    int typingRunId_ = -1;           // the run a pause in typing started: its compile errors stay quiet
    bool startingTypingRun_ = false; // while a pause in typing starts its run
    int prepareId_ = -1;             // the compile a pause in typing started
    int compileId_ = -1;
    int ptxCompileId_ = -1; // the compile that fills the PTX view after a run
};

} // namespace kw
