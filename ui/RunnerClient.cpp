#include "RunnerClient.hpp"

#include "serve/JobCodec.hpp"
#include "serve/Protocol.hpp"
#include "serve/RunRequestOptions.hpp"
#include "serve/RunnerFailure.hpp"
#include "serve/RunnerReply.hpp"
#include "serve/SanitizedRun.hpp"
#include "util/Error.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>

#ifdef Q_OS_UNIX
#include <csignal>
#include <unistd.h>
#endif

#include <algorithm>
#include <cstring>

namespace kw {

namespace {
constexpr int compileAllowanceMs = 120000; // NVRTC on a large source, cold cache
constexpr int earlyDeathMs = 2000;

QString launchDescription(const Document& doc)
{
    auto dims = [](const std::vector<std::string>& v) {
        QStringList parts;
        for (const std::string& s : v)
            parts << QString::fromStdString(s);
        return "(" + parts.join(", ") + ")";
    };
    return QString("grid %1, block %2").arg(dims(doc.launch.grid), dims(doc.launch.block));
}
} // namespace

RunnerClient::RunnerClient(QObject* parent)
    : QObject(parent)
    , program_(defaultProgram())
{
    watchdog_.setSingleShot(true);
    connect(&watchdog_, &QTimer::timeout, this, &RunnerClient::onWatchdog);
    connect(&process_, &QProcess::readyReadStandardOutput, this, &RunnerClient::onReadyRead);
    connect(&process_, &QProcess::readyReadStandardError, this, [this] {
        stderrTail_ += process_.readAllStandardError();
        if (stderrTail_.size() > 4000)
            stderrTail_ = stderrTail_.right(4000);
    });
    connect(&process_, &QProcess::finished, this, &RunnerClient::onProcessFinished);
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart)
            return;
        watchdog_.stop();
        const QString what = tr("Cannot start the runner %1: %2").arg(program_, process_.errorString());
        if (current_ && current_->op != Op::Hello)
            queue_.push_front(std::move(*current_));
        current_.reset();
        failAllQueued(what);
        emit runnerRestarted(what);
    });
}

RunnerClient::~RunnerClient()
{
    disconnect(&process_, nullptr, this, nullptr);
    if (isRunning()) {
        killRunner();
        process_.waitForFinished(2000);
    }
}

QString RunnerClient::defaultProgram()
{
    const QString env = qEnvironmentVariable("KWB_RUN");
    if (!env.isEmpty())
        return env;
#ifdef Q_OS_WIN
    const QString name = "kwb-run.exe";
#else
    const QString name = "kwb-run";
#endif
    return QDir(QCoreApplication::applicationDirPath()).filePath(name);
}

void RunnerClient::start()
{
    if (isRunning())
        return;
    stream_ = ClientProtocol();
    stderrTail_.clear();
    expectingExit_ = false;
    killReason_.clear();
    startedAt_.start();
    if (command_.isEmpty()) {
#ifdef Q_OS_UNIX
        process_.setChildProcessModifier({}); // a remote runner's setsid is not for this one
#endif
        process_.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        process_.start(program_, {"serve"});
    } else {
        // Without a terminal, an ssh that wants a password or a host-key answer
        // fails with a message instead of waiting for one nobody sees.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("SSH_ASKPASS_REQUIRE", "never");
        process_.setProcessEnvironment(env);
#ifdef Q_OS_UNIX
        process_.setChildProcessModifier([] { ::setsid(); });
        process_.start("/bin/sh", {"-c", command_});
#else
        process_.startCommand(command_);
#endif
    }
    Job hello;
    hello.op = Op::Hello;
    hello.id = nextId_++;
    hello.header = protocol::request(hello.id, protocol::op::kHello);
    queue_.push_front(std::move(hello));
    sendNext();
}

