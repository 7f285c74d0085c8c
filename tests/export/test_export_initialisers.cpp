// Which initialisers an export writes as a formula and which it bakes: a formula only
// where the program's values are the document's exact bytes; random numbers, expressions,
// files, copies and half floats are baked.
#include "doc/DocumentReader.hpp"
#include "export/ExportPlan.hpp"
#include "export/InitialiserTranslation.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace kw::exporting;
using Form = InitialValues::Form;

namespace {

// A document with one buffer `b` of 16 elements of `dtype` and initialiser `init`, passed
// to a kernel that takes a pointer.
ExportPlan planFor(const std::string& dtype, const nlohmann::json& init)
{
    nlohmann::json d = {
        {"format", "kernel-workbench"},
        {"version", 1},
        {"source", "__global__ void k(void* p) {}"},
        {"kernel", "k"},
        {"variables", nlohmann::json::parse(R"([["n", "16"]])")},
        {"buffers", {{{"name", "b"}, {"dtype", dtype}, {"count", "n"}, {"init", init}}}},
        {"args", {{{"buffer", "b"}}}},
        {"launch", {{"grid", 1}, {"block", 1}}},
    };
    return ExportPlan::make(kw::DocumentReader::readString(d.dump()));
}

InitialValues chosen(const std::string& dtype, const nlohmann::json& init)
{
    const ExportPlan plan = planFor(dtype, init);
    const ExportBuffer& b = plan.buffers().front();
    if (b.init.form != Form::Baked)
        EXPECT_EQ(InitialiserTranslation::compute(b.init, b.dtype, b.count).bytes(), b.initial.bytes())
            << "a formula must give the document's exact bytes";
    return b.init;
}

} // namespace

TEST(ExportInitialisers, ZerosFillArangeAndLinspaceAreFormulas)
{
    EXPECT_EQ(chosen("f32", {{"kind", "zeros"}}).form, Form::Zeros);
    EXPECT_EQ(chosen("bf16", {{"kind", "zeros"}}).form, Form::Zeros);
    const InitialValues fill = chosen("f32", {{"kind", "fill"}, {"value", "0.1"}});
    EXPECT_EQ(fill.form, Form::Fill);
    EXPECT_EQ(fill.a, 0.1);
    EXPECT_EQ(chosen("i32", {{"kind", "fill"}, {"value", "-1"}}).form, Form::Fill);
    const InitialValues arange = chosen("f32", {{"kind", "arange"}, {"start", "1"}, {"step", "0.1"}});
    EXPECT_EQ(arange.form, Form::Arange);
    EXPECT_EQ(arange.a, 1);
    EXPECT_EQ(arange.b, 0.1);
    EXPECT_EQ(chosen("u8", {{"kind", "arange"}, {"start", "n"}, {"step", "2"}}).form, Form::Arange);
    EXPECT_EQ(chosen("f64", {{"kind", "linspace"}, {"start", "0"}, {"stop", "1"}}).form, Form::Linspace);
    EXPECT_EQ(chosen("f32", {{"kind", "linspace"}, {"start", "-1"}, {"stop", "n"}}).form, Form::Linspace);
}

TEST(ExportInitialisers, WhatTheWorkbenchRoundsOrGeneratesIsBakedWithItsReason)
{
    const InitialValues normal = chosen("f32", {{"kind", "normal"}, {"seed", 3}});
    EXPECT_EQ(normal.form, Form::Baked);
    EXPECT_NE(normal.reason.find("random"), std::string::npos);
    EXPECT_EQ(chosen("f64", {{"kind", "uniform"}, {"seed", 1}}).form, Form::Baked);
    const InitialValues expr = chosen("f32", {{"kind", "expression"}, {"expr", "i * i"}});
    EXPECT_EQ(expr.form, Form::Baked);
    EXPECT_NE(expr.reason.find("expression"), std::string::npos);
    // Integers the workbench rounds and saturates (0.5 steps, 300 in a u8): baked.
    EXPECT_EQ(chosen("i32", {{"kind", "arange"}, {"start", "0"}, {"step", "0.5"}}).form, Form::Baked);
    EXPECT_EQ(chosen("u8", {{"kind", "fill"}, {"value", "300"}}).form, Form::Baked);
    EXPECT_EQ(chosen("i16", {{"kind", "fill"}, {"value", "2.5"}}).form, Form::Baked);
    // Half floats round as the workbench rounds them.
    const InitialValues half = chosen("f16", {{"kind", "arange"}});
    EXPECT_EQ(half.form, Form::Baked);
    EXPECT_NE(half.reason.find("f16"), std::string::npos);
    EXPECT_EQ(chosen("bf16", {{"kind", "fill"}, {"value", "1"}}).form, Form::Baked);
}

TEST(ExportInitialisers, CopiesAndFilesAreBaked)
{
    nlohmann::json d = {
        {"format", "kernel-workbench"},
        {"version", 1},
        {"source", "__global__ void k(float* p) {}"},
        {"kernel", "k"},
        {"buffers",
         {{{"name", "a"}, {"dtype", "f32"}, {"count", 4}, {"init", {{"kind", "arange"}}}},
          {{"name", "c"}, {"dtype", "f32"}, {"count", 4}, {"init", {{"kind", "copy"}, {"from", "a"}}}}}},
        {"args", {{{"buffer", "a"}}}},
        {"launch", {{"grid", 1}, {"block", 1}}},
        {"checks", {{{"buffer", "a"}, {"expect", "c + a_in * 0"}}}},
    };
    const ExportPlan plan = ExportPlan::make(kw::DocumentReader::readString(d.dump()));
    EXPECT_EQ(plan.buffers()[1].init.form, Form::Baked);
    EXPECT_NE(plan.buffers()[1].init.reason.find("copy of a"), std::string::npos);
    EXPECT_TRUE(plan.checksUseInitialData());
}
