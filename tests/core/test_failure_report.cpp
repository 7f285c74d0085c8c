// What kwb-run prints when a command fails (run/FailureReport): one line naming the
// category, and for an untrusted document a second one saying how to lift it.
#include "run/ExitCode.hpp"
#include "run/FailureReport.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>

using kw::FailureReport;

TEST(FailureReport, NamesTheCategoryOfAKwError)
{
    EXPECT_EQ(FailureReport::text(kw::Error(kw::ErrorCategory::Document, "buffers[0].count: bad")),
              "kwb-run: document error: buffers[0].count: bad\n");
    EXPECT_EQ(FailureReport::text(kw::Error(kw::ErrorCategory::NoDevice, "no GPU to run on: none")),
              "kwb-run: no-device error: no GPU to run on: none\n");
}

TEST(FailureReport, AnyOtherFailureIsInternal)
{
    EXPECT_EQ(FailureReport::text(std::runtime_error("boom")), "kwb-run: internal error: boom\n");
}

TEST(FailureReport, AnUntrustedDocumentIsToldHowToLiftIt)
{
    EXPECT_EQ(FailureReport::text(kw::Error(kw::ErrorCategory::Untrusted, "options.extra[0]: not allowed")),
              "kwb-run: untrusted error: options.extra[0]: not allowed\n"
              "(for a document of your own, --trust lifts this)\n");
}

TEST(FailureReport, PrintWritesTheTextAndReturnsTheExitCode)
{
    std::FILE* err = std::tmpfile();
    ASSERT_NE(err, nullptr);
    EXPECT_EQ(FailureReport::print(err, kw::Error(kw::ErrorCategory::Io, "cannot read x")), kw::ExitCode::BadInput);
    EXPECT_EQ(FailureReport::print(err, kw::Error(kw::ErrorCategory::Untrusted, "no")), kw::ExitCode::Untrusted);
    std::rewind(err);
    char text[256] = {};
    const std::size_t n = std::fread(text, 1, sizeof text - 1, err);
    std::fclose(err);
    EXPECT_EQ(std::string(text, n),
              "kwb-run: io error: cannot read x\n"
              "kwb-run: untrusted error: no\n(for a document of your own, --trust lifts this)\n");
}