void RunnerClient::shutdown()
{
    if (!isRunning())
        return;
    expectingExit_ = true;
    watchdog_.stop();
    process_.write(QByteArray::fromStdString(protocol::encode(protocol::request(0, protocol::op::kShutdown))));
    if (!process_.waitForFinished(2000))
        killRunner();
}

int RunnerClient::enqueue(Job job)
{
    const int id = job.id = nextId_++;
    queue_.push_back(std::move(job));
    if (userJobs_++ == 0)
        emit busyChanged(true);
    if (!isRunning())
        start(); // also sends
    else
        sendNext();
    return id;
}

void RunnerClient::setRunner(const QString& name, const QString& commandLine)
{
    if (name == runnerName_ && commandLine == command_)
        return;
    shutdown();
    runnerName_ = name;
    command_ = commandLine;
    devices_.clear();
}

int RunnerClient::enqueueEncoded(Op op, const Document& doc, const char* opName, const QString& device,
                                 const RunOverrides& overrides)
{
    // Headers and initialiser files are read here: the runner may be on another machine.
    EncodedJob encoded;
    try {
        encoded = JobCodec::encode(doc, opName, nextId_, device.toStdString());
    } catch (const std::exception& e) {
        const int id = nextId_++;
        const QString why = QString::fromUtf8(e.what());
        QTimer::singleShot(0, this, [this, id, why] { emit jobFailed(id, why); });
        return id;
    }
    if (op == Op::Run) {
        encoded.header["return_buffers"] = "all";
        writeRunOptions(encoded.header, overrides);
    }
    Job job;
    job.op = op;
    if (op == Op::Run) // the frames the runner may send back, with the counts evaluated here
        job.returned = ReturnedBuffers(doc, "all", overrides.stepBuffers);
    job.header = std::move(encoded.header);
    job.payload = std::move(encoded.payload);
    job.kernel = doc.kernel;
    job.launchText = launchDescription(doc);
    job.timeLimitS = doc.run.timeLimitSeconds;
    if (overrides.check && *overrides.check != CheckTool::None)
        job.timeLimitS = std::max(job.timeLimitS, SanitizedRun::childLaunchLimitSeconds(doc.run.timeLimitSeconds));
    return enqueue(std::move(job));
}

int RunnerClient::compile(const Document& doc, const QString& device)
{
    return enqueueEncoded(Op::Compile, doc, protocol::op::kCompile, device);
}

int RunnerClient::run(const Document& doc, const QString& device, const RunOverrides& overrides)
{
    return enqueueEncoded(Op::Run, doc, protocol::op::kRun, device, overrides);
}

int RunnerClient::requestDevices()
{
    Job job;
    job.op = Op::Devices;
    job.header = protocol::request(nextId_, protocol::op::kDevices);
    return enqueue(std::move(job));
}

int RunnerClient::openDebugSession(const Document& doc, const QString& step, bool sourceVariables)
{
    EncodedJob encoded;
    try {
        encoded = JobCodec::encode(doc, protocol::op::kOpen, nextId_, "sim");
    } catch (const std::exception& e) {
        const int id = nextId_++;
        const QString why = QString::fromUtf8(e.what());
        QTimer::singleShot(0, this, [this, id, why] { emit jobFailed(id, why); });
        return id;
    }
    encoded.header["kind"] = "debug";
    if (!step.isEmpty())
        encoded.header["step"] = step.toStdString();
    encoded.header["source_variables"] = sourceVariables;
    Job job;
    job.op = Op::Session;
    job.header = std::move(encoded.header);
    job.payload = std::move(encoded.payload);
    job.kernel = doc.kernel;
    job.launchText = launchDescription(doc);
    job.timeLimitS = doc.run.timeLimitSeconds;
    return enqueue(std::move(job));
}

bool RunnerClient::onlySessionWork() const
{
    const auto session = [](const Job& j) { return j.op == Op::Session; };
    return (!current_ || session(*current_)) && std::all_of(queue_.begin(), queue_.end(), session);
}

