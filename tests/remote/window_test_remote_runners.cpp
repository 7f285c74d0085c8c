// The window's side of remote runners: RunnerClient and the runner picker against
// the real sshd and one-node Slurm cluster of the other remote tests. A dropped
// connection and a scancel are reported as lost jobs, and the next job reconnects
// without a new window.
#include "LoopbackSshServer.hpp"
#include "OneNodeSlurmCluster.hpp"
#include "RemoteDocuments.hpp"
#include "RemoteTestSupport.hpp"
#include "support/TempDir.hpp"

#include "RunnerClient.hpp"
#include "RunnerPicker.hpp"
#include "Settings.hpp"

#include <QSignalSpy>
#include <QTimer>
#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace kw;

namespace {

fs::path testDir() { return kw::test::freshDir("kwremote", "window"); }

std::string cacheEnv(const fs::path& cache) { return "env -u KWB_CACHE_DIR XDG_CACHE_HOME=" + cache.string() + " "; }

// Runs `doc` and waits for its end: the result, or the failure message.
struct Outcome {
    bool finished = false, failed = false;
    RunResult result;
    QString message;
};
Outcome runAndWait(RunnerClient& client, const Document& doc, const std::function<void(const QString&)>& onStage = {})
{
    Outcome o;
    QEventLoop loop;
    QObject guard;
    int id = -1;
    QObject::connect(&client, &RunnerClient::runFinished, &guard, [&](int job, const RunResult& r) {
        if (job == id) {
            o.finished = true;
            o.result = r;
            loop.quit();
        }
    });
    QObject::connect(&client, &RunnerClient::jobFailed, &guard, [&](int job, const QString& m) {
        if (job == id) {
            o.failed = true;
            o.message = m;
            loop.quit();
        }
    });
    if (onStage)
        QObject::connect(&client, &RunnerClient::stageChanged, &guard, [&](int, const QString& s) { onStage(s); });
    id = client.run(doc, "sim");
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    loop.exec();
    return o;
}

} // namespace

TEST(WindowRemote, ADroppedSshConnectionIsALostJobAndTheNextRunReconnects)
{
    const fs::path dir = testDir() / "ssh";
    kwtest::LoopbackSshServer sshd(dir / "sshd");
    const std::string error = sshd.start();
    ASSERT_TRUE(error.empty()) << error;
    const fs::path cache = dir / "remote-cache";

    Settings settings;
    settings.setSavedRunners({});
    RunnerClient client;
    RunnerPicker picker(&client, &settings);
    QSignalSpy connected(&client, &RunnerClient::runnerConnected);
    QSignalSpy lost(&client, &RunnerClient::runnerLost);
    picker.addRunner(
        "loopback",
        QString::fromStdString(sshd.sshCommand() + " " + cacheEnv(cache) + kwtest::kwbRunPath() + " serve"));
    ASSERT_TRUE(connected.wait(30000)) << (lost.isEmpty() ? "" : lost.at(0).at(0).toString().toStdString());
    EXPECT_EQ(picker.currentRunner(), "loopback");
    EXPECT_TRUE(picker.runnerNames().contains("loopback"));
    EXPECT_EQ(settings.lastRunner(), "loopback");
    bool hasSim = false;
    for (const DeviceInfo& d : client.devices())
        hasSim = hasSim || d.id == "sim";
    EXPECT_TRUE(hasSim);

    const Document doc = kwtest::writeRoundTripDocument(dir / "client");
    const Outcome first = runAndWait(client, doc);
    ASSERT_TRUE(first.finished) << first.message.toStdString();
    EXPECT_TRUE(first.result.ok);
    EXPECT_GE(client.lastJobBytesSent(), 8192u * 13);
    EXPECT_NE(picker.statusText().indexOf("loopback"), -1) << picker.statusText().toStdString();

    // Cut the connection from the server's side while the kernel runs.
    const Outcome cut = runAndWait(client, kwtest::writeSlowDocument(dir / "slow"), [&](const QString& stage) {
        if (stage == "launch")
            QTimer::singleShot(500, [&] { sshd.killSessions(); });
    });
    EXPECT_FALSE(cut.finished) << "a lost job must never come back as a result";
    ASSERT_TRUE(cut.failed);
    EXPECT_NE(cut.message.indexOf("the job in flight is lost"), -1) << cut.message.toStdString();
    EXPECT_FALSE(lost.isEmpty());
    EXPECT_FALSE(client.isRunning()); // not restarted behind the user's back
    kwtest::killProcessesWithEnvironment(cache.string());

    const Outcome again = runAndWait(client, doc);
    ASSERT_TRUE(again.finished) << again.message.toStdString();
    EXPECT_TRUE(again.result.ok);
    client.shutdown();
    settings.setSavedRunners({});
    settings.setLastRunner({});
}

TEST(WindowRemote, AScancelledSlurmJobIsReportedByTheWindowSide)
{
    const fs::path dir = testDir() / "slurm";
    kwtest::OneNodeSlurmCluster slurm(dir / "cluster");
    const std::string error = slurm.start();
    ASSERT_TRUE(error.empty()) << error;
    const fs::path cache = dir / "node-cache";

    RunnerClient client;
    client.setRunner("cluster",
                     QString::fromStdString("srun --quiet --ntasks=1 --time=5 " + cacheEnv(cache) + kwtest::kwbRunPath()
                                            + " serve"));
    QSignalSpy lost(&client, &RunnerClient::runnerLost);
    const Outcome cancelled = runAndWait(client, kwtest::writeSlowDocument(dir / "slow"), [&](const QString& stage) {
        if (stage == "launch")
            QTimer::singleShot(500, [&] {
                for (const std::string& id : slurm.runningJobs())
                    kwtest::shell("scancel " + id);
            });
    });
    EXPECT_FALSE(cancelled.finished);
    ASSERT_TRUE(cancelled.failed);
    EXPECT_NE(cancelled.message.indexOf("the job in flight is lost"), -1) << cancelled.message.toStdString();
    EXPECT_NE(cancelled.message.indexOf("the scheduler ended the job"), -1) << cancelled.message.toStdString();
    EXPECT_FALSE(lost.isEmpty());
    kwtest::killProcessesWithEnvironment(cache.string());

    const Outcome next = runAndWait(client, kwtest::writeRoundTripDocument(dir / "client"));
    ASSERT_TRUE(next.finished) << next.message.toStdString();
    EXPECT_TRUE(next.result.ok);
    client.shutdown();
}
