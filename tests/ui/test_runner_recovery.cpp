// The client's watchdog and the runner's restart on the simulator, with a real
// `kwb-run serve`: a runner that stops answering during a launch is killed at the
// run's time limit (plus the grace), a runner killed from outside is replaced, and in
// both cases the job queued behind the lost one runs on the fresh runner.
#include "RunnerClient.hpp"

#include "doc/DocumentReader.hpp"

#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

#include <csignal>

using namespace kw;

namespace {

Document sample(const char* name) { return DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/" + name); }

bool startRunner(RunnerClient& client)
{
    client.setProgram(QString(KW_BIN_DIR) + "/kwb-run");
    QSignalSpy devices(&client, &RunnerClient::devicesChanged);
    client.start();
    return devices.count() > 0 || devices.wait(20000);
}

} // namespace

TEST(RunnerRecovery, AStuckRunnerIsKilledAtTheTimeLimitAndTheQueuedJobRuns)
{
    RunnerClient client;
    ASSERT_TRUE(startRunner(client)) << "kwb-run serve did not answer hello";
    client.setGraceMs(500);
    // An endless kernel with a 1 s limit: frozen in time, it is the client's watchdog
    // that ends it (the simulator's own limit would end it with the runner alive).
    Document stuck = sample("add_vectors_small.kwb");
    stuck.source = "__global__ void add_vectors(float* a, float* b, float* c, int n)\n"
                   "{\n  volatile int x = 0;\n  while (true) { x = x + 1; }\n}\n";
    stuck.checks.clear();
    stuck.run.timeLimitSeconds = 1;
    stuck.run.warmup = 0;
    stuck.run.repeats = 1;

    QSignalSpy stages(&client, &RunnerClient::stageChanged);
    QSignalSpy ran(&client, &RunnerClient::runFinished);
    QSignalSpy restarted(&client, &RunnerClient::runnerRestarted);
    QSignalSpy failed(&client, &RunnerClient::jobFailed);
    const qint64 pid = client.processId();
    const int first = client.run(stuck, "sim");
    const int second = client.run(sample("add_vectors_small.kwb"), "sim"); // queued behind it
    // Freeze the runner once it is launching: from the client's side it hangs there.
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            for (const auto& s : stages)
                if (s.at(0).toInt() == first && s.at(1).toString() == "launch")
                    return true;
            return false;
        },
        60000));
    ASSERT_EQ(::kill(pid_t(pid), SIGSTOP), 0);

    ASSERT_TRUE(QTest::qWaitFor([&] { return ran.count() >= 2; }, 60000))
        << (failed.isEmpty() ? "" : failed.at(0).at(1).toString().toStdString());
    EXPECT_TRUE(failed.isEmpty()) << failed.at(0).at(1).toString().toStdString();
    EXPECT_EQ(ran.at(0).at(0).toInt(), first);
    const RunResult lost = ran.at(0).at(1).value<RunResult>();
    EXPECT_FALSE(lost.ok);
    ASSERT_TRUE(lost.fault);
    EXPECT_EQ(lost.fault->kind, FaultKind::Timeout);
    EXPECT_NE(lost.fault->message.find("the runner was stopped and restarted"), std::string::npos)
        << "the client's watchdog ended it: " << lost.fault->message;
    EXPECT_EQ(client.restarts(), 1);
    ASSERT_EQ(restarted.count(), 1);
    EXPECT_NE(client.processId(), pid);

    EXPECT_EQ(ran.at(1).at(0).toInt(), second);
    const RunResult next = ran.at(1).at(1).value<RunResult>();
    EXPECT_TRUE(next.ok) << (next.fault ? next.fault->message : "a check failed");
    ASSERT_EQ(next.checks.size(), 1u);
    EXPECT_TRUE(next.checks[0].passed);
    EXPECT_FALSE(client.busy());
}

TEST(RunnerRecovery, ARunnerKilledDuringAJobIsReplacedAndTheQueuedJobRuns)
{
    RunnerClient client;
    ASSERT_TRUE(startRunner(client)) << "kwb-run serve did not answer hello";
    Document endless = sample("add_vectors_small.kwb");
    endless.source = "__global__ void add_vectors(float* a, float* b, float* c, int n)\n"
                     "{\n  volatile int x = 0;\n  while (true) { x = x + 1; }\n}\n";
    endless.checks.clear();
    endless.run.timeLimitSeconds = 30;

    QSignalSpy stages(&client, &RunnerClient::stageChanged);
    QSignalSpy ran(&client, &RunnerClient::runFinished);
    QSignalSpy restarted(&client, &RunnerClient::runnerRestarted);
    const qint64 pid = client.processId();
    const int first = client.run(endless, "sim");
    const int second = client.run(sample("add_vectors_small.kwb"), "sim");
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            for (const auto& s : stages)
                if (s.at(0).toInt() == first && s.at(1).toString() == "launch")
                    return true;
            return false;
        },
        60000));
    ASSERT_EQ(::kill(pid_t(pid), SIGKILL), 0);

    ASSERT_TRUE(QTest::qWaitFor([&] { return ran.count() >= 2; }, 60000));
    EXPECT_EQ(ran.at(0).at(0).toInt(), first);
    const RunResult lost = ran.at(0).at(1).value<RunResult>();
    EXPECT_FALSE(lost.ok);
    ASSERT_TRUE(lost.fault);
    EXPECT_EQ(lost.fault->kind, FaultKind::Other);
    EXPECT_NE(lost.fault->message.find("add_vectors"), std::string::npos)
        << "names the kernel: " << lost.fault->message;
    ASSERT_EQ(restarted.count(), 1);
    EXPECT_EQ(client.restarts(), 1);

    EXPECT_EQ(ran.at(1).at(0).toInt(), second);
    EXPECT_TRUE(ran.at(1).at(1).value<RunResult>().ok);
    EXPECT_FALSE(client.busy());
}
