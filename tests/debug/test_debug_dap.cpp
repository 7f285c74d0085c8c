// The Debug Adapter Protocol server: the framing on any split and on headers it cannot
// read; a client's recorded requests on samples/reduction_shared.kwb
// (tests/data/dap/reduction_shared_session.json) replayed through DapServer in this
// process and through a real `kwb-run debug --dap`, with the lanes' values against the
// host's reduction; conditions, hit counts, data breakpoints and the Debug Console's
// commands; malformed input answered with errors or a clean end, never a crash or a hang;
// pause interrupting a running continue, the kernel's printf as output events, breakpoints
// from the Debug Console told to the editor, packaging/vscode's manifest, the launch
// configuration docs/debugger.md gives for VS Code, and response bodies as the protocol's
// schema defines them (scripts/dap-vscode-check.sh checks every message against it).
#include "DebugTestSupport.hpp"
#include "debug/DapCommand.hpp"
#include "debug/DapFraming.hpp"
#include "debug/DapServer.hpp"
#include "doc/DocumentReader.hpp"
#include "gpu/ChildProcess.hpp"
#include "run/ExitCode.hpp"
#include "util/Text.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <thread>
#include <unistd.h>

namespace {

using namespace kwtest;
using namespace kw::debug;
using json = nlohmann::json;

const std::string kSample = std::string(KW_SAMPLES_DIR) + "/reduction_shared.kwb";
const std::string kRecorded = std::string(KW_TEST_DATA_DIR) + "/dap/reduction_shared_session.json";

std::string sampleSource() { return kw::DocumentReader::readFile(kSample, kw::Trust::Trusted).source; }
int addLine() { return lineOf(sampleSource(), "partial[tid] += partial[tid + stride];"); }

std::string framed(const std::string& body) { return fmt::format("Content-Length: {}\r\n\r\n{}", body.size(), body); }
std::string framed(const json& m) { return framed(m.dump()); }

// One request in, the messages that answer it out (its response, events before and after).
class Transport {
public:
    virtual ~Transport() = default;
    virtual std::vector<json> send(const json& request) = 0;
};

class InProcess : public Transport {
public:
    std::vector<json> send(const json& request) override
    {
        out_.clear();
        server_.handleBody(request.dump());
        return std::exchange(out_, {});
    }
    DapServer& server() { return server_; }

private:
    std::vector<json> out_;
    DapServer server_{[this](const json& m) { out_.push_back(m); }};
};

// `kwb-run debug --dap`, its output read by the protocol's rule here (not by DapFraming,
// which is under test): a "Content-Length: N" line, an empty line, N bytes.
class OverPipes : public Transport {
public:
    explicit OverPipes(std::vector<std::string> args = {"debug", "--dap"})
        : child_(args)
    {
    }
    std::vector<json> send(const json& request) override
    {
        child_.write(framed(request));
        std::vector<json> out;
        for (;;) {
            json m = readFrame();
            out.push_back(m);
            if (m.value("type", "") == "response" && m.value("request_seq", -1) == request.value("seq", -2))
                return out;
        }
    }
    json readFrame()
    {
        const auto header = child_.readLine(std::chrono::seconds(120));
        if (!header)
            throw std::runtime_error("kwb-run debug --dap ended; stderr: " + child_.readStderr());
        EXPECT_TRUE(header->starts_with("Content-Length: ") && header->ends_with("\r")) << *header;
        const std::size_t n = std::stoul(header->substr(16));
        EXPECT_EQ(child_.readLine().value_or("?"), "\r");
        const auto body = child_.readBytes(n);
        return json::parse(std::string(body.begin(), body.end()));
    }
    ChildProcess& child() { return child_; }

private:
    ChildProcess child_;
};

struct Exchange {
    json request, response;
    std::vector<json> events;
    std::vector<json> children; // "$expand": the variables of each variable answered
};

const json* findEvent(const Exchange& x, const std::string& name)
{
    for (const json& e : x.events)
        if (e["event"] == name)
            return &e;
    return nullptr;
}

// The messages of one request: its response, the events after it, and those before it
// (which belong to the request before: a pipe delivers them only now).
void assign(std::vector<Exchange>& done, Exchange& current, const std::vector<json>& messages)
{
    bool answered = false;
    for (const json& m : messages) {
        if (m["type"] == "response" && m["request_seq"] == current.request["seq"]) {
            current.response = m;
            answered = true;
        } else if (m["type"] == "event")
            (answered || done.empty() ? current : done.back()).events.push_back(m);
        else
            ADD_FAILURE() << "an unexpected message: " << m.dump();
    }
}

// Replays the recorded requests, resolving what only the answers can say.
std::vector<Exchange> replay(Transport& t)
{
    std::ifstream in(kRecorded);
    const json recorded = json::parse(in);
    std::vector<Exchange> done;
    int seq = 0;
    for (const json& r : recorded["requests"]) {
        std::string text = r.value("arguments", json::object()).dump();
        for (std::size_t at; (at = text.find("${samples}")) != std::string::npos;)
            text.replace(at, 10, KW_SAMPLES_DIR);
        json args = json::parse(text);
        for (auto& [key, value] : args.items()) {
            if (!value.is_string())
                continue;
            const std::string v = value;
            if (v == "$frame") {
                const auto trace = std::find_if(done.rbegin(), done.rend(),
                                                [](const Exchange& x) { return x.request["command"] == "stackTrace"; });
                value = trace->response["body"]["stackFrames"][0]["id"];
            } else if (v.starts_with("$scope:")) {
                const std::string name = v.substr(7);
                const auto scopes = std::find_if(done.rbegin(), done.rend(),
                                                 [](const Exchange& x) { return x.request["command"] == "scopes"; });
                for (const json& s : scopes->response["body"]["scopes"])
                    if (s["name"] == name || s["name"].get<std::string>().starts_with(name + " "))
                        value = s["variablesReference"];
            }
        }
        Exchange x;
        x.request = {{"seq", ++seq}, {"type", "request"}, {"command", r["command"]}, {"arguments", args}};
        assign(done, x, t.send(x.request));
        if (r.value("$expand", false))
            for (const json& v : x.response["body"]["variables"])
                if (v["variablesReference"].get<int>() > 0) {
                    const json ask = {{"seq", ++seq},
                                      {"type", "request"},
                                      {"command", "variables"},
                                      {"arguments", {{"variablesReference", v["variablesReference"]}}}};
                    Exchange child;
                    child.request = ask;
                    assign(done, child, t.send(ask));
                    json answer = child.response;
                    answer["name"] = v["name"];
                    x.children.push_back(answer);
                }
        done.push_back(std::move(x));
    }
    return done;
}

const Exchange& nth(const std::vector<Exchange>& xs, const std::string& command, int k = 0)
{
    for (const Exchange& x : xs)
        if (x.request["command"] == command && k-- == 0)
            return x;
    throw std::runtime_error("no " + command + " request");
}

int frameLine(const Exchange& trace) { return trace.response["body"]["stackFrames"][0]["line"].get<int>(); }

// A scope by its name, or by the name's first word ("Lane" for "Lane 8 (thread 40)"):
// clients find them so, and their order is not part of the protocol.
json scopeNamed(const json& scopesResponse, const std::string& name)
{
    const json& scopes = scopesResponse.contains("body") ? scopesResponse["body"]["scopes"] : scopesResponse;
    for (const json& s : scopes)
        if (s["name"] == name || s["name"].get<std::string>().starts_with(name + " "))
            return s;
    ADD_FAILURE() << "no scope " << name << " in " << scopes.dump();
    return json::object({{"name", ""}, {"variablesReference", 0}});
}

const json* variableNamed(const json& variablesResponse, const std::string& name)
{
    for (const json& v : variablesResponse["body"]["variables"])
        if (v["name"] == name)
            return &v;
    return nullptr;
}

// The values of a variable's 32 lanes ("lane t" -> its number).
std::vector<double> laneNumbers(const json& answer)
{
    std::vector<double> out;
    for (const json& v : answer["body"]["variables"])
        out.push_back(std::stod(v["value"].get<std::string>()));
    return out;
}

// What the recorded session must mean, however it travelled.
void checkRecordedSession(const std::vector<Exchange>& xs)
{
    const int line = addLine();
    int lastSeq = 0;
    for (const Exchange& x : xs) {
        EXPECT_TRUE(x.response["success"].get<bool>()) << x.request.dump() << " -> " << x.response.dump();
        EXPECT_GT(x.response["seq"].get<int>(), lastSeq);
        lastSeq = x.response["seq"].get<int>();
    }
    const json& caps = nth(xs, "initialize").response["body"];
    for (const char* c : {"supportsConditionalBreakpoints", "supportsHitConditionalBreakpoints", "supportsStepBack",
                          "supportsDataBreakpoints", "supportsConfigurationDoneRequest", "supportsEvaluateForHovers",
                          "supportsSteppingGranularity", "supportsTerminateRequest"})
        EXPECT_TRUE(caps.value(c, false)) << c;
    EXPECT_NE(findEvent(nth(xs, "launch"), "initialized"), nullptr);

    // The breakpoint where the lines have code, the one past the end refused.
    const json& bps = nth(xs, "setBreakpoints").response["body"]["breakpoints"];
    ASSERT_EQ(bps.size(), 2u);
    EXPECT_TRUE(bps[0]["verified"].get<bool>());
    EXPECT_EQ(bps[0]["line"], line);
    EXPECT_FALSE(bps[1]["verified"].get<bool>());
    EXPECT_TRUE(contains(bps[1].value("message", ""), "no code at line 400")) << bps[1].dump();

    const json* entry = findEvent(nth(xs, "configurationDone"), "stopped");
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ((*entry)["body"]["reason"], "entry");

    const json* hit = findEvent(nth(xs, "continue"), "stopped");
    ASSERT_NE(hit, nullptr);
    EXPECT_EQ((*hit)["body"]["reason"], "breakpoint");
    EXPECT_EQ((*hit)["body"]["threadId"], 1);
    EXPECT_EQ((*hit)["body"]["hitBreakpointIds"], json::array({bps[0]["id"]}));
    EXPECT_TRUE(contains((*hit)["body"]["description"], "hit by lane 0")) << (*hit).dump();

    const json& threads = nth(xs, "threads").response["body"]["threads"];
    ASSERT_EQ(threads.size(), 8u); // 256 threads
    for (std::size_t w = 0; w < threads.size(); ++w) {
        EXPECT_EQ(threads[w]["id"], w + 1);
        EXPECT_EQ(threads[w]["name"], fmt::format("block 0 warp {}", w));
    }

    // The stopped line, in the document's inline source, which the client reads by reference.
    const Exchange& trace = nth(xs, "stackTrace");
    EXPECT_EQ(frameLine(trace), line);
    EXPECT_EQ(trace.response["body"]["stackFrames"][0]["source"]["sourceReference"], 1);
    EXPECT_EQ(nth(xs, "source").response["body"]["content"], sampleSource());

    // The scopes by name: the source's variables (-G, the default build) first, then the
    // lane's indices, its PTX registers (labelled so), all lanes, shared memory, buffers.
    const json& scopes = nth(xs, "scopes").response["body"]["scopes"];
    std::vector<std::string> names;
    for (const json& s : scopes)
        names.push_back(s["name"]);
    EXPECT_EQ(names,
              (std::vector<std::string>{"Locals", "Lane 0 (thread 0)", "PTX registers", "Lanes", "Shared memory",
                                        "Buffers"}));
    EXPECT_EQ(scopeNamed(scopes, "Locals")["presentationHint"], "locals");
    EXPECT_EQ(scopeNamed(scopes, "PTX registers")["presentationHint"], "registers");
    EXPECT_EQ(scopeNamed(scopes, "Shared memory")["indexedVariables"], 256);
    bool sawThread = false;
    for (const json& v : nth(xs, "variables").response["body"]["variables"])
        if (v["name"] == "threadIdx.x") {
            EXPECT_EQ(v["value"], "0");
            sawThread = true;
        }
    EXPECT_TRUE(sawThread);

    // `next`: warp 0 has added its pairs and stands at the barrier's line.
    const json* step = findEvent(nth(xs, "next"), "stopped");
    ASSERT_NE(step, nullptr);
    EXPECT_EQ((*step)["body"]["reason"], "step");
    EXPECT_EQ(frameLine(nth(xs, "stackTrace", 1)), line + 1);

    // Block 0 holds 0..255: in the first step lane t adds t and t + 128. Some register
    // holds each of the three columns in every lane.
    const Exchange& lanes = nth(xs, "variables", 1);
    bool loaded = false, partner = false, sum = false;
    ASSERT_FALSE(lanes.children.empty());
    for (const json& child : lanes.children) {
        const std::string name = child["name"];
        const std::vector<double> v = laneNumbers(child);
        ASSERT_EQ(v.size(), 32u) << name;
        bool isT = name != "threadIdx.x", isPartner = true, isSum = true;
        for (std::size_t t = 0; t < 32; ++t) {
            isT &= v[t] == double(t);
            isPartner &= v[t] == double(t + 128);
            isSum &= v[t] == double(2 * t + 128);
        }
        loaded |= isT && name.starts_with("%f");
        partner |= isPartner && name.starts_with("%f");
        sum |= isSum && name.starts_with("%f");
    }
    EXPECT_TRUE(loaded && partner && sum) << "no float register holding t, t + 128 and 2t + 128 in every lane";

    // What warp 0 stored: partial[t] = 2t + 128, as f32 and as its bits.
    const json& words = nth(xs, "variables", 2).response["body"]["variables"];
    ASSERT_EQ(words.size(), 32u);
    for (std::size_t t = 0; t < 32; ++t) {
        const float expected = float(2 * t + 128);
        std::uint32_t bits = 0;
        std::memcpy(&bits, &expected, 4);
        EXPECT_EQ(words[t]["name"], fmt::format("byte {} · bank {}", 4 * t, t));
        EXPECT_EQ(words[t]["value"], fmt::format("f32 {} · 0x{:08x}", expected, bits));
    }

    // Locals at the barrier after the first step, by name with their types, in lane 0 and
    // expanded to all 32 lanes: tid = t, stride = 128; the array says how it is read.
    const Exchange& locals = nth(xs, "variables", 3);
    const json* tid = variableNamed(locals.response, "tid");
    const json* stride = variableNamed(locals.response, "stride");
    const json* partial = variableNamed(locals.response, "partial");
    ASSERT_TRUE(tid && stride) << locals.response.dump();
    EXPECT_EQ((*tid)["value"], "0");
    EXPECT_EQ((*tid)["type"], "unsigned int");
    EXPECT_EQ((*tid)["evaluateName"], "tid");
    EXPECT_EQ((*stride)["value"], "128");
    EXPECT_TRUE(variableNamed(locals.response, "in") != nullptr) << "parameters are locals too";
    if (partial) // a module variable, listed where the compiler places it in the kernel's scope
        EXPECT_EQ((*partial)["variablesReference"], 0);
    bool sawTid = false, sawStride = false;
    for (const json& child : locals.children) {
        const std::vector<double> v = laneNumbers(child);
        ASSERT_EQ(v.size(), 32u) << child["name"];
        for (std::size_t t = 0; t < 32; ++t) {
            if (child["name"] == "tid")
                EXPECT_EQ(v[t], double(t));
            if (child["name"] == "stride")
                EXPECT_EQ(v[t], 128);
        }
        sawTid |= child["name"] == "tid";
        sawStride |= child["name"] == "stride";
    }
    EXPECT_TRUE(sawTid && sawStride);
    // The PTX registers of lane 0, each named as PTX names it and expandable to its lanes.
    const json& registers = nth(xs, "variables", 4).response["body"]["variables"];
    ASSERT_FALSE(registers.empty());
    for (const json& r : registers) {
        EXPECT_TRUE(r["name"].get<std::string>().starts_with("%")) << r.dump();
        EXPECT_GT(r["variablesReference"].get<int>(), 0) << r.dump();
    }

    // The Debug Console: the command language's 32-lane table; an expression for the lane.
    const std::string table = nth(xs, "evaluate").response["body"]["result"];
    EXPECT_TRUE(table.starts_with("lane  tid")) << table;
    EXPECT_TRUE(contains(table, "\n 31 # 31")) << table;
    const json& watch = nth(xs, "evaluate", 1).response["body"];
    EXPECT_EQ(watch["result"], "1");
    EXPECT_GT(watch["variablesReference"].get<int>(), 0);

    // Back to the breakpoint's hit, then a line further back.
    const json* back = findEvent(nth(xs, "reverseContinue"), "stopped");
    ASSERT_NE(back, nullptr);
    EXPECT_EQ((*back)["body"]["reason"], "breakpoint");
    EXPECT_EQ(frameLine(nth(xs, "stackTrace", 2)), line);
    ASSERT_NE(findEvent(nth(xs, "stepBack"), "stopped"), nullptr);
    EXPECT_LT(frameLine(nth(xs, "stackTrace", 3)), line);
    EXPECT_NE(findEvent(nth(xs, "terminate"), "terminated"), nullptr);
}

TEST(DapFraming, ReadsMessagesHoweverTheBytesArrive)
{
    const std::string a = R"({"seq":1,"type":"request","command":"initialize"})";
    const std::string b = R"({"seq":2,"command":"threads","x":"é"})";
    const std::string stream = framed(a) + "Content-Type: application/vscode-jsonrpc; charset=utf-8\nContent-Length: "
        + std::to_string(b.size()) + "\n\n" + b;
    for (std::size_t piece : {std::size_t(1), std::size_t(3), std::size_t(7), stream.size()}) {
        DapFraming f;
        std::vector<std::string> bodies;
        for (std::size_t i = 0; i < stream.size(); i += piece) {
            f.feed(std::string_view(stream).substr(i, piece));
            while (auto body = f.next())
                bodies.push_back(*body);
        }
        EXPECT_EQ(bodies, (std::vector<std::string>{a, b})) << "pieces of " << piece;
        EXPECT_TRUE(f.broken().empty());
        EXPECT_FALSE(f.midFrame());
    }
    // A body is asked for whole, and never past its end.
    DapFraming f;
    f.feed("Content-Length: 10\r\n\r\n");
    EXPECT_EQ(f.wanted(), 10u);
    f.feed("0123");
    EXPECT_EQ(f.wanted(), 6u);
    EXPECT_TRUE(f.midFrame());
    // What it writes, it reads.
    const json m = {{"seq", 3}, {"body", {{"text", "lane 0\n"}}}};
    f = DapFraming();
    f.feed(DapFraming::frame(m));
    EXPECT_EQ(json::parse(f.next().value()), m);
}

TEST(DapFraming, AHeaderItCannotReadBreaksTheStream)
{
    const std::pair<std::string, std::string> cases[] = {
        {"Content-Length: abc\r\n\r\n{}", "not a number"},
        {"Content-Length: -5\r\n\r\n{}", "not a number"},
        {"Content-Length: 99999999999999999999999\r\n\r\n", "over the limit"},
        {"Content-Length: 1000000000\r\n\r\n", "over the limit"},
        {"Content-Length:\r\n\r\n", "without a value"},
        {"Content-Type: text/plain\r\n\r\n{}", "without Content-Length"},
        {"\r\n{}", "without Content-Length"},
        {"{\"seq\":1}\r\n\r\n", "without Content-Length"},
        {"garbage\r\n\r\n", "without a colon"},
        {"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "two different"},
        {std::string(100000, 'A'), "longer than 4096 bytes"},
    };
    for (const auto& [bytes, why] : cases) {
        DapFraming f;
        f.feed(bytes);
        EXPECT_FALSE(f.next()) << bytes.substr(0, 40);
        EXPECT_TRUE(contains(f.broken(), why)) << bytes.substr(0, 40) << ": " << f.broken();
        f.feed(framed(std::string("{}"))); // nothing more is read
        EXPECT_FALSE(f.next());
    }
}

TEST(DapServer, AnswersWhatItCannotServeWithErrorResponses)
{
    std::vector<json> out;
    DapServer server([&](const json& m) { out.push_back(m); });
    auto lastError = [&]() -> std::string {
        EXPECT_EQ(out.size(), 1u);
        const json r = out.empty() ? json::object() : out.back();
        out.clear();
        EXPECT_EQ(r.value("type", ""), "response");
        EXPECT_FALSE(r.value("success", true));
        return r.value("message", "");
    };
    server.handleBody("not json {");
    EXPECT_TRUE(contains(lastError(), "not JSON"));
    server.handleBody("[1, 2]");
    EXPECT_TRUE(contains(lastError(), "not a JSON object"));
    server.handleBody(R"({"seq": 4, "type": "request"})");
    EXPECT_TRUE(contains(lastError(), "not a request"));
    server.handleBody(R"({"seq": 5, "type": "request", "command": "frobnicate"})");
    EXPECT_EQ(out.at(0)["request_seq"], 5);
    EXPECT_TRUE(contains(lastError(), "unknown command \"frobnicate\""));
    server.handleBody(R"({"seq": 6, "type": "request", "command": "stackTrace", "arguments": {"threadId": 1}})");
    EXPECT_TRUE(contains(lastError(), "no launch yet"));
    server.handleBody(R"({"seq": 7, "type": "request", "command": "launch", "arguments": {}})");
    EXPECT_TRUE(contains(lastError(), "no document"));
    server.handleBody(
        R"({"seq": 8, "type": "request", "command": "launch", "arguments": {"program": "/nonexistent/x.kwb"}})");
    lastError();
    server.handleBody(R"({"seq": 9, "type": "request", "command": "launch", "arguments": {"program": 7}})");
    EXPECT_TRUE(contains(lastError(), "program"));
    // A seq that is no number (found by fuzz_dap: the answer itself threw): answered, as 0.
    server.handleBody(R"({"seq": "lanes %f4", "command": "initialize"})");
    EXPECT_EQ(out.at(0)["request_seq"], 0);
    EXPECT_TRUE(contains(lastError(), "not a request"));
    // A client's response or event asks nothing.
    server.handleBody(R"({"seq": 10, "type": "response", "request_seq": 1, "success": true})");
    EXPECT_TRUE(out.empty());
    server.handleBody(R"({"seq": 11, "type": "request", "command": "disconnect"})");
    EXPECT_TRUE(out.at(0)["success"].get<bool>());
    EXPECT_TRUE(server.done());
}

TEST(DapServer, TheRecordedSessionInProcess)
{
    KW_REQUIRE_NVRTC();
    InProcess t;
    checkRecordedSession(replay(t));
    EXPECT_TRUE(t.server().done());
}

TEST(DapServer, TheRecordedSessionThroughKwbRunDebugDap)
{
    KW_REQUIRE_NVRTC();
    OverPipes t;
    checkRecordedSession(replay(t));
    t.child().closeStdin();
    EXPECT_EQ(t.child().readAllStdout(), ""); // nothing after the disconnect's response
    EXPECT_EQ(t.child().wait(), 0) << t.child().readStderr();
}

// The launch with the document on the command line and breakpoints as VS Code sets them.
std::vector<json> start(Transport& t, const json& breakpoints, const json& launch = {{"stopOnEntry", true}})
{
    t.send({{"seq", 1}, {"type", "request"}, {"command", "initialize"}, {"arguments", json::object()}});
    json args = launch;
    args["program"] = kSample;
    args["trust"] = true;
    const auto l = t.send({{"seq", 2}, {"type", "request"}, {"command", "launch"}, {"arguments", args}});
    EXPECT_TRUE(l.at(0)["success"].get<bool>()) << l.at(0).dump();
    const auto b = t.send({{"seq", 3},
                           {"type", "request"},
                           {"command", "setBreakpoints"},
                           {"arguments", {{"source", {{"name", "kernel.cu"}}}, {"breakpoints", breakpoints}}}});
    return b;
}

json request(Transport& t, int seq, const std::string& command, const json& args, json* stoppedEvent = nullptr)
{
    const auto out = t.send({{"seq", seq}, {"type", "request"}, {"command", command}, {"arguments", args}});
    json response;
    for (const json& m : out) {
        if (m["type"] == "response")
            response = m;
        else if (stoppedEvent && m["event"] == "stopped")
            *stoppedEvent = m["body"];
    }
    return response;
}

TEST(DapServer, ConditionsAndHitCountsChooseTheStop)
{
    KW_REQUIRE_NVRTC();
    const int line = addLine();
    {
        // Thread 40 is warp 1's lane 8: the stop names warp 1 as the thread, lane 8 in its words.
        InProcess t;
        const auto b = start(t, json::array({{{"line", line}, {"condition", "threadIdx.x == 40"}}}));
        EXPECT_TRUE(b.at(0)["body"]["breakpoints"][0]["verified"].get<bool>()) << b.at(0).dump();
        json stopped;
        request(t, 4, "configurationDone", {}, &stopped);
        EXPECT_EQ(stopped["reason"], "entry");
        request(t, 5, "continue", {{"threadId", 1}}, &stopped);
        EXPECT_EQ(stopped["reason"], "breakpoint");
        EXPECT_EQ(stopped["threadId"], 2);
        EXPECT_TRUE(contains(stopped["description"], "hit by lane 8")) << stopped.dump();
        const json scopes = request(t, 6, "scopes", {{"frameId", 1 + (1 << 8)}});
        EXPECT_EQ(scopeNamed(scopes, "Lane")["name"], "Lane 8 (thread 40)");
    }
    {
        // A hit count of 3: the first two warps to arrive go by.
        InProcess t;
        start(t, json::array({{{"line", line}, {"hitCondition", "3"}}}), json::object());
        json stopped;
        request(t, 4, "configurationDone", {}, &stopped);
        EXPECT_EQ(stopped["reason"], "breakpoint");
        EXPECT_EQ(stopped["threadId"], 3) << stopped.dump();
        // A hit condition it cannot count by is refused where it stands.
        const json r = request(
            t, 5, "setBreakpoints",
            {{"source", {{"name", "kernel.cu"}}}, {"breakpoints", {{{"line", line}, {"hitCondition", "%2"}}}}});
        EXPECT_FALSE(r["body"]["breakpoints"][0]["verified"].get<bool>());
        EXPECT_TRUE(contains(r["body"]["breakpoints"][0]["message"], "hit condition")) << r.dump();
    }
}

TEST(DapServer, DataBreakpointsWatchBufferElementsAndSharedWords)
{
    KW_REQUIRE_NVRTC();
    InProcess t;
    start(t, json::array());
    json stopped;
    request(t, 4, "configurationDone", {}, &stopped);
    const json info = request(t, 5, "dataBreakpointInfo", {{"name", "block_sums(1)"}});
    ASSERT_TRUE(info["body"]["dataId"].is_string()) << info.dump();
    EXPECT_EQ(info["body"]["description"], "block_sums(1)");
    // A shared word, from the Shared memory scope's variables.
    request(t, 6, "stackTrace", {{"threadId", 1}});
    const json scopes = request(t, 7, "scopes", {{"frameId", 1}});
    const int shared = scopeNamed(scopes, "Shared memory")["variablesReference"];
    const json words = request(t, 8, "variables", {{"variablesReference", shared}, {"start", 2}, {"count", 1}});
    EXPECT_EQ(words["body"]["variables"][0]["name"], "byte 8 · bank 2");
    const json wordInfo
        = request(t, 9, "dataBreakpointInfo", {{"variablesReference", shared}, {"name", "byte 8 · bank 2"}});
    ASSERT_TRUE(wordInfo["body"]["dataId"].is_string()) << wordInfo.dump();
    EXPECT_TRUE(request(t, 10, "dataBreakpointInfo", {{"name", "threadIdx.x"}})["body"]["dataId"].is_null());

    const json set = request(t, 11, "setDataBreakpoints",
                             {{"breakpoints",
                               {{{"dataId", info["body"]["dataId"]}, {"accessType", "write"}},
                                {{"dataId", wordInfo["body"]["dataId"]}, {"accessType", "readWrite"}}}}});
    const json& bps = set["body"]["breakpoints"];
    ASSERT_EQ(bps.size(), 2u);
    EXPECT_TRUE(bps[0]["verified"].get<bool>());
    EXPECT_FALSE(bps[1]["verified"].get<bool>());
    // Block 1 sums 256..511: 256 * 256 + 255 * 256 / 2.
    request(t, 12, "continue", {{"threadId", 1}}, &stopped);
    EXPECT_EQ(stopped["reason"], "data breakpoint");
    EXPECT_EQ(stopped["hitBreakpointIds"], json::array({bps[0]["id"]}));
    EXPECT_TRUE(contains(stopped["description"], "written by block 1 warp 0 lane 0")) << stopped.dump();
    EXPECT_TRUE(contains(stopped["description"], fmt::format("new {}", 256 * 256 + 255 * 256 / 2))) << stopped.dump();
    // The element as the Buffers scope shows it now.
    const json s2 = request(t, 13, "scopes", {{"frameId", 1}});
    const json buffers
        = request(t, 14, "variables", {{"variablesReference", scopeNamed(s2, "Buffers")["variablesReference"]}});
    const json& sums = buffers["body"]["variables"][1];
    EXPECT_EQ(sums["name"], "block_sums");
    EXPECT_EQ(sums["indexedVariables"], 256);
    const json element
        = request(t, 15, "variables", {{"variablesReference", sums["variablesReference"]}, {"start", 1}, {"count", 1}});
    EXPECT_EQ(element["body"]["variables"][0]["name"], "[1]");
    EXPECT_EQ(element["body"]["variables"][0]["value"], "98176");
    EXPECT_EQ(element["body"]["variables"][0]["evaluateName"], "block_sums(1)");
}

TEST(DapServer, TheDebugConsoleTakesTheCommandLanguage)
{
    KW_REQUIRE_NVRTC();
    InProcess t;
    start(t, json::array());
    request(t, 4, "configurationDone", {});
    json stopped;
    const json block = request(t, 5, "evaluate", {{"expression", "block 2"}, {"context", "repl"}}, &stopped);
    EXPECT_TRUE(block["success"].get<bool>()) << block.dump();
    EXPECT_TRUE(contains(block["body"]["result"], "block 2 warp 0")) << block.dump();
    EXPECT_FALSE(stopped.is_null()) << "a motion from the console is shown as a stop";
    EXPECT_EQ(request(t, 6, "threads", {})["body"]["threads"][3]["name"], "block 2 warp 3");
    const json lane = request(t, 7, "evaluate", {{"expression", "thread 37"}, {"context", "repl"}});
    EXPECT_EQ(lane["body"]["result"], "block 2 warp 1 lane 5 (thread 37)");
    const json print = request(t, 8, "evaluate", {{"expression", "threadIdx.x + blockIdx.x"}, {"context", "hover"}});
    EXPECT_EQ(print["body"]["result"], "39");
    const json table = request(t, 9, "evaluate", {{"expression", "lanes blockIdx.x"}, {"context", "repl"}});
    EXPECT_TRUE(contains(table["body"]["result"], "\n  5 # 37")) << table.dump();
    for (const char* refused : {"quit", "nonsense + 1", "break 9999"}) {
        const json r = request(t, 10, "evaluate", {{"expression", refused}, {"context", "repl"}});
        EXPECT_FALSE(r["success"].get<bool>()) << refused;
    }
    const json pause = request(t, 11, "pause", {{"threadId", 1}}, &stopped);
    EXPECT_TRUE(pause["success"].get<bool>());
    EXPECT_EQ(stopped["reason"], "pause");
}

// A breakpoint placed from the Debug Console is told to the client (reason `new`, in the
// kernel's source by reference), its hits name it, and `delete` takes it back (`removed`);
// the file's next setBreakpoints replaces it like the editor's own.
TEST(DapServer, BreakpointsFromTheConsoleReachTheEditor)
{
    KW_REQUIRE_NVRTC();
    const int line = addLine();
    InProcess t;
    start(t, json::array());
    request(t, 4, "configurationDone", {});
    const auto placed = t.send({{"seq", 5},
                                {"type", "request"},
                                {"command", "evaluate"},
                                {"arguments", {{"expression", fmt::format("break {}", line)}, {"context", "repl"}}}});
    json added;
    for (const json& m : placed)
        if (m["type"] == "event" && m["event"] == "breakpoint")
            added = m["body"];
    ASSERT_FALSE(added.is_null()) << json(placed).dump();
    EXPECT_EQ(added["reason"], "new");
    EXPECT_TRUE(added["breakpoint"]["verified"].get<bool>());
    EXPECT_EQ(added["breakpoint"]["line"], line);
    EXPECT_EQ(added["breakpoint"]["source"]["sourceReference"], 1);
    const int id = added["breakpoint"]["id"];

    json stopped;
    request(t, 6, "continue", {{"threadId", 1}}, &stopped);
    EXPECT_EQ(stopped["reason"], "breakpoint");
    EXPECT_EQ(stopped["hitBreakpointIds"], json::array({id}));

    json removed;
    for (const json& m : t.send({{"seq", 7},
                                 {"type", "request"},
                                 {"command", "evaluate"},
                                 {"arguments", {{"expression", "delete 1"}, {"context", "repl"}}}}))
        if (m["type"] == "event" && m["event"] == "breakpoint")
            removed = m["body"];
    EXPECT_EQ(removed["reason"], "removed") << removed.dump();
    EXPECT_EQ(removed["breakpoint"]["id"], id);
    EXPECT_EQ(request(t, 8, "evaluate", {{"expression", "info breakpoints"}, {"context", "repl"}})["body"]["result"],
              "no breakpoints");

    // Placed again from the console, then the editor sends the file's list (with it): one breakpoint.
    request(t, 9, "evaluate", {{"expression", fmt::format("break {}", line)}, {"context", "repl"}});
    request(t, 10, "setBreakpoints",
            {{"source", {{"name", "kernel.cu"}, {"sourceReference", 1}}}, {"breakpoints", {{{"line", line}}}}});
    const std::string listed
        = request(t, 11, "evaluate", {{"expression", "info breakpoints"}, {"context", "repl"}})["body"]["result"];
    EXPECT_EQ(std::count(listed.begin(), listed.end(), '\n'), 0) << listed;
}

// The kernel's printf reaches the client as `output` events (category stdout), each line
// tagged with its block and thread as the printf view tags them; a line is sent once,
// also when the launch goes back and runs past it again.
TEST(DapServer, PrintfIsSentAsOutputEvents)
{
    KW_REQUIRE_NVRTC();
    InProcess t;
    t.send({{"seq", 1}, {"type", "request"}, {"command", "initialize"}, {"arguments", json::object()}});
    t.send({{"seq", 2},
            {"type", "request"},
            {"command", "launch"},
            {"arguments", {{"program", std::string(KW_SAMPLES_DIR) + "/hello_from_gpu.kwb"}, {"trust", true}}}});
    request(t, 3, "setBreakpoints", {{"source", {{"name", "kernel.cu"}}}, {"breakpoints", {{{"line", 3}}}}});
    std::vector<std::string> lines;
    auto collect = [&](int seq, const std::string& command, const json& args) {
        json stopped;
        for (const json& m : t.send({{"seq", seq}, {"type", "request"}, {"command", command}, {"arguments", args}})) {
            if (m["type"] == "event" && m["event"] == "output" && m["body"]["category"] == "stdout") {
                const std::string text = m["body"]["output"];
                for (std::string_view l : kw::splitLines(text))
                    if (!l.empty())
                        lines.emplace_back(l);
            }
            if (m["type"] == "event" && m["event"] == "stopped")
                stopped = m["body"];
        }
        return stopped;
    };
    // The line is the kernel's first: warp 0 stands on it at the launch's start and runs
    // on, warp 1 arrives after warp 0 has printed.
    const json first = collect(4, "configurationDone", {});
    EXPECT_EQ(first["reason"], "breakpoint");
    EXPECT_EQ(first["threadId"], 2);
    ASSERT_EQ(lines.size(), 32u);
    // Thread 31 of the 3 x 4 x 5 block is x 1, y 2, z 2.
    EXPECT_EQ(lines[31], "block (0, 0, 0) thread (1, 2, 2): Hello World from the GPU!");
    collect(6, "reverseContinue", {{"threadId", 1}}); // back before warp 0 printed
    EXPECT_EQ(collect(7, "continue", {{"threadId", 1}})["reason"], "breakpoint");
    EXPECT_EQ(lines.size(), 32u) << "sent again after going back";
    request(t, 8, "setBreakpoints", {{"source", {{"name", "kernel.cu"}}}, {"breakpoints", json::array()}});
    EXPECT_EQ(collect(9, "continue", {{"threadId", 1}})["reason"], "finished");
    ASSERT_EQ(lines.size(), 60u);
    std::set<std::string> distinct(lines.begin(), lines.end());
    EXPECT_EQ(distinct.size(), 60u);
    for (unsigned t3 = 0; t3 < 60; ++t3)
        EXPECT_TRUE(distinct.contains(
            fmt::format("block (0, 0, 0) thread ({}, {}, {}): Hello World from the GPU!", t3 % 3, t3 / 3 % 4, t3 / 12)))
            << t3;
}

// A document whose kernel runs for minutes on the simulator: one thread counting.
std::string longDocument()
{
    const std::string path
        = (std::filesystem::temp_directory_path() / fmt::format("kwb-dap-long-{}.kwb", static_cast<long>(::getpid())))
              .string();
    const json doc = {
        {"format", "kernel-workbench"},
        {"version", 1},
        {"source",
         "__global__ void spin(int *out, int n)\n{\n    int s = 0;\n    for (int i = 0; i < n; ++i)\n"
         "        s = s * 3 + i;\n    out[0] = s;\n}\n"},
        {"kernel", "spin"},
        {"buffers",
         {{{"name", "out"}, {"dtype", "i32"}, {"count", "1"}, {"init", {{"kind", "zeros"}}}, {"direction", "out"}}}},
        {"args", {{{"name", "out"}, {"buffer", "out"}}, {{"name", "n"}, {"type", "i32"}, {"value", "2000000000"}}}},
        {"launch", {{"grid", {1, 1, 1}}, {"block", {1, 1, 1}}, {"shared_bytes", "0"}}},
        {"run", {{"warmup", 0}, {"repeats", 0}, {"time_limit_s", 600}}},
    };
    std::ofstream(path) << doc.dump(2);
    return path;
}

// `pause` interrupts a `continue` under way in `kwb-run debug --dap`: the launch stops
// within moments with a `stopped` event of reason `pause`, at the loop, and goes on from there.
TEST(DapServer, PauseInterruptsARunningContinue)
{
    KW_REQUIRE_NVRTC();
    const std::string doc = longDocument();
    OverPipes t;
    t.send({{"seq", 1}, {"type", "request"}, {"command", "initialize"}, {"arguments", json::object()}});
    const auto launched
        = t.send({{"seq", 2}, {"type", "request"}, {"command", "launch"}, {"arguments", {{"program", doc}}}});
    ASSERT_TRUE(launched.back()["success"].get<bool>()) << launched.back().dump();
    std::uint64_t position = 0;
    for (int round = 0; round < 2; ++round) {
        const int seq = 3 + 3 * round;
        // Answered at once: the motion runs after its response.
        const auto answered = t.send(
            round == 0
                ? json{{"seq", seq}, {"type", "request"}, {"command", "configurationDone"}}
                : json{{"seq", seq}, {"type", "request"}, {"command", "continue"}, {"arguments", {{"threadId", 1}}}});
        for (const json& m : answered)
            EXPECT_NE(m.value("event", ""), "stopped") << m.dump();
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        const auto t0 = std::chrono::steady_clock::now();
        const auto paused
            = t.send({{"seq", seq + 1}, {"type", "request"}, {"command", "pause"}, {"arguments", {{"threadId", 1}}}});
        EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
        int stops = 0;
        for (const json& m : paused)
            if (m.value("event", "") == "stopped") {
                ++stops;
                EXPECT_EQ(m["body"]["reason"], "pause") << m.dump();
            }
        EXPECT_EQ(stops, 1) << json(paused).dump();
        EXPECT_TRUE(paused.back()["success"].get<bool>());
        const auto trace = t.send({{"seq", seq + 2},
                                   {"type", "request"},
                                   {"command", "evaluate"},
                                   {"arguments", {{"expression", "where"}, {"context", "repl"}}}});
        const std::string where = trace.back()["body"]["result"];
        EXPECT_TRUE(contains(where, "paused")) << where;
        const std::uint64_t now = std::stoull(where.substr(1, where.find(']') - 1));
        EXPECT_GT(now, position) << "the second continue went on from the pause";
        position = now;
    }
    t.child().write(framed(json{{"seq", 99}, {"type", "request"}, {"command", "disconnect"}}));
    t.readFrame();
    t.child().closeStdin();
    EXPECT_EQ(t.child().wait(), 0);
    std::filesystem::remove(doc);
}

// One thread calls a device function that loops `n` times: a `next` over the call runs long.
constexpr int kChurnIterations = 1200000;

std::string churnDocument() { return kwtest::churnDocument("kwb-dap-churn", kChurnIterations); }

// `next` over a call whose loop runs long, in `kwb-run debug --dap`: `pause` stops it
// promptly (reason pause, inside the loop, its variables readable); `next` again goes on
// with the same `next`, paused as often as asked, and it arrives at the line after the
// call with the value an uninterrupted run computes.
TEST(DapServer, PauseInterruptsANextOverALongLoop)
{
    KW_REQUIRE_NVRTC();
    const std::string doc = churnDocument();
    OverPipes t;
    t.send({{"seq", 1}, {"type", "request"}, {"command", "initialize"}, {"arguments", json::object()}});
    ASSERT_TRUE(t.send({{"seq", 2},
                        {"type", "request"},
                        {"command", "launch"},
                        {"arguments", {{"program", doc}, {"trust", true}}}})
                    .back()["success"]
                    .get<bool>());
    t.send({{"seq", 3},
            {"type", "request"},
            {"command", "setBreakpoints"},
            {"arguments", {{"source", {{"name", "kernel.cu"}}}, {"breakpoints", json::array({{{"line", 9}}})}}}});
    t.send({{"seq", 4}, {"type", "request"}, {"command", "configurationDone"}});
    auto nextStopped = [&] {
        for (;;) {
            const json m = t.readFrame();
            if (m.value("event", "") == "stopped")
                return m["body"];
        }
    };
    EXPECT_EQ(nextStopped()["reason"], "breakpoint");
    // To the call's line, the breakpoint gone.
    t.send({{"seq", 5}, {"type", "request"}, {"command", "next"}, {"arguments", {{"threadId", 1}}}});
    EXPECT_EQ(nextStopped()["reason"], "step");
    t.send({{"seq", 6},
            {"type", "request"},
            {"command", "setBreakpoints"},
            {"arguments", {{"source", {{"name", "kernel.cu"}}}, {"breakpoints", json::array()}}}});
    int seq = 7;
    int pauses = 0;
    json arrived;
    for (;;) {
        const auto answered
            = t.send({{"seq", seq++}, {"type", "request"}, {"command", "next"}, {"arguments", {{"threadId", 1}}}});
        std::optional<json> early;
        for (const json& m : answered)
            if (m.value("event", "") == "stopped")
                early = m["body"];
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        const auto t0 = std::chrono::steady_clock::now();
        const auto paused
            = t.send({{"seq", seq++}, {"type", "request"}, {"command", "pause"}, {"arguments", {{"threadId", 1}}}});
        EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5)) << "the pause was not prompt";
        std::vector<json> stops;
        for (const json& m : paused)
            if (m.value("event", "") == "stopped")
                stops.push_back(m["body"]);
        if (early)
            stops.insert(stops.begin(), *early);
        ASSERT_FALSE(stops.empty());
        if (stops.front()["reason"] != "pause") { // the `next` arrived first: the pause repeats its stop
            arrived = stops.front();
            break;
        }
        ++pauses;
        // Inside churn's loop, its variables readable.
        const json frames = request(t, seq++, "stackTrace", {{"threadId", 1}})["body"]["stackFrames"];
        EXPECT_TRUE(contains(frames[0]["name"].get<std::string>(), "churn")) << frames.dump();
        const json scopes = request(t, seq++, "scopes", {{"frameId", frames[0]["id"]}})["body"];
        const json locals = scopes["scopes"][0];
        const json vars = request(t, seq++, "variables", {{"variablesReference", locals["variablesReference"]}});
        EXPECT_NE(variableNamed(vars, "i"), nullptr) << vars.dump();
        ASSERT_LT(pauses, 100);
    }
    EXPECT_GE(pauses, 1) << "the next ended before the first pause: lengthen the loop";
    EXPECT_EQ(arrived["reason"], "step") << arrived.dump();
    std::uint32_t host = 1;
    for (std::uint32_t i = 0; i < std::uint32_t(kChurnIterations); ++i)
        host = host * 3 + i;
    const json value = request(t, seq++, "evaluate", {{"expression", "s"}, {"context", "watch"}});
    EXPECT_EQ(value["body"]["result"], std::to_string(std::int32_t(host))) << value.dump();
    const json frames = request(t, seq++, "stackTrace", {{"threadId", 1}})["body"]["stackFrames"];
    EXPECT_EQ(frames[0]["line"], 11) << frames.dump();
    t.child().write(framed(json{{"seq", 999}, {"type", "request"}, {"command", "disconnect"}}));
    t.readFrame();
    t.child().closeStdin();
    EXPECT_EQ(t.child().wait(), 0);
    std::filesystem::remove(doc);
}

