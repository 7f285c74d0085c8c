// The source's variables by name (-G, the debugger's default build): the reduction
// sample's partial sums for all 32 lanes at two steps of the tree, against the host's
// reduction; nested scopes with a shadowed name; a call of a device function stepped
// into and finished; a condition on a source name; a variable with no place here.
#include "DebugTestSupport.hpp"
#include "compile/Compiler.hpp"
#include "debug/DapVariables.hpp"
#include "debug/DebugConsole.hpp"
#include "debug/DebugSession.hpp"
#include "debug/LaneExpression.hpp"
#include "doc/DocumentReader.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <set>

using namespace kw;
using namespace kw::debug;
using kwtest::contains;

namespace {

const std::string kReduction = std::string(KW_SAMPLES_DIR) + "/reduction_shared.kwb";

// Lines: weigh's w2 at 5; the kernel's outer v at 17, the loop's v at 19, the call at 20.
const char* kScopes = R"(__device__ float weigh(float x, int k)
{
    float w = x * k;
    if (k > 2) {
        float w2 = w + 1.0f;
        w = w2 * 0.5f;
    }
    return w;
}

__global__ void scopes(const float *in, float *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    bool inside = t < n;
    double acc = 0.0;
    unsigned int count = 0;
    int v = t * 2;
    for (int k = 0; k < 4; ++k) {
        int v = t + k;
        acc += weigh(in[v % n], k);
        ++count;
    }
    if (inside)
        out[t] = float(acc) + float(v) + float(count);
}
)";

std::unique_ptr<DebugSession> session(const Document& doc, bool optimized = false)
{
    Compiler compiler;
    DebugOptions o;
    o.optimized = optimized;
    return DebugSession::fromDocument(doc, compiler, o);
}

// A kernel (in, out, n) over one block of 64 threads, `in` counting up from 0.
Document inOutDocument(const char* source, const char* kernel, const char* dtype)
{
    nlohmann::json j = {{"format", "kernel-workbench"},
                        {"version", 1},
                        {"source", source},
                        {"kernel", kernel},
                        {"variables", nlohmann::json::array({nlohmann::json::array({"n", "64"})})},
                        {"buffers",
                         {{{"name", "in"},
                           {"dtype", dtype},
                           {"count", "n"},
                           {"init", {{"kind", "arange"}, {"start", "0"}, {"step", "1"}}},
                           {"direction", "in"}},
                          {{"name", "out"}, {"dtype", dtype}, {"count", "n"}, {"direction", "out"}}}},
                        {"args",
                         {{{"name", "in"}, {"buffer", "in"}},
                          {{"name", "out"}, {"buffer", "out"}},
                          {{"name", "n"}, {"type", "i32"}, {"value", "n"}}}},
                        {"launch", {{"grid", {1, 1, 1}}, {"block", {"n", 1, 1}}}}};
    return DocumentReader::readString(j.dump());
}

Document scopesDocument() { return inOutDocument(kScopes, "scopes", "f32"); }

const SourceVariableView* variable(const std::vector<SourceVariableView>& vars, const std::string& name)
{
    for (const auto& v : vars)
        if (v.name == name)
            return &v;
    return nullptr;
}

BreakpointSpec at(std::uint32_t line, std::string condition = {})
{
    BreakpointSpec b;
    b.line = line;
    b.condition = std::move(condition);
    return b;
}

} // namespace

