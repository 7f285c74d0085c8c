#include "doc/BufferFactory.hpp"
#include "doc/CheckEvaluator.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/PreparedRun.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <thread>

using namespace kw;

namespace {

HostBuffer filled(DType t, std::size_t n, const std::function<double(std::size_t)>& f)
{
    HostBuffer b(t, n);
    for (std::size_t i = 0; i < n; ++i)
        b.set(i, f(i));
    return b;
}

CheckSpec check(const std::string& buffer, const std::string& expect, double absTol = 1e-6, double relTol = 1e-5)
{
    CheckSpec c;
    c.buffer = buffer;
    c.expect = expect;
    c.absTol = absTol;
    c.relTol = relTol;
    return c;
}

} // namespace

TEST(Checks, PassesWhenOutputMatches)
{
    const HostBuffer a = filled(DType::F32, 400, [](std::size_t i) { return 0.25 * double(i); });
    const HostBuffer b = filled(DType::F32, 400, [](std::size_t i) { return 1.0 - double(i); });
    const HostBuffer c = filled(DType::F32, 400, [&](std::size_t i) { return a.at(i) + b.at(i); });
    VariableScope scope;
    const CheckEvaluator ev(scope, {{"a", &a}, {"b", &b}, {"c", &c}});
    const CheckResult r = ev.evaluate(check("c", "a + b"), "checks[0]");
    EXPECT_TRUE(r.passed);
    EXPECT_EQ(r.checked, 400u);
    EXPECT_EQ(r.mismatches, 0u);
    EXPECT_EQ(r.maxAbsError, 0.0);
    EXPECT_EQ(r.buffer, "c");
    EXPECT_EQ(r.expect, "a + b");
}

TEST(Checks, CountsMismatchesAndKeepsTheFirstTen)
{
    const HostBuffer c
        = filled(DType::F64, 100, [](std::size_t i) { return i % 3 == 0 ? double(i) + 0.5 : double(i); });
    VariableScope scope;
    const CheckEvaluator ev(scope, {{"c", &c}});
    const CheckResult r = ev.evaluate(check("c", "i", 0.1, 0.0), "checks[0]");
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.mismatches, 34u);
    ASSERT_EQ(r.firstMismatches.size(), 10u);
    EXPECT_EQ(r.firstMismatches[0].index, 0u);
    EXPECT_EQ(r.firstMismatches[1].index, 3u);
    EXPECT_EQ(r.firstMismatches[9].index, 27u);
    EXPECT_EQ(r.firstMismatches[1].got, 3.5);
    EXPECT_EQ(r.firstMismatches[1].expected, 3.0);
    EXPECT_DOUBLE_EQ(r.maxAbsError, 0.5);
    EXPECT_DOUBLE_EQ(r.maxRelError, 0.5 / 3.0);
}

TEST(Checks, TolerancesAreAbsolutePlusRelative)
{
    const HostBuffer c = filled(DType::F64, 2, [](std::size_t i) { return i == 0 ? 1000.5 : 0.001; });
    VariableScope scope;
    const CheckEvaluator ev(scope, {{"c", &c}});
    // |1000.5 - 1000| = 0.5 <= 0 + 1e-3 * 1000 passes; |0.001 - 0| <= 0 fails without abs_tol.
    const CheckResult strict = ev.evaluate(check("c", "i == 0 ? 1000 : 0", 0.0, 1e-3), "checks[0]");
    EXPECT_EQ(strict.mismatches, 1u);
    EXPECT_EQ(strict.firstMismatches[0].index, 1u);
    const CheckResult loose = ev.evaluate(check("c", "i == 0 ? 1000 : 0", 0.002, 1e-3), "checks[0]");
    EXPECT_TRUE(loose.passed);
    EXPECT_FALSE(ev.evaluate(check("c", "i == 0 ? 1000 : 0", 0.002, 1e-4), "checks[0]").passed);
}

TEST(Checks, NaNAndInfinity)
{
    const HostBuffer c = filled(DType::F32, 3, [](std::size_t i) {
        return i == 0 ? std::nan("") : i == 1 ? INFINITY : 1.0;
    });
    VariableScope scope;
    const CheckEvaluator ev(scope, {{"c", &c}});
    EXPECT_TRUE(ev.evaluate(check("c", "i == 0 ? sqrt(-1) : (i == 1 ? 1/0 : 1)"), "c").passed);
    const CheckResult r = ev.evaluate(check("c", "1"), "c");
    EXPECT_EQ(r.mismatches, 2u);
}