// packaging/vscode's manifest against VS Code's debugger-extension guide and against what
// the adapter reads: activated as debugging begins (no configuration provider is
// registered, so the provider-bound events would not fire for it), a license that lies
// in the package, and every launch attribute it declares taken by a real launch.
TEST(VsCodeExtension, TheManifestDescribesWhatTheAdapterReads)
{
    KW_REQUIRE_NVRTC();
    const std::string folder = std::string(KW_SAMPLES_DIR) + "/../packaging/vscode";
    const json manifest = json::parse(std::ifstream(folder + "/package.json"));
    std::ifstream js(folder + "/extension.js");
    const std::string extension((std::istreambuf_iterator<char>(js)), std::istreambuf_iterator<char>());
    EXPECT_FALSE(contains(manifest.value("license", ""), "..")) << "the license names a file outside the package";
    const bool providesConfigurations = contains(extension, "registerDebugConfigurationProvider");
    std::set<std::string> commands;
    for (const json& c : manifest["contributes"]["commands"]) {
        commands.insert(c["command"].get<std::string>());
        EXPECT_TRUE(contains(extension, "registerCommand('" + c["command"].get<std::string>() + "'"))
            << c["command"] << " is contributed but never registered";
    }
    for (const json& e : manifest["activationEvents"]) {
        const std::string event = e;
        if (event.starts_with("onCommand:")) {
            EXPECT_TRUE(commands.contains(event.substr(10))) << event << ": no such command is contributed";
            continue;
        }
        EXPECT_TRUE(event == "onDebug" || (providesConfigurations && event.starts_with("onDebug")))
            << event << ": fired only around a DebugConfigurationProvider's methods";
    }
    const json& debugger = manifest["contributes"]["debuggers"][0];
    EXPECT_EQ(debugger["type"], "kernel-workbench");
    EXPECT_TRUE(contains(extension, "registerDebugAdapterDescriptorFactory('kernel-workbench'"));
    EXPECT_TRUE(contains(extension, "['debug', '--dap']"));
    // A new launch.json stops on entry: an inline source (most documents) is shown, and takes
    // breakpoints, only at a stop.
    for (const json& c : debugger["initialConfigurations"]) {
        EXPECT_EQ(c["type"], debugger["type"]);
        EXPECT_TRUE(c.value("stopOnEntry", false)) << c.dump();
    }

    // A launch with every declared attribute set as the schema allows, as VS Code sends it.
    const json& properties = debugger["configurationAttributes"]["launch"]["properties"];
    for (const std::string& check : properties["check"]["enum"])
        EXPECT_TRUE(kw::parseCheckTool(check).has_value()) << check;
    json args = {{"program", "reduction_shared.kwb"},
                 {"cwd", KW_SAMPLES_DIR},
                 {"trust", true},
                 {"check", "memcheck"},
                 {"optimized", true},
                 {"stopOnEntry", true}};
    for (const auto& [name, schema] : properties.items())
        EXPECT_TRUE(args.contains(name) || name == "step") << name << " is declared but not tried here";
    InProcess t;
    t.send({{"seq", 1}, {"type", "request"}, {"command", "initialize"}, {"arguments", json::object()}});
    const json launched = request(t, 2, "launch", args);
    EXPECT_TRUE(launched["success"].get<bool>()) << launched.dump();
    json stopped;
    request(t, 3, "configurationDone", {}, &stopped);
    EXPECT_EQ(stopped["reason"], "entry");
    // `optimized`: the build without -G, so no source names, only the PTX registers; the
    // default build has both.
    EXPECT_EQ(properties["optimized"]["type"], "boolean");
    request(t, 4, "stackTrace", {{"threadId", 1}});
    const json optimizedScopes = request(t, 5, "scopes", {{"frameId", 1}});
    EXPECT_FALSE(contains(optimizedScopes.dump(), "\"Locals\"")) << optimizedScopes.dump();
    EXPECT_GT(scopeNamed(optimizedScopes, "PTX registers")["variablesReference"].get<int>(), 0);
    const json optimizedLane = request(t, 6, "evaluate", {{"expression", "tid"}, {"context", "watch"}, {"frameId", 1}});
    EXPECT_FALSE(optimizedLane["success"].get<bool>())
        << "a source name in the optimized build: " << optimizedLane.dump();
    {
        InProcess g;
        g.send({{"seq", 1}, {"type", "request"}, {"command", "initialize"}, {"arguments", json::object()}});
        json debugBuild = args;
        debugBuild["optimized"] = false;
        debugBuild.erase("check");
        EXPECT_TRUE(request(g, 2, "launch", debugBuild)["success"].get<bool>());
        request(g, 3, "configurationDone", {});
        request(g, 4, "stackTrace", {{"threadId", 1}});
        const json scopes = request(g, 5, "scopes", {{"frameId", 1}});
        EXPECT_GT(scopeNamed(scopes, "Locals")["variablesReference"].get<int>(), 0) << scopes.dump();
        EXPECT_GT(scopeNamed(scopes, "PTX registers")["variablesReference"].get<int>(), 0);
    }
    // `step` (a document of steps' launch step): a number or a path, as the schema says.
    for (const json& step : {json(2), json("2")}) {
        InProcess u;
        u.send({{"seq", 1}, {"type", "request"}, {"command", "initialize"}, {"arguments", json::object()}});
        const json r = request(
            u, 2, "launch",
            {{"program", std::string(KW_SAMPLES_DIR) + "/reduction_two_pass.kwb"}, {"trust", true}, {"step", step}});
        EXPECT_TRUE(r["success"].get<bool>()) << step.dump() << " " << r.dump();
    }
}

