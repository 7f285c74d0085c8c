// The bad-input suite: every cases/*.json is run against the real kwb-run in a scratch
// folder (README.md describes a case). Each case asserts its exit status, the class and
// message of what came back, and that nothing outside the scratch folder changed.
#include "CaseOutcome.hpp"
#include "KwbProcess.hpp"
#include "ScratchArea.hpp"

#include "serve/Protocol.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace kw::test {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr rlim_t kAddressSpaceLimit = 0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr rlim_t kAddressSpaceLimit = 0;
#else
constexpr rlim_t kAddressSpaceLimit = rlim_t(6) << 30;
#endif
#else
constexpr rlim_t kAddressSpaceLimit = rlim_t(6) << 30;
#endif

const fs::path kCases = fs::path(KW_TEST_DATA_DIR) / ".." / "robustness" / "cases";

std::vector<std::string> caseNames()
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(kCases))
        if (e.path().extension() == ".json")
            names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string substitute(std::string s, const ScratchArea& area)
{
    for (const auto& [key, value] : {std::pair<std::string, std::string>{"{scratch}", area.scratch().string()},
                                     {"{outside}", area.outside().string()}})
        for (std::size_t at; (at = s.find(key)) != std::string::npos;)
            s.replace(at, key.size(), value);
    return s;
}

// "{protocol}" in a case's input is the protocol version of this build, so that a request
// meant to be read is not refused for its version when the protocol moves on.
std::string withProtocol(std::string s)
{
    static const std::string key = "{protocol}";
    for (std::size_t at; (at = s.find(key)) != std::string::npos;)
        s.replace(at, key.size(), std::to_string(kw::protocol::kVersion));
    return s;
}

// The member, or an empty object (a named value: items() of a temporary would dangle).
json member(const json& c, const char* key) { return c.contains(key) ? c[key] : json::object(); }

void prepare(const json& c, const ScratchArea& area)
{
    const json files = member(c, "files"), binaryFiles = member(c, "binary_files"), generate = member(c, "generate"),
               sparse = member(c, "sparse"), symlinks = member(c, "symlinks"),
               fifos = c.contains("fifos") ? c["fifos"] : json::array();
    for (const auto& [name, content] : files.items()) {
        const fs::path p = area.scratch() / name;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary)
            << withProtocol(content.is_string() ? content.get<std::string>() : content.dump(2));
    }
    for (const auto& [name, hex] : binaryFiles.items()) {
        std::ofstream out(area.scratch() / name, std::ios::binary);
        const std::string h = hex.get<std::string>();
        for (std::size_t i = 0; i + 1 < h.size(); i += 2)
            out.put(char(std::stoi(h.substr(i, 2), nullptr, 16)));
    }
    for (const auto& [name, g] : generate.items()) {
        std::ofstream out(area.scratch() / name, std::ios::binary);
        out << withProtocol(g.value("prefix", std::string()));
        const std::string unit = g.at("repeat").get<std::string>();
        std::string block;
        for (int i = 0; i < 4096; ++i)
            block += unit;
        const std::uint64_t count = g.at("count").get<std::uint64_t>();
        for (std::uint64_t i = 0; i < count / 4096; ++i)
            out << block;
        for (std::uint64_t i = 0; i < count % 4096; ++i)
            out << unit;
        out << withProtocol(g.value("suffix", std::string()));
    }
    for (const auto& [name, bytes] : sparse.items()) {
        std::ofstream(area.scratch() / name).close();
        fs::resize_file(area.scratch() / name, bytes.get<std::uintmax_t>());
    }
    for (const auto& name : fifos)
        ASSERT_EQ(mkfifo((area.scratch() / name.get<std::string>()).c_str(), 0600), 0);
    for (const auto& [name, target] : symlinks.items())
        fs::create_symlink(substitute(target.get<std::string>(), area), area.scratch() / name);
}

