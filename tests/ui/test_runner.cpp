// Jobs round-trip through a real `kwb-run serve`; a killed runner is restarted
// and the next job succeeds.
#include "RunnerClient.hpp"

#include "doc/DocumentReader.hpp"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <string>

using namespace kw;

namespace {
QString runnerPath() { return QString(KW_BIN_DIR) + "/kwb-run"; }

struct Runner {
    RunnerClient client;
    bool ready = false;
    QString why;
    Runner()
    {
        client.setProgram(runnerPath());
        QSignalSpy devices(&client, &RunnerClient::devicesChanged);
        QSignalSpy lost(&client, &RunnerClient::runnerRestarted);
        client.start();
        ready = devices.wait(20000) || devices.count() > 0;
        if (!ready)
            why = lost.isEmpty() ? QString("no hello reply") : lost.at(0).at(0).toString();
    }
    bool hasSim() const
    {
        for (const DeviceInfo& d : client.devices())
            if (d.id == "sim")
                return true;
        return false;
    }
};

Document sample(const char* name) { return DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/" + name); }

// Whether a process still runs (a zombie nobody reaped has ended).
bool running(long pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(stat, text))
        return false;
    const auto close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}
} // namespace

TEST(Runner, CompileRoundTrip)
{
    Runner r;
    ASSERT_TRUE(r.ready) << "kwb-run serve did not answer hello: " << r.why.toStdString();
    QSignalSpy done(&r.client, &RunnerClient::compileFinished);
    QSignalSpy failed(&r.client, &RunnerClient::jobFailed);
    const int id = r.client.compile(sample("add_vectors.kwb"), "sim");
    ASSERT_TRUE(done.wait(60000)) << (failed.isEmpty() ? "" : failed.at(0).at(1).toString().toStdString());
    EXPECT_EQ(done.at(0).at(0).toInt(), id);
    const auto result = done.at(0).at(1).value<CompileResult>();
    EXPECT_TRUE(result.ok) << result.log;
    ASSERT_FALSE(result.kernels.empty());
    EXPECT_EQ(result.kernels[0].name, "add_vectors");
    EXPECT_NE(result.ptx.find(".entry"), std::string::npos);
}

TEST(Runner, CompileErrorsComeBackAsDiagnostics)
{
    Runner r;
    ASSERT_TRUE(r.ready) << r.why.toStdString();
    Document doc = sample("add_vectors.kwb");
    doc.source = "__global__ void add_vectors(float* a, float* b, float* c, int n)\n{\n  c[0] = oops;\n}\n";
    QSignalSpy done(&r.client, &RunnerClient::compileFinished);
    QSignalSpy failed(&r.client, &RunnerClient::jobFailed);
    r.client.compile(doc, "sim");
    // A compile error is a value: the job finishes with diagnostics, it does not fail.
    ASSERT_TRUE(done.wait(60000)) << (failed.isEmpty() ? "" : failed.at(0).at(1).toString().toStdString());
    EXPECT_TRUE(failed.isEmpty());
    const auto result = done.at(0).at(1).value<CompileResult>();
    EXPECT_FALSE(result.ok);
    ASSERT_FALSE(result.diagnostics.empty());
    EXPECT_EQ(result.diagnostics[0].line, 3);
    EXPECT_NE(result.diagnostics[0].message.find("oops"), std::string::npos) << result.diagnostics[0].message;
}

TEST(Runner, RunOnTheSimulatorReturnsBuffers)
{
    Runner r;
    ASSERT_TRUE(r.ready) << r.why.toStdString();
    ASSERT_TRUE(r.hasSim()) << "kwb-run always offers the sim device";
    QSignalSpy done(&r.client, &RunnerClient::runFinished);
    QSignalSpy failed(&r.client, &RunnerClient::jobFailed);
    r.client.run(sample("add_vectors.kwb"), "sim");
    ASSERT_TRUE(done.wait(120000)) << (failed.isEmpty() ? "" : failed.at(0).at(1).toString().toStdString());
    const auto result = done.at(0).at(1).value<RunResult>();
    EXPECT_TRUE(result.ok) << (result.fault ? result.fault->message : "");
    const BufferResult* c = nullptr;
    for (const BufferResult& b : result.buffers)
        if (b.name == "c")
            c = &b;
    ASSERT_TRUE(c);
    ASSERT_EQ(c->data.count(), 400u);
    ASSERT_FALSE(result.checks.empty());
    EXPECT_TRUE(result.checks[0].passed);
}