// kwb-run debug --dap on `input`, in this process (DapCommand over files) and as a process.
struct Served {
    int code = -1;
    std::vector<json> messages;
    std::string err;
};

std::vector<json> frames(std::string bytes)
{
    std::vector<json> out;
    while (!bytes.empty()) {
        const auto end = bytes.find("\r\n\r\n");
        EXPECT_TRUE(bytes.starts_with("Content-Length: ") && end != std::string::npos) << bytes.substr(0, 80);
        if (end == std::string::npos)
            break;
        const std::size_t n = std::stoul(bytes.substr(16, end - 16));
        out.push_back(json::parse(bytes.substr(end + 4, n)));
        bytes.erase(0, end + 4 + n);
    }
    return out;
}

std::string readAll(std::FILE* f)
{
    std::rewind(f);
    std::string s;
    for (int c; (c = std::fgetc(f)) != EOF;)
        s += char(c);
    return s;
}

Served serveInProcess(const std::string& input)
{
    std::FILE* in = std::tmpfile();
    std::FILE* out = std::tmpfile();
    std::FILE* err = std::tmpfile();
    std::fwrite(input.data(), 1, input.size(), in);
    std::rewind(in);
    Served s;
    s.code = DapCommand({}, {}, in, out, err).execute();
    s.messages = frames(readAll(out));
    s.err = readAll(err);
    for (std::FILE* f : {in, out, err})
        std::fclose(f);
    return s;
}