TEST(Checks, VariablesIndicesFunctionsAndInitialValues)
{
    VariableScope scope = VariableScope::evaluate({{"w", "4"}, {"h", "3"}});
    scope.set("alpha", 2.0);
    const HostBuffer x0 = filled(DType::F32, 12, [](std::size_t i) { return double(i); });
    const HostBuffer y0 = filled(DType::F32, 12, [](std::size_t i) { return 1.0; });
    const HostBuffer y = filled(DType::F32, 12, [&](std::size_t i) { return 2.0 * x0.at(i) + y0.at(i); });
    const HostBuffer grid = filled(DType::I32, 12, [](std::size_t i) { return double(i % 4) * 10 + double(i / 4); });
    // Buffers named x and y shadow the index names.
    const CheckEvaluator ev(scope, {{"x", &x0}, {"y", &y, &y0}, {"grid", &grid, nullptr, {3, 4}}});
    EXPECT_TRUE(ev.evaluate(check("y", "alpha * x + y_in"), "checks[0]").passed);
    EXPECT_TRUE(ev.evaluate(check("y", "2 * x(i) + y_in(i)"), "checks[0]").passed);
    EXPECT_TRUE(ev.evaluate(check("grid", "(i % w) * 10 + floor(i / w)"), "checks[1]").passed);
    EXPECT_TRUE(ev.evaluate(check("y", "i == 11 ? y : y(i + 1) - 2"), "checks[2]").passed);
}

TEST(Checks, XAndYFollowTheShape)
{
    const HostBuffer img = filled(DType::U8, 12, [](std::size_t i) { return double(i % 4) + 10 * double(i / 4); });
    VariableScope scope;
    const CheckEvaluator ev(scope, {{"img", &img, nullptr, {3, 4}}});
    EXPECT_TRUE(ev.evaluate(check("img", "x + 10*y"), "checks[0]").passed);
}

TEST(Checks, ErrorsNameTheCheck)
{
    const HostBuffer a = filled(DType::F32, 4, [](std::size_t i) { return double(i); });
    const HostBuffer small = filled(DType::F32, 2, [](std::size_t) { return 0.0; });
    VariableScope scope;
    const CheckEvaluator ev(scope, {{"a", &a}, {"small", &small}});
    const auto message = [&](const CheckSpec& c) {
        try {
            ev.evaluate(c, "checks[3]");
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(message(check("a", "q")), "checks[3].expect: unknown name \"q\" in \"q\"");
    EXPECT_EQ(message(check("a", "a(i + 1)")), "checks[3].expect: a(4) is outside the buffer (4 elements)");
    EXPECT_NE(message(check("a", "small")).find("buffer \"small\" has 2 elements"), std::string::npos);
    EXPECT_EQ(message(check("zz", "1")), "checks[3].buffer: no buffer named \"zz\"");
}

// Its speed is measured by tests/bench/bench_core.cpp.
TEST(Checks, AMillionElementsAreAllChecked)
{
    const std::size_t n = 1u << 20;
    const HostBuffer a = filled(DType::F32, n, [](std::size_t i) { return double(i % 1000); });
    const HostBuffer b = filled(DType::F32, n, [](std::size_t i) { return 0.5; });
    const HostBuffer c = filled(DType::F32, n, [&](std::size_t i) { return a.at(i) * b.at(i) + 1; });
    VariableScope scope;
    const CheckEvaluator ev(scope, {{"a", &a}, {"b", &b}, {"c", &c}});
    const CheckResult r = ev.evaluate(check("c", "a * b + 1"), "checks[0]");
    EXPECT_TRUE(r.passed);
    EXPECT_EQ(r.checked, n);
    EXPECT_EQ(r.mismatches, 0u);
}

TEST(Checks, DocumentChecksThroughPreparedRun)
{
    const auto docs = std::filesystem::path(KW_TEST_DATA_DIR) / "docs";
    const Document doc = DocumentReader::readFile(docs / "good_template.kwb");
    PreparedRun run = PreparedRun::fromDocument(doc);
    const std::vector<BufferArg> initial = run.buffers;
    // What the kernel does: data[i] *= factor.
    HostBuffer& data = run.buffers[0].data;
    for (std::size_t i = 0; i < data.count(); ++i)
        data.set(i, data.at(i) * 2.5);
    std::vector<CheckResult> results = run.evaluateChecks(doc, &initial);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_TRUE(results[0].passed);
    EXPECT_EQ(results[0].checked, 1024u);
    data.set(7, 0);
    results = run.evaluateChecks(doc, &initial);
    EXPECT_FALSE(results[0].passed);
    ASSERT_EQ(results[0].firstMismatches.size(), 1u);
    EXPECT_EQ(results[0].firstMismatches[0].index, 7u);
    EXPECT_EQ(results[0].firstMismatches[0].expected, 17.5);
}

TEST(Checks, ChecksAndInitialisersStopAtTheTimeLimit)
{
    const HostBuffer c = filled(DType::F32, 5000, [](std::size_t i) { return double(i); });
    VariableScope scope;
    const CheckEvaluator ev(scope, {{"c", &c}});
    const Deadline passed(1e-9);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    for (const CheckSpec& spec : {check("c", "i"), [] {
                                      CheckSpec s = check("c", "12497500");
                                      s.aggregate = "sum";
                                      return s;
                                  }()}) {
        try {
            ev.evaluate(spec, "checks[3]", passed);
            FAIL() << "a check ran past its deadline";
        } catch (const Error& e) {
            EXPECT_EQ(e.category(), ErrorCategory::Limit);
            EXPECT_NE(std::string(e.what()).find("checks[3] did not finish within the time limit"), std::string::npos)
                << e.what();
        }
    }
    // Without one, the same checks pass.
    EXPECT_TRUE(ev.evaluate(check("c", "i"), "checks[0]").passed);

    // A per-element initialiser likewise.
    BufferFactory factory(scope, {}, Trust::Trusted);
    factory.setDeadline(passed);
    BufferSpec spec;
    spec.name = "x";
    spec.count = "100000";
    spec.init.kind = Initialiser::Kind::Expression;
    spec.init.expression = "sin(i) * cos(i)";
    try {
        factory.create(spec, "buffers[0]");
        FAIL() << "an initialiser ran past its deadline";
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Limit);
        EXPECT_NE(std::string(e.what()).find("buffers[0].init.expr did not finish"), std::string::npos) << e.what();
    }
}

TEST(Checks, ADocumentHasAtMostAThousandChecks)
{
    nlohmann::json doc
        = {{"format", "kernel-workbench"},
           {"version", 1},
           {"source", "__global__ void k(int* p) {}\n"},
           {"kernel", "k"},
           {"buffers",
            {{{"name", "p"}, {"dtype", "i32"}, {"count", "4"}, {"init", {{"kind", "zeros"}}}, {"direction", "inout"}}}},
           {"args", {{{"name", "p"}, {"buffer", "p"}}}},
           {"launch", {{"grid", {1, 1, 1}}, {"block", {1, 1, 1}}}}};
    doc["checks"] = nlohmann::json::array();
    for (int c = 0; c < 1001; ++c)
        doc["checks"].push_back({{"buffer", "p"}, {"expect", "0"}});
    try {
        DocumentReader::readString(doc.dump(), {}, Trust::Trusted);
        FAIL() << "1001 checks read";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("at most 1000"), std::string::npos) << e.what();
    }
    doc["checks"].erase(doc["checks"].begin());
    EXPECT_NO_THROW(DocumentReader::readString(doc.dump(), {}, Trust::Trusted));
}