TEST(SourceVariables, ReductionPartialSumsByNameForAllLanes)
{
    KW_REQUIRE_NVRTC();
    const Document doc = DocumentReader::readFile(kReduction, Trust::Trusted);
    auto s = session(doc);
    ASSERT_TRUE(s->hasSourceVariables()) << s->variablesMode();
    const auto line = std::uint32_t(kwtest::lineOf(doc.source, "partial[tid] += partial[tid + stride];"));
    std::vector<double> host(256);
    for (int t = 0; t < 256; ++t)
        host[std::size_t(t)] = t; // block 0 holds 0..255
    for (const std::uint32_t stride : {128u, 64u}) {
        // The first warp to reach the addition at this step of the tree.
        const BreakpointInfo b = s->addBreakpoint(at(line, fmt::format("stride == {}", stride)));
        const Stop stop = s->resume(Motion::Continue);
        ASSERT_EQ(stop.reason, StopReason::Breakpoint) << stop.message;
        ASSERT_EQ(stop.warp, 0u);
        const auto tid = s->lanes("tid");
        const auto strides = s->lanes("stride");
        const auto mine = s->lanes("partial(tid)");
        const auto theirs = s->lanes("partial(tid + stride)");
        for (std::uint32_t t = 0; t < 32; ++t) {
            EXPECT_EQ(tid[t].number, t);
            EXPECT_EQ(strides[t].number, stride);
            EXPECT_EQ(mine[t].number, host[t]) << "stride " << stride << " lane " << t;
            EXPECT_EQ(theirs[t].number, host[t + stride]) << "stride " << stride << " lane " << t;
        }
        // One line on, the warp's sums are stored.
        s->removeBreakpoint(b.id);
        s->resume(Motion::Step);
        const auto sums = s->lanes("partial(tid)");
        for (std::uint32_t t = 0; t < 32; ++t)
            EXPECT_EQ(sums[t].number, host[t] + host[t + stride]) << "stride " << stride << " lane " << t;
        for (std::uint32_t t = 0; t < stride; ++t)
            host[t] += host[t + stride];
    }
    // The table of `lanes` alone: each variable with its type, then its lanes.
    DebugConsole c(*s);
    const std::string table = c.execute("lanes");
    EXPECT_TRUE(contains(table, "stride      unsigned int\n")) << table;
    EXPECT_TRUE(contains(table, "in          const float *\n")) << table;
    EXPECT_TRUE(contains(c.execute("print stride"), "stride = 64  (block 0 warp 0 lane 0)"))
        << c.execute("print stride");
}

TEST(SourceVariables, OptimizedBuildKeepsRegistersOnly)
{
    KW_REQUIRE_NVRTC();
    auto s = session(DocumentReader::readFile(kReduction, Trust::Trusted), true);
    EXPECT_FALSE(s->hasSourceVariables());
    EXPECT_TRUE(contains(s->variablesMode(), "PTX registers")) << s->variablesMode();
    DebugConsole c(*s);
    EXPECT_TRUE(contains(c.execute("lanes"), "error: lanes EXPR... (no source variables")) << c.execute("lanes");
    EXPECT_TRUE(contains(c.execute("print stride"), "error: ")) << c.execute("print stride");
    EXPECT_TRUE(contains(c.execute("print %tid.x"), "%tid.x = 0"));
}

TEST(SourceVariables, InnermostNameWinsAndTheOuterIsQualified)
{
    KW_REQUIRE_NVRTC();
    auto s = session(scopesDocument());
    s->addBreakpoint(at(20));
    ASSERT_EQ(s->resume(Motion::Continue).reason, StopReason::Breakpoint);
    const auto vars = s->locals();
    const SourceVariableView* inner = variable(vars, "v");
    const SourceVariableView* outer = variable(vars, "v@17");
    const SourceVariableView* k = variable(vars, "k");
    ASSERT_TRUE(inner && outer && k);
    EXPECT_EQ(inner->line, 19u);
    EXPECT_EQ(inner->type, "int");
    for (std::uint32_t t = 0; t < 32; ++t) {
        EXPECT_EQ(k->lanes[t].number, 0);
        EXPECT_EQ(inner->lanes[t].number, t);     // t + k
        EXPECT_EQ(outer->lanes[t].number, 2 * t); // t * 2
    }
    EXPECT_EQ(s->lanes("v@17 - v")[5].number, 5);
    // Parameters first.
    ASSERT_GE(vars.size(), 3u);
    EXPECT_EQ(vars[0].name, "in");
    EXPECT_TRUE(vars[0].parameter);
    EXPECT_EQ(variable(vars, "acc")->type, "double");
    EXPECT_EQ(variable(vars, "count")->type, "unsigned int");
    // `inside` has no place in NVRTC's -G code: said, never a value.
    const SourceVariableView* inside = variable(vars, "inside");
    ASSERT_NE(inside, nullptr);
    EXPECT_FALSE(inside->available);
    EXPECT_EQ(inside->why, "not available here");
    EXPECT_EQ(inside->lanes[0].text, "not available here");
    DebugConsole c(*s);
    EXPECT_TRUE(contains(c.execute("print inside"), "error: inside: not available here")) << c.execute("print inside");
    EXPECT_TRUE(contains(c.execute("print v@18"), "error: no variable v@18 here"));
    // w2 lives in weigh's inner block only: not a name here.
    EXPECT_TRUE(contains(c.execute("print w2"), "error: "));
}