Served serveAsProcess(const std::string& input)
{
    ChildProcess child({"debug", "--dap"});
    try {
        child.write(input);
    } catch (const std::runtime_error&) { // it stopped reading at a broken header, as it should
    }
    child.closeStdin();
    Served s;
    s.messages = frames(child.readAllStdout());
    s.err = child.readStderr();
    s.code = child.wait();
    return s;
}

TEST(DapCommand, MalformedInputGetsErrorsOrACleanEnd)
{
    const std::string initialize = framed(json{{"seq", 1}, {"type", "request"}, {"command", "initialize"}});
    const std::string disconnect = framed(json{{"seq", 9}, {"type", "request"}, {"command", "disconnect"}});
    for (auto serve : {serveInProcess, serveAsProcess}) {
        // Bodies that are not requests: an error response each, and the requests after them answered.
        const Served a = serve(framed(std::string("not json")) + framed(std::string("[1]"))
                               + framed(json{{"seq", 5}, {"type", "request"}, {"command", "frobnicate"}}) + initialize
                               + disconnect + initialize);
        EXPECT_EQ(a.code, 0) << a.err;
        ASSERT_EQ(a.messages.size(), 5u) << "nothing is read after disconnect";
        for (int i : {0, 1, 2})
            EXPECT_FALSE(a.messages[std::size_t(i)]["success"].get<bool>());
        EXPECT_EQ(a.messages[2]["request_seq"], 5);
        EXPECT_TRUE(a.messages[3]["success"].get<bool>());
        EXPECT_EQ(a.messages[4]["command"], "disconnect");

        // Headers that leave no way to the next message: said, and the end.
        for (const std::string bad :
             {std::string("Content-Length: abc\r\n\r\n{}"), std::string("Content-Length: 18446744073709551617\r\n\r\n"),
              std::string("Content-Length: 2000000000\r\n\r\n{}"), std::string("Content-Type: x\r\n\r\n{}"),
              std::string(200000, 'A')}) {
            const Served b = serve(initialize + bad + initialize);
            EXPECT_EQ(b.code, kw::ExitCode::BadInput) << bad.substr(0, 40);
            EXPECT_TRUE(contains(b.err, "cannot be read on")) << b.err;
            ASSERT_EQ(b.messages.size(), 3u) << bad.substr(0, 40);
            EXPECT_TRUE(b.messages[0]["success"].get<bool>());
            EXPECT_EQ(b.messages[1]["event"], "output");
            EXPECT_EQ(b.messages[2]["event"], "terminated");
        }

        // The input ends inside a message: the client has gone; a clean end.
        const Served c = serve(initialize + "Content-Length: 50\r\n\r\n{\"seq\":");
        EXPECT_EQ(c.code, 0);
        EXPECT_EQ(c.messages.size(), 1u);
        EXPECT_TRUE(contains(c.err, "ended inside a message")) << c.err;
        const Served d = serve("");
        EXPECT_EQ(d.code, 0);
        EXPECT_TRUE(d.messages.empty());
    }
}

