// The protocol's one header (serve/Protocol.hpp): the messages its builders make,
// what its readers take from a message, and the stage names a run goes through.
#include "compile/Compiler.hpp"
#include "doc/DocumentReader.hpp"
#include "run/RunEngine.hpp"
#include "serve/Protocol.hpp"
#include "sim/SimBackend.hpp"

#include <gtest/gtest.h>

namespace protocol = kw::protocol;
using nlohmann::json;

TEST(Protocol, ARequestCarriesTheVersionItsIdItsOpAndItsMembers)
{
    EXPECT_EQ(protocol::request(3, protocol::op::kHello),
              json({{"v", protocol::kVersion}, {"id", 3}, {"op", "hello"}}));
    const json run = protocol::request(4, protocol::op::kRun, {{"device", "sim"}, {"v", 0}});
    EXPECT_EQ(run, json({{"v", protocol::kVersion}, {"id", 4}, {"op", "run"}, {"device", "sim"}}))
        << "the version is the protocol's, whatever the members say";
}

TEST(Protocol, AStageEventNamesItsStage)
{
    EXPECT_EQ(protocol::stageEvent(5, protocol::stage::kDownload),
              json({{"v", protocol::kVersion}, {"id", 5}, {"event", "stage"}, {"stage", "download"}}));
}

TEST(Protocol, TheReadersTakeWhatAMessageSaysItIs)
{
    const json request = protocol::request(1, protocol::op::kCompile);
    EXPECT_EQ(protocol::opOf(request), "compile");
    EXPECT_EQ(protocol::eventOf(request), "");
    const json stage = protocol::stageEvent(1, protocol::stage::kLaunch);
    EXPECT_EQ(protocol::eventOf(stage), protocol::event::kStage);
    EXPECT_EQ(protocol::stageOf(stage), "launch");
    EXPECT_EQ(protocol::opOf(stage), "");
    const json buffer = protocol::eventMessage(1, protocol::event::kBuffer, {{"name", "c"}});
    EXPECT_EQ(protocol::eventOf(buffer), "buffer");
    EXPECT_EQ(protocol::stageOf(buffer), "");
}

TEST(Protocol, ARunGoesThroughTheStagesTheProtocolNames)
{
    kw::Document doc
        = kw::DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/add_vectors_small.kwb", kw::Trust::Trusted);
    doc.run.warmup = 0;
    doc.run.repeats = 1;
    kw::Compiler compiler;
    kw::SimBackend sim;
    kw::RunEngine engine(compiler, sim);
    std::vector<std::string> stages;
    engine.onStage([&](const std::string& s) { stages.push_back(s); });
    ASSERT_TRUE(engine.run(doc).ok);
    EXPECT_EQ(stages,
              (std::vector<std::string>{protocol::stage::kCompile, protocol::stage::kUpload, protocol::stage::kLaunch,
                                        protocol::stage::kChecks}));
}