TEST(SourceVariables, StepIntoADeviceFunctionAndFinish)
{
    KW_REQUIRE_NVRTC();
    auto s = session(scopesDocument());
    s->addBreakpoint(at(20));
    ASSERT_EQ(s->resume(Motion::Continue).reason, StopReason::Breakpoint);
    s->removeBreakpoint(1);
    // Into weigh(in[v % n], k): its own frame, its own parameters.
    for (int i = 0; i < 10 && s->backtrace().size() < 2; ++i)
        s->resume(Motion::Step);
    const auto frames = s->backtrace();
    ASSERT_EQ(frames.size(), 2u) << s->warp().where.function;
    EXPECT_TRUE(contains(frames[0].function, "weigh")) << frames[0].function;
    EXPECT_EQ(frames[1].where.line, 20u);
    // At the function's first instruction its prologue has not loaded x yet.
    const auto entry = s->locals();
    const SourceVariableView* early = variable(entry, "x");
    ASSERT_NE(early, nullptr);
    EXPECT_FALSE(early->available);
    EXPECT_TRUE(contains(early->why, "not available here")) << early->why;
    s->resume(Motion::Step); // to line 3
    const auto x = s->lanes("x");
    const auto k = s->lanes("k");
    for (std::uint32_t t = 0; t < 32; ++t) {
        EXPECT_EQ(x[t].number, double(t)); // in[t + 0]
        EXPECT_EQ(k[t].number, 0);
    }
    const auto vars = s->locals();
    EXPECT_NE(variable(vars, "x"), nullptr);
    EXPECT_NE(variable(vars, "w"), nullptr);
    EXPECT_EQ(variable(vars, "v"), nullptr) << "the caller's names are not the callee's";
    // Out again: the kernel's frame, its names back.
    s->resume(Motion::Finish);
    EXPECT_EQ(s->backtrace().size(), 1u);
    EXPECT_EQ(s->lanes("v")[3].number, 3);
}

TEST(SourceVariables, ConditionOnASourceName)
{
    KW_REQUIRE_NVRTC();
    auto s = session(scopesDocument());
    s->addBreakpoint(at(21, "v == 37"));
    const Stop stop = s->resume(Motion::Continue);
    ASSERT_EQ(stop.reason, StopReason::Breakpoint) << stop.message;
    // v = t + k: thread 37 with k = 0 comes first (warp 1 lane 5).
    EXPECT_EQ(stop.warp, 1u);
    EXPECT_EQ(s->focus().lane, 5u);
    EXPECT_EQ(s->evaluate("v").number, 37);
    EXPECT_EQ(s->evaluate("k").number, 0);
    // A condition on a name with no place at the line is refused when it is set.
    EXPECT_THROW(s->addBreakpoint(at(21, "inside")), kw::Error);
}

namespace {

// A loop whose variables NVRTC's -G code moves between registers (their location lists);
// `limit` is a __device__ scalar in global memory (never written: 0).
const char* kLoop = R"(__device__ int limit;

__global__ void loop(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int sum = 0;
    for (int k = 0; k < 4; ++k) {
        sum += in[t] * k; // loop
    }
    out[t] = sum + limit;
}
)";

Document loopDocument() { return inOutDocument(kLoop, "loop", "i32"); }

struct Hit {
    std::uint64_t position = 0;
    std::uint32_t warp = 0;
    int lane = -1;
    double k = 0, sum = 0;
    int firstByValues = -1; // the first active lane whose sum and k, read after the stop, satisfy it
    bool operator==(const Hit&) const = default;
};