TEST(DapCommand, TheDocumentOnTheCommandLineIsTheLaunchsDefault)
{
    KW_REQUIRE_NVRTC();
    OverPipes t({"debug", kSample, "--trust", "--dap"});
    t.send({{"seq", 1}, {"type", "request"}, {"command", "initialize"}});
    const auto launch
        = t.send({{"seq", 2}, {"type", "request"}, {"command", "launch"}, {"arguments", {{"stopOnEntry", true}}}});
    ASSERT_TRUE(launch.back()["success"].get<bool>()) << launch.back().dump();
    t.send({{"seq", 3}, {"type", "request"}, {"command", "configurationDone"}});
    const auto trace
        = t.send({{"seq", 4}, {"type", "request"}, {"command", "stackTrace"}, {"arguments", {{"threadId", 1}}}});
    // The entry stop is the kernel's first line.
    EXPECT_EQ(trace.back()["body"]["stackFrames"][0]["line"], lineOf(sampleSource(), "__global__ void block_sum"));
    t.send({{"seq", 5}, {"type", "request"}, {"command", "disconnect"}});
    t.child().closeStdin();
    EXPECT_EQ(t.child().wait(), 0);
    // Without --dap the document is needed.
    const CommandResult plain = runKwb({"debug"});
    EXPECT_EQ(plain.exitCode, kw::ExitCode::BadInput);
    EXPECT_TRUE(contains(plain.err, "--dap")) << plain.err;
}

} // namespace

