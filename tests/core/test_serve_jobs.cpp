// Jobs for runners that do not share the client's files (docs/protocol.md, version 2):
// what a job carries, how a runner unpacks it, and the version check on both sides.
#include "remote/RemoteDocuments.hpp"
#include "support/FakeRunner.hpp"
#include "support/TempDir.hpp"

#include "doc/BufferFactory.hpp"
#include "doc/DocumentReader.hpp"
#include "serve/JobCodec.hpp"
#include "serve/Protocol.hpp"
#include "serve/ServeClient.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

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

TEST(ServeJobs, TakingThePayloadGivesTheSameFilesAndKeepsWhatARequestServedAgainSends)
{
    const fs::path dir = kw::test::freshDir("kwjobs", "take");
    const kw::Document doc = kwtest::writeRoundTripDocument(dir / "client", 1001);
    const kw::EncodedJob job = kw::JobCodec::encode(doc, kw::protocol::op::kRun, 1, "sim");
    ASSERT_EQ(job.header["files"].size(), 3u);

    kw::Message copied{job.header, job.payload}, taken{job.header, job.payload};
    const kw::Document a = kw::JobCodec::decode(copied, dir / "jobs");
    const kw::Document b = kw::JobCodec::decodeTakingPayload(taken, dir / "jobs");
    EXPECT_EQ(copied.binary, job.payload) << "decode of a const request leaves its payload";
    EXPECT_TRUE(taken.binary.empty()) << "the payload became the first file's data";
    ASSERT_TRUE(a.attachedFiles && b.attachedFiles);
    ASSERT_EQ(b.attachedFiles->size(), a.attachedFiles->size());
    for (const auto& [name, array] : *a.attachedFiles) {
        ASSERT_TRUE(b.attachedFiles->count(name)) << name;
        const kw::NdArray& other = b.attachedFiles->at(name);
        EXPECT_EQ(other.data.dtype(), array.data.dtype()) << name;
        EXPECT_EQ(other.data.count(), array.data.count()) << name;
        EXPECT_EQ(other.data.bytes(), array.data.bytes()) << name;
        EXPECT_EQ(other.shape, array.shape) << name;
    }
    EXPECT_EQ(b.attachedFiles->at("bytes.raw").data.byteSize(), 1001u) << "taken, then cut to its own bytes";
    EXPECT_EQ(kw::JobCodec::payloadOf(taken.header, b), job.payload) << "byte for byte";
}