// Every stop of a breakpoint at `line` with `condition`, to the launch's end.
std::vector<Hit> hits(std::uint32_t line, const std::string& condition)
{
    auto s = session(loopDocument());
    s->addBreakpoint(at(line, condition));
    std::vector<Hit> out;
    for (Stop stop = s->resume(Motion::Continue); stop.reason == StopReason::Breakpoint;
         stop = s->resume(Motion::Continue)) {
        const auto sums = s->lanes("sum"), ks = s->lanes("k");
        const std::uint32_t active = s->warp().active;
        int first = -1;
        for (int l = 0; l < 32 && first < 0; ++l)
            if ((active >> l & 1) && sums[l].number > 20 && ks[l].number >= 2)
                first = l;
        out.push_back({stop.position, stop.warp, stop.lane, s->evaluate("k").number, s->evaluate("sum").number, first});
    }
    return out;
}

} // namespace

TEST(SourceVariables, AConditionOnSourceNamesIsCompiledWithTheirPlacesAtEachPc)
{
    KW_REQUIRE_NVRTC();
    auto s = session(loopDocument());
    ASSERT_TRUE(s->hasSourceVariables()) << s->variablesMode();
    const SourceVariables& vars = *s->sourceVariables();
    const sim::Function& fn = s->function();
    const auto line = std::uint32_t(kwtest::lineOf(kLoop, "// loop"));
    // The loop's variables change registers along the code: the case a condition must
    // resolve at its own pc, not once for the line or the function.
    std::set<std::uint32_t> sumRegisters;
    std::vector<std::uint32_t> linePcs;
    for (std::uint32_t pc = 0; pc < fn.code.size(); ++pc) {
        if (const auto v = vars.find("sum", pc); v && v->where == VisibleVariable::Where::Register)
            sumRegisters.insert(v->reg);
        if (fn.code[pc].line == line)
            linePcs.push_back(pc);
    }
    EXPECT_GT(sumRegisters.size(), 1u) << "sum stays in one register: the location list is not exercised";
    ASSERT_FALSE(linePcs.empty());
    for (const std::uint32_t pc : linePcs) {
        for (const char* fast : {"sum > 20 && k >= 2", "k == 3 || limit != 0 || lane < 0"}) {
            if (!vars.find("sum", pc) || vars.find("sum", pc)->where == VisibleVariable::Where::Nowhere)
                continue;
            try {
                EXPECT_TRUE(LaneExpression(fast, fn, pc, s->buffers(), &vars).compiled()) << fast << " at pc " << pc;
            } catch (const kw::Error& e) {
                EXPECT_TRUE(contains(e.what(), "not available here") || contains(e.what(), "no variable"))
                    << fast << " at pc " << pc << ": " << e.what();
            }
        }
        // Arithmetic, a buffer's element: lane by lane.
        if (vars.find("sum", pc) && vars.find("sum", pc)->where == VisibleVariable::Where::Register) {
            EXPECT_FALSE(LaneExpression("(sum + 0) > 20", fn, pc, s->buffers(), &vars).compiled());
            EXPECT_FALSE(LaneExpression("in(t) > 20", fn, pc, s->buffers(), &vars).compiled());
        }
    }
}

TEST(SourceVariables, ACompiledConditionOnALoopLineStopsWhereTheGeneralOneDoes)
{
    KW_REQUIRE_NVRTC();
    const auto line = std::uint32_t(kwtest::lineOf(kLoop, "// loop"));
    // sum before the line's pass k: t * (0 + ... + k-1); `(x + 0)` is not compiled.
    const std::vector<Hit> compiled = hits(line, "sum > 20 && k >= 2 && limit == 0");
    const std::vector<Hit> general = hits(line, "(sum + 0) > 20 && (k + 0) >= 2 && (limit + 0) == 0");
    EXPECT_EQ(compiled, general);
    std::set<std::pair<std::uint32_t, double>> passes;
    for (const Hit& h : compiled) {
        EXPECT_EQ(h.lane, h.firstByValues) << "warp " << h.warp << " k " << h.k;
        const double t = 32 * h.warp + std::uint32_t(h.lane);
        EXPECT_EQ(h.sum, t * h.k * (h.k - 1) / 2) << "warp " << h.warp << " lane " << h.lane << " k " << h.k;
        passes.insert({h.warp, h.k});
    }
    // Pass 2 stops warp 0 at lane 21 (sum 21) and warp 1 at lane 0 (32); pass 3 at lanes 7 and 0.
    EXPECT_EQ(passes, (std::set<std::pair<std::uint32_t, double>>{{0, 2}, {0, 3}, {1, 2}, {1, 3}}));
}