namespace {

// A document whose source lies in a file: its real path, both ways, so the editor opens
// the file and its breakpoints there are the kernel's.
TEST(DapServer, ASourceFileIsNamedByItsRealPath)
{
    KW_REQUIRE_NVRTC();
    const std::string doc = std::string(KW_SAMPLES_DIR) + "/matmul.kwb";
    const std::string file = std::filesystem::weakly_canonical(std::string(KW_SAMPLES_DIR) + "/matmul.cu").string();
    std::ifstream in(file);
    const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const int line = lineOf(source, "__syncthreads();");
    InProcess t;
    t.send({{"seq", 1}, {"type", "request"}, {"command", "initialize"}});
    ASSERT_TRUE(request(t, 2, "launch", {{"program", doc}, {"trust", true}})["success"].get<bool>());
    const json set
        = request(t, 3, "setBreakpoints",
                  {{"source", {{"name", "matmul.cu"}, {"path", file}}}, {"breakpoints", {{{"line", line}}}}});
    const json& b = set["body"]["breakpoints"][0];
    ASSERT_TRUE(b["verified"].get<bool>()) << set.dump();
    EXPECT_EQ(b["line"], line);
    EXPECT_EQ(b["source"]["path"], file);
    json stopped;
    request(t, 4, "configurationDone", {}, &stopped);
    EXPECT_EQ(stopped["reason"], "breakpoint");
    const json trace = request(t, 5, "stackTrace", {{"threadId", stopped["threadId"]}});
    EXPECT_EQ(trace["body"]["stackFrames"][0]["line"], line);
    EXPECT_EQ(trace["body"]["stackFrames"][0]["source"]["path"], file);
    EXPECT_FALSE(trace["body"]["stackFrames"][0]["source"].contains("sourceReference"));
    // A file the kernel does not have is refused where it stands.
    const json other = request(
        t, 6, "setBreakpoints",
        {{"source", {{"name", "other.cu"}, {"path", "/elsewhere/other.cu"}}}, {"breakpoints", {{{"line", 3}}}}});
    EXPECT_FALSE(other["body"]["breakpoints"][0]["verified"].get<bool>()) << other.dump();
}

} // namespace