int RunnerClient::enqueueSession(nlohmann::json header)
{
    Job job;
    job.op = Op::Session;
    job.header = std::move(header);
    return enqueue(std::move(job));
}

int RunnerClient::sessionMessage(const QString& session, const nlohmann::json& body)
{
    nlohmann::json header = protocol::request(nextId_, protocol::op::kMessage);
    header["session"] = session.toStdString();
    header["body"] = body;
    return enqueueSession(std::move(header));
}

int RunnerClient::closeSession(const QString& session)
{
    nlohmann::json header = protocol::request(nextId_, protocol::op::kClose);
    header["session"] = session.toStdString();
    return enqueueSession(std::move(header));
}

void RunnerClient::sendNext()
{
    if (current_ || queue_.empty() || !isRunning())
        return;
    current_ = std::move(queue_.front());
    queue_.pop_front();
    const std::string wire = stream_.send(current_->header, current_->payload, current_->returned);
    process_.write(wire.data(), qint64(wire.size()));
    sent_ = quint64(wire.size());
    received_ = 0;
    // Compiles get a generous allowance; a run's kernel part is re-armed with
    // its time limit when the runner reports the launch stage.
    // A session's open compiles and its messages run the kernel as far as they ask.
    armWatchdog(current_->op == Op::Hello || current_->op == Op::Devices ? 30000 : compileAllowanceMs);
}

void RunnerClient::armWatchdog(int ms) { watchdog_.start(ms); }

void RunnerClient::onReadyRead()
{
    // Nothing a runner sends may escape a Qt slot as an exception: that would end the window.
    try {
        readMessages();
    } catch (const std::exception& e) {
        protocolFailure(e.what());
    }
}

void RunnerClient::readMessages()
{
    while (true) {
        if (expectingExit_) { // a runner being ended: what it still sends is not looked at
            process_.readAllStandardOutput();
            return;
        }
        if (std::optional<ClientProtocol::Event> e = stream_.next()) {
            handleEvent(std::move(*e));
            continue;
        }
        const qint64 available = process_.bytesAvailable();
        if (available <= 0)
            return;
        const std::span<std::byte> room = stream_.frameRoom();
        if (!room.empty()) { // straight into the frame's buffer
            const qint64 got
                = process_.read(reinterpret_cast<char*>(room.data()), std::min<qint64>(available, qint64(room.size())));
            if (got <= 0)
                return;
            countReceived(got);
            stream_.wrote(std::size_t(got));
            continue;
        }
        const QByteArray more = process_.readAllStandardOutput();
        countReceived(more.size());
        stream_.receive(more.constData(), std::size_t(more.size()));
    }
}

void RunnerClient::handleEvent(ClientProtocol::Event event)
{
    using Kind = ClientProtocol::Event::Kind;
    switch (event.kind) {
    case Kind::Broken: throw Error(ErrorCategory::Protocol, event.error);
    case Kind::Unreadable:
        stderrTail_ += "unparsable reply: " + QByteArray::fromStdString(event.line).left(200) + '\n';
        return;
    case Kind::Buffer: return; // its data comes with the reply
    case Kind::Stage:
        if (!current_ || event.id != current_->id)
            return;
        if (event.stage == protocol::stage::kLaunch && current_->op == Op::Run)
            armWatchdog(int(current_->timeLimitS * 1000) + graceMs_);
        emit stageChanged(current_->id, QString::fromStdString(event.stage));
        return;
    case Kind::Step:
        if (current_ && event.id == current_->id)
            emit stepStarted(QString::fromStdString(event.step));
        return;
    case Kind::Reply:
        if (current_ && event.id == current_->id)
            handleReply(std::move(event));
        return;
    }
}