TEST(ServeJobs, AnAttachedFileShorterOrLongerThanItsBufferIsRefusedAsFromDisk)
{
    const fs::path dir = kw::test::freshDir("kwjobs", "count");
    const kw::Document doc = kwtest::writeRoundTripDocument(dir / "client", 64);
    const kw::EncodedJob job = kw::JobCodec::encode(doc, kw::protocol::op::kRun, 1, "sim");
    ASSERT_EQ(job.header["files"][0]["file"], "bytes.raw");
    ASSERT_EQ(job.header["files"][0]["offset"], 0);
    for (const std::size_t held : {63u, 65u}) {
        // bytes.raw (buffers[0], u8) comes with one byte fewer or more than n = 64 elements.
        kw::Message m{job.header, {}};
        m.header["files"][0]["count"] = held;
        m.header["files"][0]["bytes"] = held;
        m.binary.resize(held);
        std::memcpy(m.binary.data(), job.payload.data(), std::min<std::size_t>(held, 64));
        for (std::size_t f = 1; f < m.header["files"].size(); ++f) { // the others after it, as they came
            json& file = m.header["files"][f];
            const std::size_t from = file["offset"].get<std::size_t>(), bytes = file["bytes"].get<std::size_t>();
            file["offset"] = m.binary.size();
            m.binary.insert(m.binary.end(), job.payload.begin() + std::ptrdiff_t(from),
                            job.payload.begin() + std::ptrdiff_t(from + bytes));
        }
        const std::string expected
            = "buffers[0].init.path: \"bytes.raw\" holds " + std::to_string(held) + " elements, but the buffer has 64";
        for (const bool take : {false, true}) {
            kw::Message request = m;
            try {
                take ? kw::JobCodec::decodeTakingPayload(request, dir / "jobs")
                     : kw::JobCodec::decode(request, dir / "jobs");
                ADD_FAILURE() << held << " elements were accepted for 64";
            } catch (const kw::Error& e) {
                EXPECT_EQ(e.category(), kw::ErrorCategory::Document);
                EXPECT_EQ(std::string(e.what()), expected) << (take ? "taken" : "copied");
            }
        }
    }
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

// A source in its own file travels inline but keeps its name: the runner compiles it
// under that name, so the profile's lines and the diagnostics name the file the client
// shows (the matmul sample's profile came back under "kernel.cu" and showed nothing).
TEST(ServeJobs, ASourceFileKeepsItsNameOnTheRunner)
{
    const kw::Document doc = kw::DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/matmul.kwb");
    ASSERT_EQ(doc.sourceName(), "matmul.cu");
    const kw::EncodedJob job = kw::JobCodec::encode(doc, kw::protocol::op::kRun, 1, "sim");
    EXPECT_EQ(job.header["source_name"], "matmul.cu");
    EXPECT_FALSE(job.header["document"].contains("source_file")) << "the source travels inline";

    const fs::path dir = kw::test::freshDir("kwjobs", "source_name");
    kw::Message m{job.header, job.payload};
    const kw::Document got = kw::JobCodec::decode(m, dir / "jobs");
    EXPECT_EQ(got.sourceName(), "matmul.cu");
    EXPECT_EQ(got.source, doc.source);
    for (const char* bad : {"/etc/passwd", "../outside.cu", "a/../../b.cu"}) {
        kw::Message evil = m;
        evil.header["source_name"] = bad;
        EXPECT_THROW(kw::JobCodec::decode(evil, dir / "jobs"), kw::Error) << bad;
    }

    // Through a real runner: every profiled line is the sample's own file.
    kw::Document small = doc;
    small.variables = {{"M", "40"}, {"N", "36"}, {"K", "24"}, {"tile", "16"}};
    kw::ServeClient client(std::string(KW_BIN_DIR) + "/kwb-run serve");
    kw::RunOverrides profile;
    profile.profile.enabled = true;
    const kw::RunResult r = client.run(small, "sim", "outputs", {}, profile);
    ASSERT_TRUE(r.compile.ok);
    ASSERT_TRUE(r.profile.has_value()) << (r.warnings.empty() ? "" : r.warnings.front());
    ASSERT_FALSE(r.profile->lines.empty());
    for (const kw::LineProfile& l : r.profile->lines)
        EXPECT_EQ(fs::path(l.file).filename(), "matmul.cu") << l.file << ":" << l.line;
}

TEST(ServeJobs, AClientRefusesARunnerOfAnotherVersionNamingBoth)
{
    // A runner of version 1 answering hello, as that version wrote it.
    try {
        kw::ServeClient client(kwtest::fakeRunner("hello-v1"));
        ADD_FAILURE() << "connected to a version 1 runner";
    } catch (const kw::Error& e) {
        EXPECT_EQ(std::string(e.what()), kw::protocol::versionMismatch(1, kw::protocol::kVersion));
    }
}

TEST(ServeJobs, ACommandThatIsNotARunnerEndsWithAClearMessage)
{
    try {
        kw::ServeClient client(kwtest::fakeRunner("fail 3 \"no such runner here\""));
        ADD_FAILURE() << "a shell that exits was taken for a runner";
    } catch (const kw::Error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("exited with status 3"), std::string::npos) << m;
        EXPECT_NE(m.find("no such runner here"), std::string::npos) << m;
        EXPECT_NE(m.find("ended before answering"), std::string::npos) << m;
    }
}