namespace {

// `next` by instruction is `stepi`: the warp's next pc; `stepOut` of the kernel's own frame is refused.
TEST(DapServer, InstructionGranularityStepsOneInstruction)
{
    KW_REQUIRE_NVRTC();
    InProcess t;
    start(t, json::array({{{"line", addLine()}}}), json::object());
    json stopped;
    request(t, 4, "configurationDone", {}, &stopped);
    ASSERT_EQ(stopped["reason"], "breakpoint");
    auto pc = [&](int seq) {
        const std::string name = request(t, seq, "stackTrace", {{"threadId", 1}})["body"]["stackFrames"][0]["name"];
        const auto at = name.find("(pc ");
        return at == std::string::npos ? -1 : std::stoi(name.substr(at + 4));
    };
    const int before = pc(5);
    ASSERT_GE(before, 0);
    request(t, 6, "next", {{"threadId", 1}, {"granularity", "instruction"}}, &stopped);
    EXPECT_EQ(stopped["reason"], "step");
    EXPECT_EQ(pc(7), before + 1);
    request(t, 8, "stepIn", {{"threadId", 1}, {"granularity", "instruction"}}, &stopped);
    EXPECT_EQ(pc(9), before + 2);
    // stepBack by instruction: one PTX instruction of the warp back (reverse-stepi).
    request(t, 11, "stepBack", {{"threadId", 1}, {"granularity", "instruction"}}, &stopped);
    EXPECT_EQ(stopped["reason"], "step");
    EXPECT_EQ(pc(12), before + 1);
    request(t, 13, "stepBack", {{"threadId", 1}, {"granularity", "instruction"}}, &stopped);
    EXPECT_EQ(pc(14), before);
    const json out = request(t, 10, "stepOut", {{"threadId", 1}});
    EXPECT_FALSE(out["success"].get<bool>());
    EXPECT_TRUE(contains(out["message"], "finish")) << out.dump();
}

} // namespace

