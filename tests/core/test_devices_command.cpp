// `kwb-run devices` as a core class (serve/DevicesCommand): the text listing, or the
// JSON form the runner's devices reply also has.
#include "run/DevicesReport.hpp"
#include "run/DevicesText.hpp"
#include "run/ExitCode.hpp"
#include "serve/DevicesCommand.hpp"
#include "serve/ResultJson.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>

namespace {

std::string contents(std::FILE* f)
{
    std::string text;
    std::rewind(f);
    char chunk[4096];
    for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;)
        text.append(chunk, n);
    std::fclose(f);
    return text;
}

std::string devices(bool json, int& code)
{
    std::FILE* out = std::tmpfile();
    std::FILE* err = std::tmpfile();
    code = kw::DevicesCommand::execute(json, out, err);
    EXPECT_EQ(contents(err), "");
    return contents(out);
}

} // namespace

TEST(DevicesCommand, PrintsTheListingAsText)
{
    int code = -1;
    EXPECT_EQ(devices(false, code), kw::DevicesText::format(kw::DevicesReport::collect()));
    EXPECT_EQ(code, kw::ExitCode::Ok);
}

TEST(DevicesCommand, JsonIsTheRunnersDevicesReply)
{
    int code = -1;
    const std::string out = devices(true, code);
    EXPECT_EQ(code, kw::ExitCode::Ok);
    EXPECT_EQ(out, kw::toJson(kw::DevicesReport::collect()).dump(2) + "\n");
    const nlohmann::json j = nlohmann::json::parse(out);
    EXPECT_EQ(j["devices"].back()["id"], "sim");
}