void RunnerClient::handleReply(ClientProtocol::Event reply)
{
    const nlohmann::json& msg = reply.message;
    watchdog_.stop();
    lastSent_ = sent_;
    lastReceived_ = received_;
    const RunnerReply decode(displayName().toStdString());
    if (current_->op == Op::Hello) {
        RunnerReply::Hello hello;
        try {
            hello = decode.hello(msg);
        } catch (const std::exception& e) {
            // Another version, or not a hello reply at all: restarting would only meet it again.
            const QString why = QString::fromUtf8(e.what());
            const QString what
                = why.startsWith("protocol version mismatch") ? tr("Runner %1: %2").arg(displayName(), why) : why;
            expectingExit_ = true;
            killReason_.clear();
            killRunner();
            loseRunner(what);
            return;
        }
        current_.reset();
        devices_ = std::move(hello.devices);
        emit runnerConnected(displayName());
        emit devicesChanged(devices_);
        sendNext();
        return;
    }
    Job job = std::move(*current_);
    current_.reset();
    // Decoded first and emitted after: a refusal or a reply that cannot be read fails this
    // job alone (its framing was intact, so the runner can serve the next).
    std::optional<QString> failure;
    std::optional<CompileResult> compiled;
    std::optional<RunResult> ran;
    std::optional<nlohmann::json> answered;
    try {
        const nlohmann::json result = decode.result(msg);
        switch (job.op) {
        case Op::Hello: break; // answered above
        case Op::Devices: devices_ = decode.devices(result); break;
        case Op::Compile: compiled = decode.compile(result); break;
        case Op::Run: ran = decode.run(result, reply.returned, reply.frames); break;
        case Op::Session: answered = result; break;
        }
    } catch (const std::exception& e) {
        failure = QString::fromUtf8(e.what());
    }
    if (failure)
        emit jobFailed(job.id, *failure);
    else if (compiled)
        emit compileFinished(job.id, *compiled);
    else if (ran)
        emitRun(job.id, std::move(*ran));
    else if (answered)
        emit sessionReplied(job.id, *answered);
    else
        emit devicesChanged(devices_);
    jobDone();
    sendNext();
}

void RunnerClient::jobDone()
{
    if (--userJobs_ == 0)
        emit busyChanged(false);
}

void RunnerClient::failAllQueued(const QString& why)
{
    std::deque<Job> jobs;
    jobs.swap(queue_);
    for (const Job& j : jobs) {
        if (j.op == Op::Hello)
            continue;
        jobDone();
        emit jobFailed(j.id, why);
    }
}

void RunnerClient::loseRunner(const QString& what)
{
    watchdog_.stop();
    if (current_) {
        const Job job = std::move(*current_);
        current_.reset();
        if (job.op != Op::Hello) {
            jobDone();
            emit jobFailed(job.id, what);
        }
    }
    failAllQueued(what);
    emit runnerLost(what);
}

void RunnerClient::protocolFailure(const std::string& what)
{
    // Nothing more this runner sends is believed, and its stream is out of step: the job in
    // flight fails with what it sent, and the runner is ended but not restarted (it would
    // only send the same again); the next job starts it again.
    const QString message = QString::fromUtf8(RunnerReply(displayName().toStdString()).broken(what).what())
        + tr("; the runner was stopped");
    expectingExit_ = true;
    killReason_.clear();
    stream_ = ClientProtocol();
    killRunner();
    loseRunner(message);
}

QString RunnerClient::displayName() const
{
    return runnerName_.isEmpty() ? (command_.isEmpty() ? tr("this computer") : command_) : runnerName_;
}

void RunnerClient::stop()
{
    if (!current_ || !isRunning())
        return;
    killReason_ = tr("Stopped by the user");
    killKind_ = FaultKind::Other;
    expectingExit_ = true;
    killRunner();
}

// Ends the runner with whatever its command started, so that a stopped run leaves
// nothing behind: on POSIX a command runs in a shell that leads its own process group
// (setsid), whose members (ssh, srun, what they started) all go; on Windows the command's
// program is the child itself (startCommand), no shell between.
void RunnerClient::killRunner()
{
#ifdef Q_OS_UNIX
    if (const qint64 pid = process_.processId(); !command_.isEmpty() && pid > 0)
        ::kill(-pid_t(pid), SIGKILL);
#endif
    process_.kill();
}