namespace {

// Only `continue` has a response body in the protocol (allThreadsContinued); the other
// motions are answered with an acknowledgement, their stop following as an event.
TEST(DapServer, MotionsAnswerWithTheBodyTheProtocolDefines)
{
    KW_REQUIRE_NVRTC();
    InProcess t;
    start(t, json::array({{{"line", addLine()}}}), json::object());
    json stopped;
    request(t, 4, "configurationDone", {}, &stopped);
    ASSERT_EQ(stopped["reason"], "breakpoint");
    const json resumed = request(t, 5, "continue", {{"threadId", 1}}, &stopped);
    EXPECT_EQ(resumed["body"], json({{"allThreadsContinued", true}})) << resumed.dump();
    int seq = 6;
    for (const char* motion : {"next", "stepIn", "stepBack", "reverseContinue"}) {
        stopped = nullptr;
        const json r = request(t, seq++, motion, {{"threadId", 1}}, &stopped);
        EXPECT_TRUE(r["success"].get<bool>()) << r.dump();
        EXPECT_FALSE(r.contains("body")) << motion << ": " << r.dump();
        EXPECT_TRUE(stopped.is_object()) << motion << " sent no stopped event";
    }
}

// The launch configuration docs/debugger.md gives for VS Code's launch.json, as VS Code
// sends it: its first stop shows the kernel's inline source (VS Code can place a
// breakpoint in such a source only once it has been shown), and the breakpoint set there
// is hit. A launch that ran to its end first would show no frame and no source.
TEST(VsCodeExtension, TheDocumentedLaunchConfigurationReachesTheSourceFirst)
{
    KW_REQUIRE_NVRTC();
    const std::string root = std::string(KW_SAMPLES_DIR) + "/..";
    std::ifstream in(root + "/docs/debugger.md");
    const std::string docs((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto heading = docs.find("Then `.vscode/launch.json`:");
    ASSERT_NE(heading, std::string::npos);
    const auto begin = docs.find("```json\n", heading) + 8;
    const auto end = docs.find("```", begin);
    std::string text = docs.substr(begin, end - begin);
    for (auto at = text.find("${workspaceFolder}"); at != std::string::npos; at = text.find("${workspaceFolder}"))
        text.replace(at, 18, root);
    json config = json::parse(text)["configurations"][0];
    config["__sessionId"] = "1";

    InProcess t;
    t.send({{"seq", 1},
            {"type", "request"},
            {"command", "initialize"},
            {"arguments", {{"clientID", "vscode"}, {"adapterID", config["type"]}}}});
    ASSERT_TRUE(request(t, 2, "launch", config)["success"].get<bool>());
    json stopped;
    request(t, 3, "configurationDone", {}, &stopped);
    const json frames
        = request(t, 4, "stackTrace", {{"threadId", stopped.value("threadId", 1)}})["body"]["stackFrames"];
    ASSERT_FALSE(frames.empty()) << "first stop: " << stopped.dump();
    const json source = frames[0]["source"];
    ASSERT_GT(source.value("sourceReference", 0), 0) << source.dump();
    const json placed = request(t, 5, "setBreakpoints", {{"source", source}, {"breakpoints", {{{"line", addLine()}}}}});
    EXPECT_TRUE(placed["body"]["breakpoints"][0]["verified"].get<bool>()) << placed.dump();
    request(t, 6, "continue", {{"threadId", 1}}, &stopped);
    EXPECT_EQ(stopped["reason"], "breakpoint") << stopped.dump();
}

} // namespace

namespace {

// The adapter's own `lanes` request: the warp's 32 lanes as values, against the host's
// first step of the reduction (lane t adds t and t + 128 in warp 0, 32 + t and 160 + t in
// warp 1); with no expressions, the source's variables in scope.
TEST(DapServer, TheLanesRequestGivesTheLaneTableAsValues)
{
    KW_REQUIRE_NVRTC();
    InProcess t;
    start(t, json::array({{{"line", addLine()}}}), json::object());
    json stopped;
    request(t, 4, "configurationDone", {}, &stopped);
    ASSERT_EQ(stopped["reason"], "breakpoint");
    for (const int warp : {0, 1}) {
        if (warp == 1) { // warp 1 reaches the addition after warp 0 (before, its stride has no value yet)
            request(t, 10, "continue", {{"threadId", 1}}, &stopped);
            ASSERT_EQ(stopped["threadId"], 2) << stopped.dump();
        }
        const json r = request(t, 5 + warp, "lanes",
                               {{"threadId", warp + 1}, {"expressions", {"partial(tid)", "partial(tid + stride)"}}});
        ASSERT_TRUE(r["success"].get<bool>()) << r.dump();
        const json& body = r["body"];
        EXPECT_EQ(body["warp"], warp);
        EXPECT_EQ(body["columns"], json({"partial(tid)", "partial(tid + stride)"}));
        ASSERT_EQ(body["lanes"].size(), 32u);
        for (int l = 0; l < 32; ++l) {
            const json& lane = body["lanes"][l];
            const int thread = warp * 32 + l;
            EXPECT_EQ(lane["lane"], l);
            EXPECT_EQ(lane["thread"], thread);
            EXPECT_EQ(lane["state"], "active");
            EXPECT_EQ(lane["values"][0]["value"], double(thread)) << lane.dump();
            EXPECT_EQ(lane["values"][1]["value"], double(thread + 128)) << lane.dump();
        }
    }
    const json locals = request(t, 7, "lanes", {{"threadId", 2}})["body"];
    const json& columns = locals["columns"];
    ASSERT_NE(std::find(columns.begin(), columns.end(), "stride"), columns.end()) << locals.dump();
    const auto stride = std::size_t(std::find(columns.begin(), columns.end(), "stride") - columns.begin());
    for (const json& lane : locals["lanes"])
        EXPECT_EQ(lane["values"][stride]["value"], 128.0);
    const json refused = request(t, 8, "lanes", {{"expressions", {"no_such_name"}}});
    EXPECT_FALSE(refused["success"].get<bool>());
    EXPECT_FALSE(request(t, 9, "lanes", {{"expressions", "tid"}})["success"].get<bool>());
}

} // namespace