// A kernel parameter or variable may be named i, x, y or z (or like a function): the
// document's name wins in every expression, and _i, _x, _y, _z still give the position.
TEST(Checks, TheDocumentsOwnNamesShadowTheIndexNames)
{
    nlohmann::json doc
        = {{"format", "kernel-workbench"},
           {"version", 1},
           {"source", "__global__ void k(float* out, int i, float x, int sin) { out[threadIdx.x] += i + x + sin; }\n"},
           {"kernel", "k"},
           {"variables",
            nlohmann::json::array({nlohmann::json::array({"n", "6"}), nlohmann::json::array({"x", "0.5"}),
                                   nlohmann::json::array({"sin", "2"})})},
           {"buffers",
            {{{"name", "out"},
              {"dtype", "f32"},
              {"count", "n"},
              {"shape", {2, 3}},
              {"init", {{"kind", "expression"}, {"expr", "_i * 10 + x"}}},
              {"direction", "inout"}}}},
           {"args",
            {{{"name", "out"}, {"buffer", "out"}},
             {{"name", "i"}, {"type", "i32"}, {"value", "7"}},
             {{"name", "x"}, {"type", "f32"}, {"value", "x"}},
             {{"name", "sin"}, {"type", "i32"}, {"value", "sin"}}}},
           {"launch", {{"grid", {1, 1, 1}}, {"block", {"n", 1, 1}}}},
           {"checks",
            {{{"buffer", "out"}, {"expect", "out_in + i + x + sin"}},
             {{"buffer", "out"}, {"expect", "(_y * 3 + _x) * 10 + 0.5 + i + x + sin"}}}}};
    const Document d = DocumentReader::readString(doc.dump(), {}, Trust::Trusted);
    PreparedRun run = PreparedRun::fromDocument(d);
    HostBuffer& out = run.buffers[0].data;
    for (std::size_t k = 0; k < out.count(); ++k)
        EXPECT_EQ(out.at(k), double(k) * 10 + 0.5) << k; // _i, then the variable x
    const std::vector<BufferArg> initial = run.buffers;
    for (std::size_t k = 0; k < out.count(); ++k)
        out.set(k, out.at(k) + 7 + 0.5 + 2); // what the kernel does
    const std::vector<CheckResult> results = run.evaluateChecks(d, &initial);
    ASSERT_EQ(results.size(), 2u);
    EXPECT_TRUE(results[0].passed) << results[0].mismatches;
    EXPECT_TRUE(results[1].passed) << results[1].mismatches;
    out.set(4, 0);
    EXPECT_FALSE(run.evaluateChecks(d, &initial)[1].passed);
}