TEST(SourceVariables, AnOuterNameHiddenByAnInnerOneIsCompiledToo)
{
    KW_REQUIRE_NVRTC();
    // At line 21 the loop's v (t + k) hides the kernel's v@17 (t * 2): both conditions
    // first hold for thread 8 at k = 0, the first by muparser, the second compiled.
    for (const char* condition : {"v@17 > v + 7", "v@17 > 15 && v < v@17 && k == 0"}) {
        auto s = session(scopesDocument());
        s->addBreakpoint(at(21, condition));
        const Stop stop = s->resume(Motion::Continue);
        ASSERT_EQ(stop.reason, StopReason::Breakpoint) << condition << ": " << stop.message;
        EXPECT_EQ(stop.warp, 0u) << condition;
        EXPECT_EQ(stop.lane, 8) << condition;
    }
    auto s = session(scopesDocument());
    s->addBreakpoint(at(21));
    s->resume(Motion::Continue);
    const std::uint32_t pc = s->warp().where.pc;
    EXPECT_TRUE(LaneExpression("v@17 > 16 && v < 3", s->function(), pc, s->buffers(), s->sourceVariables()).compiled());
}

// reverse-stepi through -G code (into weigh and out again): at each instruction on the way
// back, the source's variables in scope and every lane's value are those seen there forwards.
TEST(SourceVariables, ReverseStepiShowsTheLocalsSeenForwards)
{
    KW_REQUIRE_NVRTC();
    auto s = session(scopesDocument());
    s->addBreakpoint(at(20));
    ASSERT_EQ(s->resume(Motion::Continue).reason, StopReason::Breakpoint);
    s->removeBreakpoint(1);
    auto seen = [&] {
        std::string out = fmt::format("pc {} |", s->warp().where.pc);
        for (const SourceVariableView& v : s->locals()) {
            out += " " + v.name + "=";
            for (const LaneValue& l : v.lanes)
                out += l.text + ",";
        }
        return out;
    };
    std::vector<std::pair<std::uint64_t, std::string>> forward{{s->position(), seen()}};
    bool entered = false;
    for (int i = 0; i < 60; ++i) {
        ASSERT_EQ(s->resume(Motion::StepInstruction).reason, StopReason::Step);
        entered = entered || s->backtrace().size() > 1;
        forward.emplace_back(s->position(), seen());
    }
    EXPECT_TRUE(entered) << "the instructions stepped include weigh's";
    for (std::size_t i = forward.size() - 1; i-- > 0;) {
        const Stop back = s->resume(Motion::ReverseStepInstruction);
        EXPECT_EQ(back.position, forward[i].first) << i;
        EXPECT_EQ(seen(), forward[i].second) << i;
    }
}

namespace {

const char* kStructs = R"(struct P { float x; int n; };
struct Pair { P first; P second; };
__global__ void structs(P q, float *out)
{
    P p;
    p.x = 1.5f + threadIdx.x;
    p.n = 3;
    Pair two;
    two.first = p;
    two.second = q;
    float a[4];
    for (int i = 0; i < 4; ++i)
        a[i] = p.x * i + q.x;
    out[threadIdx.x] = a[threadIdx.x % 4] + p.n + q.n + two.second.x; // use
}
)";

