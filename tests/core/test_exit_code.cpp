// kwb-run's exit codes (run/ExitCode): what a compile, a run and a failure earn.
#include "run/ExitCode.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using kw::ExitCode;

TEST(ExitCode, TheCodesScriptsRelyOn)
{
    EXPECT_EQ(ExitCode::Ok, 0);
    EXPECT_EQ(ExitCode::CompileErrors, 1);
    EXPECT_EQ(ExitCode::BadInput, 2);
    EXPECT_EQ(ExitCode::Fault, 3);
    EXPECT_EQ(ExitCode::CheckFailed, 4);
    EXPECT_EQ(ExitCode::Untrusted, 5);
}

TEST(ExitCode, ACompileIsOkOrHasErrors)
{
    kw::CompileResult r;
    r.ok = true;
    EXPECT_EQ(ExitCode::of(r), ExitCode::Ok);
    r.ok = false;
    EXPECT_EQ(ExitCode::of(r), ExitCode::CompileErrors);
}

TEST(ExitCode, ARunSaysCompileErrorsFirstThenAFaultThenTheChecks)
{
    kw::RunResult r;
    r.compile.ok = true;
    r.ok = true;
    EXPECT_EQ(ExitCode::of(r), ExitCode::Ok);
    r.ok = false;
    EXPECT_EQ(ExitCode::of(r), ExitCode::CheckFailed);
    r.fault = kw::Fault{};
    EXPECT_EQ(ExitCode::of(r), ExitCode::Fault);
    r.compile.ok = false;
    EXPECT_EQ(ExitCode::of(r), ExitCode::CompileErrors);
}

TEST(ExitCode, AFailureIsBadInputUnlessADocumentWasNotTrusted)
{
    EXPECT_EQ(ExitCode::of(kw::Error(kw::ErrorCategory::Untrusted, "no")), ExitCode::Untrusted);
    EXPECT_EQ(ExitCode::of(kw::Error(kw::ErrorCategory::Document, "bad")), ExitCode::BadInput);
    EXPECT_EQ(ExitCode::of(kw::Error(kw::ErrorCategory::NoDevice, "none")), ExitCode::BadInput);
    EXPECT_EQ(ExitCode::of(std::runtime_error("other")), ExitCode::BadInput);
}
