// kwb-run and kwb-run serve with documents from elsewhere: refused with exit code 5
// or the "untrusted" category, nothing outside the scratch folder read or written,
// and --trust / "trust": true for one's own files. Through the real executable.
#include "gpu/ChildProcess.hpp"
#include "support/TempDir.hpp"

#include "serve/Protocol.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>

namespace fs = std::filesystem;
using kwtest::runKwb;
using nlohmann::json;

namespace {

const char* kSecret = "KWB_SECRET_TOKEN_0815";

void write(const fs::path& p, const std::string& text)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

// Every file under `dir` with its size and contents: compared before and after.
std::map<std::string, std::string> listing(const fs::path& dir)
{
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        std::ifstream in(e.path(), std::ios::binary);
        out[e.path().string()] = std::string(std::istreambuf_iterator<char>(in), {});
    }
    return out;
}

struct Scratch {
    fs::path root, doc, outside;
    explicit Scratch(const std::string& name)
    {
        root = kw::test::freshDir("kw_trust_cli", name);
        doc = root / "doc";
        outside = root / "private";
        write(outside / "canary.txt", "unchanged\n");
        write(outside / "secret.h", std::string("int leaked = ") + kSecret + ";\n");
        write(outside / "secret.csv", std::string(kSecret) + "\n");
        write(outside / "ok.h", "#define OK_HEADER 1\n");
        fs::create_directories(doc);
    }
};

json document(const std::string& source, json options = json::object(), json init = {{"kind", "zeros"}})
{
    return {{"format", "kernel-workbench"},
            {"version", 1},
            {"source", source},
            {"kernel", "k"},
            {"options", options},
            {"buffers",
             json::array({{{"name", "p"}, {"dtype", "f32"}, {"count", "4"}, {"init", init}, {"direction", "inout"}}})},
            {"args", json::array({{{"name", "p"}, {"buffer", "p"}}})},
            {"launch", {{"grid", {"1", "1", "1"}}, {"block", {"4", "1", "1"}}}}};
}

const char* kKernel = "__global__ void k(float* p) { p[threadIdx.x] += 1.0f; }\n";

} // namespace

TEST(TrustCli, OptionThatWritesAFileIsRefusedWithExitFive)
{
    Scratch s("option");
    const fs::path target = s.outside / "time.txt";
    const fs::path doc = s.doc / "d.kwb";
    write(doc, document(kKernel, {{"extra", {"--time=" + target.string()}}}).dump());
    const auto before = listing(s.outside);
    for (const char* cmd : {"compile", "run"}) {
        auto r = cmd == std::string("run") ? runKwb({"run", doc.string(), "--device", "sim"})
                                           : runKwb({"compile", doc.string()});
        EXPECT_EQ(r.exitCode, 5) << cmd << r.out << r.err;
        EXPECT_NE(r.err.find("options.extra[0]"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("--trust"), std::string::npos) << "says how to lift it: " << r.err;
    }
    EXPECT_EQ(listing(s.outside), before);
    // One's own document may.
    auto own = runKwb({"compile", doc.string(), "--trust"});
    EXPECT_EQ(own.exitCode, 0) << own.err;
    EXPECT_TRUE(fs::exists(target));
}

TEST(TrustCli, IncludeOfAFileOutsideIsRefusedAndNotQuoted)
{
    Scratch s("include");
    const fs::path cu = s.doc / "k.cu";
    write(cu, "#include \"" + (s.outside / "secret.h").string() + "\"\n" + kKernel);
    auto r = runKwb({"compile", cu.string(), "--json"});
    EXPECT_EQ(r.exitCode, 5) << r.out << r.err;
    EXPECT_NE(r.err.find("k.cu:1"), std::string::npos) << r.err;
    EXPECT_EQ((r.out + r.err).find(kSecret), std::string::npos) << r.out << r.err;
    // With -I the user names a folder of their own: readable.
    write(cu, std::string("#include \"ok.h\"\n") + kKernel);
    auto withDir = runKwb({"compile", cu.string(), "-I", s.outside.string()});
    EXPECT_EQ(withDir.exitCode, 0) << withDir.err;
}

TEST(TrustCli, InitialiserFileOutsideIsNeitherReadNorCopiedToOut)
{
    Scratch s("init");
    const fs::path doc = s.doc / "d.kwb";
    write(doc,
          document(kKernel, json::object(), {{"kind", "file"}, {"path", (s.outside / "secret.csv").string()}}).dump());
    const fs::path out = s.doc / "out";
    auto r = runKwb({"run", doc.string(), "--device", "sim", "--out", out.string()});
    EXPECT_EQ(r.exitCode, 5) << r.out << r.err;
    EXPECT_NE(r.err.find("buffers[0].init.path"), std::string::npos) << r.err;
    EXPECT_EQ((r.out + r.err).find(kSecret), std::string::npos);
    EXPECT_FALSE(fs::exists(out / "p.npy"));
}

TEST(TrustCli, SourceFileWithNewlinesAndOutsidePathIsRefused)
{
    Scratch s("source_file");
    write(s.outside / "k.cu", kKernel);
    const fs::path doc = s.doc / "d.kwb";
    json j = document(kKernel);
    j.erase("source");
    j["source_file"] = "../private/k.cu";
    write(doc, j.dump());
    auto r = runKwb({"run", doc.string(), "--device", "sim"});
    EXPECT_EQ(r.exitCode, 5) << r.err;
    EXPECT_NE(r.err.find("source_file"), std::string::npos) << r.err;
    const auto trusted = runKwb({"run", doc.string(), "--device", "sim", "--trust"});
    EXPECT_EQ(trusted.exitCode, 0) << trusted.err;
}

TEST(TrustCli, ServeConfinesJobsUnlessTheClientTrustsThem)
{
    Scratch s("serve");
    kwtest::ChildProcess serve({"serve"});
    const json doc = document("#include \"" + (s.outside / "secret.h").string() + "\"\n" + kKernel);
    serve.send(kw::protocol::request(1, kw::protocol::op::kCompile,
                                     {{"document", doc}, {"base_dir", s.doc.string()}, {"device", "sim"}}));
    const json refused = serve.replyFor(1);
    ASSERT_FALSE(refused["ok"].get<bool>()) << refused.dump();
    EXPECT_EQ(refused["error"]["category"], "untrusted") << refused.dump();
    EXPECT_EQ(refused.dump().find(kSecret), std::string::npos);

    const json own = document("#include \"" + (s.outside / "ok.h").string() + "\"\n" + kKernel);
    serve.send(
        kw::protocol::request(2, kw::protocol::op::kCompile,
                              {{"document", own}, {"base_dir", s.doc.string()}, {"device", "sim"}, {"trust", true}}));
    const json trusted = serve.replyFor(2);
    ASSERT_TRUE(trusted["ok"].get<bool>()) << trusted.dump();
    EXPECT_TRUE(trusted["result"]["ok"].get<bool>()) << trusted.dump();
}