void RunnerClient::onWatchdog()
{
    if (!current_ || !isRunning())
        return;
    killKind_ = FaultKind::Timeout;
    killReason_ = current_->op == Op::Run
        ? tr("Kernel %1 (%2) exceeded the time limit of %3 s; the runner was stopped and restarted")
              .arg(QString::fromStdString(current_->kernel), current_->launchText)
              .arg(current_->timeLimitS)
        : tr("The runner did not answer in time and was restarted");
    expectingExit_ = true;
    killRunner();
}

void RunnerClient::failCurrentRun(FaultKind kind, const QString& message)
{
    Job job = std::move(*current_);
    current_.reset();
    if (job.op != Op::Hello)
        jobDone();
    if (job.op != Op::Run) {
        emit jobFailed(job.id, message);
        return;
    }
    RunResult r;
    r.ok = false;
    Fault f;
    f.kind = kind;
    f.message = message.toStdString();
    r.fault = f;
    emitRun(job.id, std::move(r));
}

void RunnerClient::emitRun(int id, RunResult result)
{
    const auto shared = std::make_shared<const RunResult>(std::move(result));
    emit runResultReady(id, shared);
    emit runFinished(id, *shared);
}

void RunnerClient::onProcessFinished(int exitCode, QProcess::ExitStatus status)
{
    watchdog_.stop();
    const bool asked = expectingExit_;
    const QString reason = killReason_;
    expectingExit_ = false;
    killReason_.clear();
    const bool early = startedAt_.isValid() && startedAt_.elapsed() < earlyDeathMs;

    if (!asked && isRemote()) {
        // A connection, not a process of ours: say what ended it, report the job in
        // flight as lost, and connect again only when asked (the next job).
        const QString how = status == QProcess::CrashExit ? QStringLiteral("crashed")
                                                          : QStringLiteral("exited with status %1").arg(exitCode);
        const QString why = QString::fromStdString(RunnerFailure::describe(
            command_.toStdString(), how.toStdString(), QString::fromUtf8(stderrTail_).trimmed().toStdString()));
        const bool inFlight = current_ && current_->op != Op::Hello;
        loseRunner(
            inFlight ? tr("The connection to runner %1 was lost; the job in flight is lost: %2").arg(displayName(), why)
                     : tr("Runner %1 is not connected: %2").arg(displayName(), why));
        return;
    }

    QString what;
    if (!asked) {
        const QString how = status == QProcess::CrashExit ? tr("crashed") : tr("exited with code %1").arg(exitCode);
        what = current_ && current_->op == Op::Run
            ? tr("The runner %1 while running kernel %2 (%3)")
                  .arg(how, QString::fromStdString(current_->kernel), current_->launchText)
            : tr("The runner %1").arg(how);
        const QString err = QString::fromUtf8(stderrTail_).trimmed();
        if (!err.isEmpty())
            what += ": " + err.split('\n').last();
    } else {
        what = reason;
    }

    const FaultKind kind = std::exchange(killKind_, FaultKind::Other);
    if (current_) {
        if (current_->op == Op::Hello && !asked && early) {
            // It cannot even start: give up instead of restarting in a loop.
            current_.reset();
            failAllQueued(what);
            emit runnerRestarted(tr("The runner cannot start: %1").arg(what));
            return;
        }
        if (asked && kind == FaultKind::Timeout)
            failCurrentRun(FaultKind::Timeout, what);
        else if (asked) {
            const Job job = std::move(*current_);
            current_.reset();
            if (job.op != Op::Hello)
                jobDone();
            emit jobFailed(job.id, what);
        } else
            failCurrentRun(FaultKind::Other, what);
    }
    if (asked && reason.isEmpty())
        return; // shutdown
    ++restarts_;
    if (!asked || kind == FaultKind::Timeout)
        emit runnerRestarted(what);
    start();
}

} // namespace kw
