// Jobs for runners that do not share the client's files (docs/protocol.md, version 2):
// what a job carries, how a runner unpacks it, and the version check on both sides.
#include "remote/RemoteDocuments.hpp"
#include "support/TempDir.hpp"

#include "doc/BufferFactory.hpp"
#include "serve/JobCodec.hpp"
#include "serve/Protocol.hpp"
#include "serve/ServeClient.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using nlohmann::json;

TEST(ServeJobs, AJobCarriesItsHeadersAndInitialiserDataButNoClientPath)
{
    const fs::path dir = kw::test::freshDir("kwjobs", "encode");
    const kw::Document doc = kwtest::writeRoundTripDocument(dir / "client", 100);
    const kw::EncodedJob job = kw::JobCodec::encode(doc, kw::protocol::op::kRun, 7, "sim");

    EXPECT_EQ(job.header["v"], kw::protocol::kVersion);
    EXPECT_EQ(job.header["op"], "run");
    EXPECT_EQ(job.header["device"], "sim");
    std::set<std::string> headers;
    for (const json& inc : job.header["includes"])
        headers.insert(inc["path"].get<std::string>());
    EXPECT_EQ(headers, (std::set<std::string>{"scale.cuh", "include/copy.cuh"}));
    ASSERT_EQ(job.header["files"].size(), 3u);
    EXPECT_EQ(job.payload.size(), 100u * (1 + 4 + 8));
    EXPECT_EQ(job.header["files"][1]["file"], "floats.npy");
    EXPECT_EQ(job.header["files"][1]["offset"], 100);
    EXPECT_EQ(job.header["files"][1]["bytes"], 400);
    // Nothing in the request names a folder of the client.
    EXPECT_EQ(job.header.dump().find(dir.string()), std::string::npos);
    EXPECT_FALSE(job.header.contains("base_dir"));
}

TEST(ServeJobs, TheRunnerUnpacksAJobIntoItsOwnFolderAndNeverReadsInitialisersFromDisk)
{
    const fs::path dir = kw::test::freshDir("kwjobs", "decode");
    const kw::Document doc = kwtest::writeRoundTripDocument(dir / "client", 64);
    const kw::EncodedJob job = kw::JobCodec::encode(doc, kw::protocol::op::kRun, 1, "sim");
    // The client's files vanish before the runner looks: it must not need them.
    fs::remove_all(dir / "client");

    kw::Message m{job.header, job.payload};
    const kw::Document got = kw::JobCodec::decode(m, dir / "jobs");
    EXPECT_EQ(got.baseDir().parent_path(), dir / "jobs");
    EXPECT_TRUE(fs::is_regular_file(got.baseDir() / "scale.cuh"));
    EXPECT_TRUE(fs::is_regular_file(got.baseDir() / "include" / "copy.cuh"));
    ASSERT_TRUE(got.attachedFiles);
    EXPECT_EQ(got.attachedFiles->at("bytes.raw").data.byteSize(), 64u);

    // A header path that leaves the job's folder is refused.
    kw::Message evil = m;
    evil.header["includes"][0]["path"] = "../../outside.cuh";
    EXPECT_THROW(kw::JobCodec::decode(evil, dir / "jobs"), kw::Error);
    // A payload shorter than the files it declares is refused.
    kw::Message cut = m;
    cut.binary.resize(10);
    EXPECT_THROW(kw::JobCodec::decode(cut, dir / "jobs"), kw::Error);
}

TEST(ServeJobs, ALocalRunnerRunsAJobThroughTheClient)
{
    const fs::path dir = kw::test::freshDir("kwjobs", "local");
    const kw::Document doc = kwtest::writeRoundTripDocument(dir / "client", 300);
    kw::ServeClient client(std::string(KW_BIN_DIR) + "/kwb-run serve");
    const kw::RunResult r = client.run(doc, "sim");
    EXPECT_TRUE(r.ok);
    EXPECT_GT(client.lastJob().sent, 300u * 13);
    EXPECT_GT(client.lastJob().received, 300u * 13);
}

TEST(ServeJobs, AClientRefusesARunnerOfAnotherVersionNamingBoth)
{
    // A runner of version 1 answering hello, as that version wrote it.
    const std::string oldRunner
        = "read line; echo '{\"v\":1,\"id\":1,\"ok\":true,\"result\":{\"protocol\":1,\"devices\":[]}}'";
    try {
        kw::ServeClient client(oldRunner);
        ADD_FAILURE() << "connected to a version 1 runner";
    } catch (const kw::Error& e) {
        EXPECT_EQ(std::string(e.what()), kw::protocol::versionMismatch(1, kw::protocol::kVersion));
    }
}

TEST(ServeJobs, ACommandThatIsNotARunnerEndsWithAClearMessage)
{
    try {
        kw::ServeClient client("echo 'no such runner here' >&2; exit 3");
        ADD_FAILURE() << "a shell that exits was taken for a runner";
    } catch (const kw::Error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("exited with status 3"), std::string::npos) << m;
        EXPECT_NE(m.find("no such runner here"), std::string::npos) << m;
        EXPECT_NE(m.find("ended before answering"), std::string::npos) << m;
    }
}