void expectClass(const Classified& got, const json& want, const std::string& where)
{
    if (want.contains("class"))
        EXPECT_EQ(got.cls, want["class"].get<std::string>()) << where << "message: " << got.message;
    if (want.contains("message"))
        EXPECT_TRUE(std::regex_search(got.message, std::regex(want["message"].get<std::string>())))
            << where << "message does not match /" << want["message"].get<std::string>() << "/: " << got.message;
    if (want.contains("warning")) {
        const std::regex w(want["warning"].get<std::string>());
        EXPECT_TRUE(std::any_of(got.warnings.begin(), got.warnings.end(),
                                [&](const std::string& s) { return std::regex_search(s, w); }))
            << where << "no warning matches /" << want["warning"].get<std::string>() << "/ (" << got.warnings.size()
            << " warnings)";
    }
    if (want.contains("printf_truncated"))
        EXPECT_EQ(got.printfTruncated, want["printf_truncated"].get<bool>()) << where;
}

class BadInput : public ::testing::TestWithParam<std::string> { };

TEST_P(BadInput, IsRefusedCleanlyAndTouchesNothingOutsideItsFolder)
{
    std::ifstream in(kCases / (GetParam() + ".json"));
    const json c = json::parse(in);
    const json& expect = c.at("expect");
    ScratchArea area(GetParam());
    prepare(c, area);
    if (HasFatalFailure())
        return;
    const auto before = area.snapshot();

    std::vector<std::string> args;
    for (const auto& a : c.at("args"))
        args.push_back(substitute(a.get<std::string>(), area));
    const fs::path stdinFile = c.contains("stdin") ? area.scratch() / c["stdin"].get<std::string>() : fs::path();
    const auto r = runKwbIn(area.scratch(), args, stdinFile, area.io(), std::chrono::seconds(c.value("timeout_s", 60)),
                            kAddressSpaceLimit);
    const std::string where = "case " + GetParam() + " (" + c.value("about", std::string())
        + ")\nstderr: " + r.err.substr(0, 2000) + "\nstdout: " + r.out.substr(0, 2000) + "\n";

    ASSERT_FALSE(r.killed) << where << "still running after " << c.value("timeout_s", 60) << " s";
    EXPECT_EQ(r.exitCode, expect.at("exit").get<int>()) << where;
    if (expect.contains("stdout"))
        EXPECT_TRUE(std::regex_search(r.out, std::regex(expect["stdout"].get<std::string>())))
            << where << "stdout does not match /" << expect["stdout"].get<std::string>() << "/";
    if (expect.contains("replies")) {
        const auto replies = serveReplies(r.out);
        ASSERT_EQ(replies.size(), expect["replies"].size()) << where;
        for (std::size_t i = 0; i < replies.size(); ++i) {
            const json& want = expect["replies"][i];
            if (want.contains("id"))
                EXPECT_EQ(replies[i].first.value("id", json()), want["id"]) << where << "reply " << i;
            expectClass(replies[i].second, want, where + "reply " + std::to_string(i) + ": ");
        }
    } else {
        expectClass(classifyCli(r.exitCode, r.out, r.err), expect, where);
    }
    if (expect.contains("absent")) // what must never be quoted back, e.g. another file's contents
        EXPECT_FALSE(std::regex_search(r.out + r.err, std::regex(expect["absent"].get<std::string>())))
            << where << "the output discloses /" << expect["absent"].get<std::string>() << "/";
    for (const auto& name : member(expect, "no_files"))
        EXPECT_FALSE(fs::exists(area.scratch() / name.get<std::string>())) << where << name << " was written";
    const json files = member(expect, "files");
    for (const auto& [name, pattern] : files.items()) {
        const fs::path p = area.scratch() / name;
        ASSERT_TRUE(fs::is_regular_file(p)) << where << name << " was not written";
        const std::string content = readWholeFile(p);
        if (pattern.get<std::string>().empty())
            EXPECT_FALSE(content.empty()) << where << name << " is empty";
        else
            EXPECT_TRUE(std::regex_search(content, std::regex(pattern.get<std::string>())))
                << where << name << " does not match /" << pattern.get<std::string>() << "/";
    }

    const auto after = area.snapshot();
    EXPECT_EQ(before, after) << where << "something outside the scratch folder changed";
}

INSTANTIATE_TEST_SUITE_P(Cases, BadInput, ::testing::ValuesIn(caseNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string n = info.param;
                             std::replace_if(
                                 n.begin(), n.end(), [](char ch) { return !std::isalnum((unsigned char)ch); }, '_');
                             return n;
                         });

} // namespace
} // namespace kw::test
