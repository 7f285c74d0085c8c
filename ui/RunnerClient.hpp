#pragma once
// The one class that talks to the runner: a `kwb-run serve` child process
// speaking JSON lines plus binary frames (docs/protocol.md). Jobs run one at a
// time; a watchdog kills a run that outlives its time limit, Stop kills a
// runaway run, and a runner that dies is restarted. The GUI never calls the
// CUDA driver itself. The runner is never believed: its frames are checked against
// the job (serve/ReturnedBuffers) before anything is allocated, its replies decoded
// by serve/RunnerReply, and a runner that breaks the protocol fails the job in flight
// and is ended, not restarted.
#include "compile/CompileResult.hpp"
#include "doc/Document.hpp"
#include "launch/RunResult.hpp"
#include "run/RunEngine.hpp"
#include "serve/ClientProtocol.hpp"
#include "serve/ReturnedBuffers.hpp"

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QProcess>
#include <QTimer>

#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace kw {

class RunnerClient : public QObject {
    Q_OBJECT
public:
    explicit RunnerClient(QObject* parent = nullptr);
    ~RunnerClient() override;

    // `kwb-run` beside the executable, or $KWB_RUN when set.
    static QString defaultProgram();
    void setProgram(const QString& path) { program_ = path; }
    QString program() const { return program_; }
    // Extra time past a run's time limit before the watchdog kills the runner.
    void setGraceMs(int ms) { graceMs_ = ms; }

    // A runner started by a command line (`ssh host kwb-run serve`, `srun ... kwb-run
    // serve`) instead of the local program; an empty command means the local one.
    // Ends the current runner; the next job (or start()) connects to the new one.
    void setRunner(const QString& name, const QString& commandLine);
    QString runnerName() const { return runnerName_; }
    QString runnerCommand() const { return command_; }
    bool isRemote() const { return !command_.isEmpty(); }
    // Bytes of protocol messages each way for the last finished job.
    quint64 lastJobBytesSent() const { return lastSent_; }
    quint64 lastJobBytesReceived() const { return lastReceived_; }

    void start();
    void shutdown(); // polite: asks the runner to exit
    bool isRunning() const { return process_.state() != QProcess::NotRunning; }
    qint64 processId() const { return process_.processId(); }
    int restarts() const { return restarts_; }
    bool busy() const { return userJobs_ > 0; }
    // What is under way is a session's messages only (a debugger's commands, most of
    // them answered at once).
    bool onlySessionWork() const;
    const std::vector<DeviceInfo>& devices() const { return devices_; }

    // Queue a job; the returned id comes back with its signals.
    int compile(const Document& doc, const QString& device);
    int run(const Document& doc, const QString& device, const RunOverrides& overrides = {});
    int requestDevices();
    // A debug session (docs/protocol.md, "Sessions"): the document's launch held in the
    // runner on the simulator, `step` naming a document of steps' launch step (empty: the
    // first), `sourceVariables` compiling it with -G so that the replies carry the
    // source's variables. Its reply's result carries the session's id ("session").
    int openDebugSession(const Document& doc, const QString& step, bool sourceVariables);
    // A message to an open session; its reply's result is the session's answer.
    int sessionMessage(const QString& session, const nlohmann::json& body);
    int closeSession(const QString& session);
    // Kills the job in flight (a runaway kernel) and restarts the runner.
    void stop();

signals:
    void devicesChanged(const std::vector<kw::DeviceInfo>& devices);
    void stageChanged(int id, const QString& stage);
    // A document of steps: step `path` ("2.1") of the running job begins a run (not every pass).
    void stepStarted(const QString& path);
    void compileFinished(int id, const kw::CompileResult& result);
    // Also for runs the runner did not survive: the result then carries a fault
    // (kind Timeout for the watchdog, Other for a crash) naming kernel and launch.
    void runFinished(int id, const kw::RunResult& result);
    // The same result, emitted just before runFinished, for a receiver that keeps it:
    // sharing it costs nothing, while a copy of a 10^7-element buffer stalls the UI.
    void runResultReady(int id, std::shared_ptr<const kw::RunResult> result);
    // A request the runner refused (bad document...), or a job lost to Stop.
    void jobFailed(int id, const QString& message);
    // The runner died or hung and was restarted; what happened, for a banner.
    void runnerRestarted(const QString& what);
    // A runner command that ended, was cut off, speaks another protocol version or
    // broke the protocol: it is not restarted; the next job (or start()) connects again.
    void runnerLost(const QString& what);
    // The hello of a (re)started runner was answered: it is ready.
    void runnerConnected(const QString& name);
    void busyChanged(bool busy);
    // The answer to openDebugSession, sessionMessage or closeSession (refusals come as jobFailed).
    void sessionReplied(int id, const nlohmann::json& result);

private:
    enum class Op { Hello, Devices, Compile, Run, Session };
    struct Job {
        int id = 0;
        Op op = Op::Hello;
        nlohmann::json header; // the request
        HostBytes payload;     // its binary payload
        std::string kernel;    // for reports
        QString launchText;
        double timeLimitS = 10;
        ReturnedBuffers returned; // the frames this job lets the runner send
    };

    int enqueue(Job job);
    void sendNext();
    void onReadyRead();
    void readMessages();
    void handleEvent(ClientProtocol::Event event);
    void emitRun(int id, RunResult result);
    void handleReply(ClientProtocol::Event reply);
    void finishCurrent();
    void onProcessFinished(int exitCode, QProcess::ExitStatus status);
    void onWatchdog();
    void killRunner();
    void failCurrentRun(FaultKind kind, const QString& message);
    void armWatchdog(int ms);
    void jobDone();
    int enqueueSession(nlohmann::json header);
    void failAllQueued(const QString& why);
    int enqueueEncoded(Op op, const Document& doc, const char* opName, const QString& device,
                       const RunOverrides& overrides = {});
    void loseRunner(const QString& what);
    void protocolFailure(const std::string& what);
    QString displayName() const;
    void countReceived(qint64 bytes) { received_ += quint64(std::max<qint64>(bytes, 0)); }

    QProcess process_;
    QString program_;
    // The runner's output parsed into events. A frame's payload is read straight into its
    // buffer (frameRoom), so no single read copies more than one pipe's worth.
    ClientProtocol stream_;
    std::optional<Job> current_;
    std::deque<Job> queue_;
    int nextId_ = 1;
    int restarts_ = 0;
    int userJobs_ = 0; // compile/run/devices jobs not finished
    int graceMs_ = 5000;
    bool expectingExit_ = false; // shutdown or a kill we asked for
    QString killReason_;
    FaultKind killKind_ = FaultKind::Other;
    QTimer watchdog_;
    QElapsedTimer startedAt_;
    QByteArray stderrTail_;
    std::vector<DeviceInfo> devices_;
    QString runnerName_, command_;
    quint64 sent_ = 0, received_ = 0, lastSent_ = 0, lastReceived_ = 0;
};

} // namespace kw