// A -G session of kStructs with q = {0.25, 7}, one warp, stopped at the line using them all.
std::unique_ptr<DebugSession> structSession()
{
    std::string log;
    auto img = kwtest::compileCuda(kStructs, "structs", log, false, {"-G"});
    if (!img) {
        ADD_FAILURE() << log;
        return nullptr;
    }
    struct {
        float x;
        int n;
    } q{0.25f, 7};
    LaunchArg byValue;
    byValue.bytes.resize(sizeof q);
    std::memcpy(byValue.bytes.data(), &q, sizeof q);
    auto s = std::make_unique<DebugSession>(*img, std::vector<BufferArg>{kwtest::typed("out", std::vector<float>(32))},
                                            std::vector<LaunchArg>{byValue, kwtest::bufArg(0)},
                                            kwtest::config({1, 1, 1}, {32, 1, 1}), kStructs, "kernel.cu");
    s->addBreakpoint(at(std::uint32_t(kwtest::lineOf(kStructs, "// use"))));
    EXPECT_EQ(s->resume(Motion::Continue).reason, StopReason::Breakpoint);
    return s;
}

} // namespace

// A struct local, a struct parameter passed by value, a struct of structs and an array of
// fixed size: each member by name (p.x), the whole as its members ({x = 1.5, n = 3}), a
// table row per member and element, and conditions on members.
TEST(SourceVariables, StructMembersAndFixedArrays)
{
    KW_REQUIRE_NVRTC();
    auto s = structSession();
    ASSERT_TRUE(s && s->hasSourceVariables()) << (s ? s->variablesMode() : "");
    const auto px = s->lanes("p.x");
    const auto pn = s->lanes("p.n");
    const auto qn = s->lanes("q.n");
    const auto deep = s->lanes("two.second.x");
    for (std::uint32_t t = 0; t < 32; ++t) {
        EXPECT_EQ(px[t].number, 1.5 + t) << t;
        EXPECT_EQ(pn[t].number, 3) << t;
        EXPECT_EQ(qn[t].number, 7) << t;
        EXPECT_EQ(deep[t].number, 0.25) << t;
    }
    EXPECT_EQ(s->lanes("p.x * 2 + q.n")[4].number, 2 * 5.5 + 7);
    EXPECT_EQ(s->evaluate("p").text, "{x = 1.5, n = 3}");
    EXPECT_EQ(s->evaluate("q").text, "{x = 0.25, n = 7}");
    EXPECT_EQ(s->evaluate("two").text, "{first = {x = 1.5, n = 3}, second = {x = 0.25, n = 7}}");
    EXPECT_EQ(s->evaluate("a").text, "{0.25, 1.75, 3.25, 4.75}");
    EXPECT_EQ(s->lanes("a(3)")[2].number, 3.5 * 3 + 0.25);
    s->focusLane(2);
    EXPECT_EQ(s->evaluate("p").text, "{x = 3.5, n = 3}");
    DebugConsole c(*s);
    EXPECT_TRUE(contains(c.execute("print p"), "p = {x = 3.5, n = 3}  (block 0 warp 0 lane 2)"))
        << c.execute("print p");
    EXPECT_TRUE(contains(c.execute("print p.y"), "error: ")) << c.execute("print p.y");
    EXPECT_TRUE(contains(c.execute("print p + 1"), "error: ")) << c.execute("print p + 1");
    // The table: one row per member and element, each with its 32 lanes.
    const auto rows = flattened(s->locals());
    auto row = [&](const std::string& name) {
        const auto it = std::find_if(rows.begin(), rows.end(), [&](const auto& v) { return v.name == name; });
        return it == rows.end() ? nullptr : &*it;
    };
    for (const char* name :
         {"p", "p.x", "p.n", "q", "q.x", "q.n", "two", "two.first", "two.first.x", "two.second.n", "a", "a(0)", "a(3)"})
        EXPECT_NE(row(name), nullptr) << name;
    ASSERT_TRUE(row("p.x") && row("a(1)") && row("q.n"));
    EXPECT_EQ(row("p.x")->type, "float");
    EXPECT_TRUE(row("p.x")->scalar);
    EXPECT_EQ(row("a(1)")->type, "float");
    EXPECT_EQ(row("p.x")->lanes[9].number, 10.5);
    EXPECT_EQ(row("a(1)")->lanes[9].number, 10.5 + 0.25);
    EXPECT_EQ(row("q.n")->lanes[31].text, "7");
    EXPECT_EQ(row("p")->lanes[1].text, "{x = 2.5, n = 3}");
    EXPECT_TRUE(contains(c.execute("lanes"), "p.x")) << c.execute("lanes");
    // Over the Debug Adapter Protocol: a struct and an array expand to their members and
    // elements (variablesReference), each a variable of the focused lane.
    DapVariables dap(*s);
    const nlohmann::json locals = dap.variables(dap.scopes()[0]["variablesReference"].get<int>(), 0, 0);
    auto named = [](const nlohmann::json& vars, const std::string& name) {
        for (const auto& v : vars)
            if (v["name"] == name)
                return v;
        return nlohmann::json();
    };
    const nlohmann::json p = named(locals, "p");
    ASSERT_FALSE(p.is_null()) << locals.dump();
    EXPECT_EQ(p["value"], "{x = 3.5, n = 3}");
    ASSERT_GT(p["variablesReference"].get<int>(), 0);
    const nlohmann::json members = dap.variables(p["variablesReference"].get<int>(), 0, 0);
    ASSERT_EQ(members.size(), 2u) << members.dump();
    EXPECT_EQ(members[0]["name"], "x");
    EXPECT_EQ(members[0]["value"], "3.5");
    EXPECT_EQ(members[0]["evaluateName"], "p.x");
    EXPECT_EQ(members[1]["name"], "n");
    EXPECT_EQ(members[1]["value"], "3");
    const nlohmann::json two = named(locals, "two");
    const nlohmann::json halves = dap.variables(two["variablesReference"].get<int>(), 0, 0);
    const nlohmann::json second = named(halves, "second");
    ASSERT_GT(second["variablesReference"].get<int>(), 0) << halves.dump();
    EXPECT_EQ(named(dap.variables(second["variablesReference"].get<int>(), 0, 0), "n")["value"], "7");
    const nlohmann::json a = named(locals, "a");
    const nlohmann::json elements = dap.variables(a["variablesReference"].get<int>(), 0, 0);
    ASSERT_EQ(elements.size(), 4u) << elements.dump();
    EXPECT_EQ(elements[3]["name"], "[3]");
    EXPECT_EQ(elements[3]["value"], fmt::format("{}", 3.5f * 3 + 0.25f));
    EXPECT_EQ(elements[3]["evaluateName"], "a(3)");
    // A condition on a member, compiled or evaluated lane by lane, picks the lane it names.
    auto again = structSession();
    ASSERT_TRUE(again);
    again->removeBreakpoint(1);
    again->goTo(0);
    again->addBreakpoint(at(std::uint32_t(kwtest::lineOf(kStructs, "// use")), "p.x > 10 && q.n == 7"));
    const Stop hit = again->resume(Motion::Continue);
    ASSERT_EQ(hit.reason, StopReason::Breakpoint) << hit.message;
    EXPECT_EQ(hit.lane, 9);
}

