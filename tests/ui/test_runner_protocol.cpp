// The window's RunnerClient against a runner that breaks the protocol: a fake runner (a
// shell script in the case's own temp folder) answers hello honestly, then sends a frame
// header that no runner may send. The run fails with a protocol error naming the runner,
// the window neither crashes nor allocates what the frame claims, and the runner is ended
// and not restarted in a loop. An honest fake runner, the control, gets its run through.
#include "RunnerClient.hpp"

#include "doc/DocumentReader.hpp"
#include "serve/Protocol.hpp"
#include "support/TempDir.hpp"

#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

#include <fstream>
#include <ostream>

using namespace kw;
using nlohmann::json;

namespace {

// Reads hello and answers it, reads the run and answers with run.txt, then waits.
const char* kFakeRunner = "here=$(dirname \"$0\")\n"
                          "read -r request\n"
                          "cat \"$here/hello.txt\"\n"
                          "read -r request\n"
                          "cat \"$here/run.txt\"\n"
                          "read -r request\n";

std::string line(const json& message) { return message.dump() + "\n"; }

// add_vectors_small: a, b (in) and c (out), three floats each.
Document sample() { return DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/add_vectors_small.kwb"); }

json frameHeader(const json& name, const json& count, const json& binary)
{
    return {{"v", 2},         {"id", 2},        {"event", "buffer"}, {"name", name},
            {"dtype", "f32"}, {"count", count}, {"binary", binary}};
}

std::string finalReply()
{
    const json result = {{"ok", true},
                         {"device", {{"id", "sim"}, {"name", "PTX simulator"}}},
                         {"compile", {{"ok", true}}},
                         {"buffers", {{{"name", "c"}, {"dtype", "f32"}, {"shape", {3}}, {"direction", "out"}}}}};
    return line(protocol::reply(2, result));
}

const std::string kThreeFloats = [] {
    const float v[3] = {5, 7, 9};
    return std::string(reinterpret_cast<const char*>(v), sizeof v);
}();

// A client connected to a fake runner that answers the run (id 2) with `runReply`.
struct FakeRunner {
    RunnerClient client;
    bool connected = false;

    FakeRunner(const std::string& name, const std::string& runReply)
    {
        const std::filesystem::path dir = kw::test::freshDir("kw_test_runner_protocol", name);
        std::ofstream(dir / "fake.sh") << kFakeRunner;
        std::ofstream(dir / "hello.txt", std::ios::binary) << line(
            protocol::reply(1, {{"protocol", protocol::kVersion}, {"version", "0.1.0"}, {"devices", json::array()}}));
        std::ofstream(dir / "run.txt", std::ios::binary) << runReply;
        client.setRunner("fake", QString::fromStdString("sh " + (dir / "fake.sh").string()));
        QSignalSpy ready(&client, &RunnerClient::runnerConnected);
        client.start(); // the hello is request 1, the run request 2
        connected = ready.count() > 0 || ready.wait(20000);
    }
};

struct Malice {
    std::string name;
    std::string runReply;
    std::string says;
};

// gtest names a case by its name, not its bytes.
void PrintTo(const Malice& m, std::ostream* os) { *os << m.name; }

std::vector<Malice> malice()
{
    return {
        {"binary_oops", line(frameHeader("c", 3, "oops")) + kThreeFloats + finalReply(),
         "\"binary\" must be a byte count"},
        {"count_2_to_42", line(frameHeader("c", std::uint64_t(1) << 42, std::uint64_t(1) << 44)) + kThreeFloats,
         "4398046511104 elements"},
        {"count_wraps_to_4_bytes", line(frameHeader("c", (std::uint64_t(1) << 62) + 1, 4)) + "abcd" + finalReply(),
         "4611686018427387905"},
        {"traversal_name", line(frameHeader("../../x", 3, 12)) + kThreeFloats + finalReply(), "\"../../x\""},
        {"binary_on_a_stage_event",
         line({{"v", 2}, {"id", 2}, {"event", "stage"}, {"stage", "launch"}, {"binary", 4}}) + "abcd" + finalReply(),
         "not a buffer frame"},
        {"event_is_a_number", line({{"v", 2}, {"id", 2}, {"event", 5}}) + finalReply(), "\"event\" must be a string"},
    };
}

class RunnerProtocol : public ::testing::TestWithParam<Malice> { };

TEST_P(RunnerProtocol, ARunnerThatBreaksTheProtocolFailsTheJobOnceAndIsNotRestarted)
{
    const Malice& m = GetParam();
    FakeRunner fake(m.name, m.runReply);
    ASSERT_TRUE(fake.connected) << "the fake runner's hello was not taken";
    QSignalSpy failed(&fake.client, &RunnerClient::jobFailed);
    QSignalSpy finished(&fake.client, &RunnerClient::runFinished);
    QSignalSpy lost(&fake.client, &RunnerClient::runnerLost);
    QSignalSpy restarted(&fake.client, &RunnerClient::runnerRestarted);
    const int id = fake.client.run(sample(), "sim");
    ASSERT_EQ(id, 2);
    ASSERT_TRUE(failed.count() > 0 || failed.wait(20000)) << "the job did not fail";
    const QString message = failed.at(0).at(1).toString();
    EXPECT_EQ(failed.at(0).at(0).toInt(), id);
    EXPECT_TRUE(message.contains("the runner \"fake\" broke the protocol")) << message.toStdString();
    EXPECT_TRUE(message.contains(QString::fromStdString(m.says))) << message.toStdString();

    // A restart would happen in the handler of the killed process's exit: wait for that exit,
    // then let everything it posted run, instead of waiting a fixed time.
    ASSERT_TRUE(QTest::qWaitFor([&] { return !fake.client.isRunning(); }, 20000))
        << "the runner that broke the protocol was not ended";
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    EXPECT_EQ(failed.count(), 1) << "shown once";
    EXPECT_TRUE(finished.isEmpty()) << "a result was believed";
    EXPECT_EQ(lost.count(), 1);
    EXPECT_TRUE(restarted.isEmpty());
    EXPECT_EQ(fake.client.restarts(), 0);
    EXPECT_FALSE(fake.client.isRunning()) << "the runner that broke the protocol was not ended";
    EXPECT_FALSE(fake.client.busy());
}

INSTANTIATE_TEST_SUITE_P(Replies, RunnerProtocol, ::testing::ValuesIn(malice()),
                         [](const ::testing::TestParamInfo<Malice>& info) { return info.param.name; });

TEST(RunnerProtocolControl, AnHonestFakeRunnerGetsItsRunThrough)
{
    FakeRunner fake("control", line(frameHeader("c", 3, 12)) + kThreeFloats + finalReply());
    ASSERT_TRUE(fake.connected);
    QSignalSpy finished(&fake.client, &RunnerClient::runFinished);
    QSignalSpy failed(&fake.client, &RunnerClient::jobFailed);
    fake.client.run(sample(), "sim");
    ASSERT_TRUE(finished.count() > 0 || finished.wait(20000))
        << (failed.isEmpty() ? std::string() : failed.at(0).at(1).toString().toStdString());
    const auto r = finished.at(0).at(1).value<RunResult>();
    ASSERT_EQ(r.buffers.size(), 1u);
    ASSERT_EQ(r.buffers[0].data.count(), 3u);
    EXPECT_EQ(r.buffers[0].data.at(2), 9.0);
}

} // namespace