TEST(Runner, ADocumentOfStepsAnnouncesItsStepsAndBringsTheBuffersAfterThem)
{
    Runner r;
    ASSERT_TRUE(r.ready) << r.why.toStdString();
    QSignalSpy done(&r.client, &RunnerClient::runFinished);
    QSignalSpy failed(&r.client, &RunnerClient::jobFailed);
    QSignalSpy steps(&r.client, &RunnerClient::stepStarted);
    RunOverrides o;
    o.stepBuffers = {"*"};
    r.client.run(sample("reduction_two_pass.kwb"), "sim", o);
    ASSERT_TRUE(done.wait(120000)) << (failed.isEmpty() ? "" : failed.at(0).at(1).toString().toStdString());
    ASSERT_EQ(steps.count(), 2);
    EXPECT_EQ(steps.at(0).at(0).toString(), "1");
    EXPECT_EQ(steps.at(1).at(0).toString(), "2");
    const auto result = done.at(0).at(1).value<RunResult>();
    EXPECT_TRUE(result.ok) << (result.fault ? result.fault->message : "");
    ASSERT_EQ(result.steps.size(), 2u);
    ASSERT_EQ(result.steps[0].buffers.size(), 3u);
    const BufferResult& partial = result.steps[0].buffers[1];
    EXPECT_EQ(partial.name, "partial");
    ASSERT_EQ(partial.data.count(), 1024u);
    EXPECT_EQ(partial.data.at(1023), 1920.0);
    EXPECT_EQ(result.steps[0].buffers[2].data.at(0), 0.0) << "the total before step 2";
    EXPECT_EQ(result.steps[1].buffers[2].data.at(0), 1966080.0);
}

TEST(Runner, AKilledRunnerIsRestartedAndTheNextJobSucceeds)
{
    Runner r;
    ASSERT_TRUE(r.ready) << r.why.toStdString();
    const qint64 before = r.client.processId();
    QSignalSpy restarted(&r.client, &RunnerClient::runnerRestarted);
    QSignalSpy devices(&r.client, &RunnerClient::devicesChanged);
    ::kill(pid_t(before), SIGKILL);
    ASSERT_TRUE(restarted.wait(10000));
    EXPECT_EQ(r.client.restarts(), 1);
    ASSERT_TRUE(devices.wait(20000) || devices.count() > 0); // hello of the fresh runner
    EXPECT_NE(r.client.processId(), before);

    QSignalSpy done(&r.client, &RunnerClient::compileFinished);
    r.client.compile(sample("add_vectors.kwb"), "sim");
    ASSERT_TRUE(done.wait(60000));
    EXPECT_TRUE(done.at(0).at(1).value<CompileResult>().ok);
}

TEST(Runner, AKillDuringAJobFailsThatJobOnly)
{
    Runner r;
    ASSERT_TRUE(r.ready) << r.why.toStdString();
    QSignalSpy failed(&r.client, &RunnerClient::jobFailed);
    QSignalSpy compiled(&r.client, &RunnerClient::compileFinished);
    QSignalSpy busy(&r.client, &RunnerClient::busyChanged);
    const int first = r.client.compile(sample("add_vectors.kwb"), "");
    r.client.stop(); // kills the runner with the first job in flight
    ASSERT_TRUE(failed.wait(10000));
    EXPECT_EQ(failed.at(0).at(0).toInt(), first);
    const int second = r.client.compile(sample("add_vectors.kwb"), "");
    ASSERT_TRUE(compiled.wait(60000));
    EXPECT_EQ(compiled.last().at(0).toInt(), second);
    EXPECT_FALSE(r.client.busy());
}

TEST(Runner, StopEndsWhatARunnerCommandStarted)
{
    // A runner command is often ssh or srun, which start more: Stop must end them all.
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString pidFile = dir.filePath("child.pid");
    RunnerClient client;
    client.setRunner("with a child", QString("sleep 300 & echo $! > '%1'; exec '%2' serve").arg(pidFile, runnerPath()));
    QSignalSpy devices(&client, &RunnerClient::devicesChanged);
    client.start();
    ASSERT_TRUE(devices.wait(20000) || devices.count() > 0);
    long child = 0;
    std::ifstream(pidFile.toStdString()) >> child;
    ASSERT_GT(child, 0);
    ASSERT_TRUE(running(child));

    QSignalSpy failed(&client, &RunnerClient::jobFailed);
    client.compile(sample("add_vectors.kwb"), "");
    client.stop();
    ASSERT_TRUE(failed.wait(10000));
    for (int i = 0; i < 50 && running(child); ++i)
        QTest::qWait(100);
    EXPECT_FALSE(running(child)) << "the command's background child outlived Stop";
    if (running(child))
        ::kill(pid_t(child), SIGKILL);
}

TEST(Runner, WatchdogStopsARunawayKernel)
{
    Runner r;
    ASSERT_TRUE(r.ready) << r.why.toStdString();
    ASSERT_TRUE(r.hasSim()) << "kwb-run always offers the sim device";
    Document doc = sample("add_vectors.kwb");
    doc.source = "__global__ void add_vectors(float* a, float* b, float* c, int n)\n"
                 "{\n  volatile int x = 0;\n  while (true) { x = x + 1; }\n}\n";
    doc.checks.clear();
    doc.run.timeLimitSeconds = 1;
    r.client.setGraceMs(500);
    QSignalSpy done(&r.client, &RunnerClient::runFinished);
    r.client.run(doc, "sim");
    ASSERT_TRUE(done.wait(60000));
    const auto result = done.at(0).at(1).value<RunResult>();
    EXPECT_FALSE(result.ok);
    ASSERT_TRUE(result.fault);
    EXPECT_EQ(result.fault->kind, FaultKind::Timeout);
}