// A bit-field's bits are not read: the struct says so in its place, never a number.
TEST(SourceVariables, ABitFieldIsSaidNotRead)
{
    KW_REQUIRE_NVRTC();
    const char* source = R"(struct B { int x; unsigned flags : 3; };
__global__ void bits(float *out)
{
    B b;
    b.x = threadIdx.x;
    b.flags = 5;
    out[threadIdx.x] = b.x + b.flags; // use
}
)";
    std::string log;
    auto img = kwtest::compileCuda(source, "bits", log, false, {"-G"});
    ASSERT_TRUE(img) << log;
    DebugSession s(*img, {kwtest::typed("out", std::vector<float>(32))}, {kwtest::bufArg(0)},
                   kwtest::config({1, 1, 1}, {32, 1, 1}), source, "kernel.cu");
    s.addBreakpoint(at(std::uint32_t(kwtest::lineOf(source, "// use"))));
    ASSERT_EQ(s.resume(Motion::Continue).reason, StopReason::Breakpoint);
    s.focusLane(6);
    EXPECT_EQ(s.evaluate("b.x").number, 6);
    EXPECT_EQ(s.evaluate("b").text, "{x = 6, flags = (unsigned int : 3 bit-field, not read)}");
    EXPECT_THROW(s.evaluate("b.flags"), kw::Error);
}
