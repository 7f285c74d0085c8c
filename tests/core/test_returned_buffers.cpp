// What a runner may send back for a run (serve/ReturnedBuffers): frames and result entries
// only for the document's buffers, each once, by plain file names, with the dtype and count
// the client evaluated and a payload of exactly count × element size. Everything else is
// kw::Error(Protocol), decided from the header alone (before anything is allocated).
#include "serve/ReturnedBuffers.hpp"
#include "util/Error.hpp"
#include "util/PlainFileName.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>

using kw::ReturnedBuffers;
using nlohmann::json;
using namespace std::string_literals;

namespace {

kw::BufferSpec buffer(const std::string& name, kw::DType dtype, const std::string& count, kw::Direction direction)
{
    kw::BufferSpec b;
    b.name = name;
    b.dtype = dtype;
    b.count = count;
    b.direction = direction;
    return b;
}

// a (in) and c (out): 4 floats; m: 2 × 3 bytes; u: a count the client cannot evaluate.
kw::Document document()
{
    kw::Document doc;
    doc.variables = {{"n", "4"}};
    doc.buffers
        = {buffer("a", kw::DType::F32, "n", kw::Direction::In), buffer("c", kw::DType::F32, "n", kw::Direction::Out),
           buffer("m", kw::DType::U8, "6", kw::Direction::InOut),
           buffer("u", kw::DType::F64, "only_the_runner_knows", kw::Direction::Out)};
    doc.buffers[2].shape = {"2", "3"};
    return doc;
}

json frame(const json& name, const json& dtype, const json& count)
{
    return {{"v", 2}, {"id", 2}, {"event", "buffer"}, {"name", name}, {"dtype", dtype}, {"count", count}};
}

// The message of the kw::Error(Protocol) `f` throws ("" and a failure when it throws none).
std::string refusal(const std::function<void()>& f)
{
    try {
        f();
    } catch (const kw::Error& e) {
        EXPECT_EQ(e.category(), kw::ErrorCategory::Protocol) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "not refused";
    return {};
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

kw::BufferResult listed(const std::string& name, kw::DType dtype, kw::Direction direction,
                        std::vector<std::size_t> shape)
{
    kw::BufferResult b;
    b.name = name;
    b.direction = direction;
    b.shape = std::move(shape);
    b.data = kw::HostBuffer(dtype, 0); // as runResultFromJson leaves it: metadata only
    return b;
}

} // namespace

TEST(ReturnedBuffers, AFrameOfTheDocumentWithItsDtypeAndCountIsAdmitted)
{
    ReturnedBuffers r(document(), "outputs");
    const auto c = r.admit(frame("c", "f32", 4), 16);
    EXPECT_EQ(c.name, "c");
    EXPECT_EQ(c.dtype, kw::DType::F32);
    EXPECT_EQ(c.count, 4u);
    json m = frame("m", "u8", 6);
    m["shape"] = {2, 3};
    EXPECT_EQ(r.admit(m, 6).count, 6u);
    // A count the client could not evaluate is taken within the limits and the payload.
    EXPECT_EQ(r.admit(frame("u", "f64", 10), 80).count, 10u);
}

TEST(ReturnedBuffers, TraversalNamesAreRefused)
{
    for (const std::string name : {"../../x", "..", ".", "/etc/passwd", "out/../../x", "..\\x"}) {
        ReturnedBuffers r(document(), "all");
        const std::string m = refusal([&] { r.admit(frame(name, "f32", 4), 16); });
        EXPECT_TRUE(has(m, "not a plain file name")) << m;
        EXPECT_TRUE(has(m, kw::PlainFileName::quoted(name))) << "names the bad name: " << m;
    }
}

TEST(ReturnedBuffers, ANameWithANulIsRefusedAndShownEscaped)
{
    ReturnedBuffers r(document(), "all");
    const std::string m = refusal([&] { r.admit(frame("c\0"s, "f32", 4), 16); });
    EXPECT_TRUE(has(m, "\"c\\x00\"")) << m;
    EXPECT_TRUE(has(m, "NUL")) << m;
}

TEST(ReturnedBuffers, WindowsDeviceNamesAreRefusedEvenWhenTheDocumentHasThem)
{
    kw::Document doc = document();
    doc.buffers.push_back(buffer("aux", kw::DType::F32, "4", kw::Direction::Out));
    ReturnedBuffers r(doc, "all");
    EXPECT_TRUE(has(refusal([&] { r.admit(frame("CON", "f32", 4), 16); }), "device name"));
    EXPECT_TRUE(has(refusal([&] { r.admit(frame("aux", "f32", 4), 16); }), "device name"));
}

TEST(ReturnedBuffers, NamesNotInTheRequestAreRefused)
{
    ReturnedBuffers outputs(document(), "outputs");
    EXPECT_TRUE(has(refusal([&] { outputs.admit(frame("zz", "f32", 4), 16); }), "not a buffer of the request"));
    EXPECT_TRUE(has(refusal([&] { outputs.admit(frame("a", "f32", 4), 16); }), "does not ask back"))
        << "an input is not an output";
    ReturnedBuffers all(document(), "all");
    EXPECT_EQ(all.admit(frame("a", "f32", 4), 16).name, "a");
    ReturnedBuffers none(document(), "none");
    EXPECT_TRUE(has(refusal([&] { none.admit(frame("c", "f32", 4), 16); }), "does not ask back"));
    ReturnedBuffers compile; // hello, devices, compile: no buffers at all
    EXPECT_TRUE(has(refusal([&] { compile.admit(frame("c", "f32", 4), 16); }), "not a buffer of the request"));
}

TEST(ReturnedBuffers, EachBufferComesOnce)
{
    ReturnedBuffers r(document(), "outputs");
    r.admit(frame("c", "f32", 4), 16);
    EXPECT_TRUE(has(refusal([&] { r.admit(frame("c", "f32", 4), 16); }), "sent twice"));
}

TEST(ReturnedBuffers, CountsAndSizesThatLieAreRefused)
{
    ReturnedBuffers r(document(), "all");
    EXPECT_TRUE(
        has(refusal([&] { r.admit(frame("c", "f32", 5), 20); }), "5 elements, but the document's buffer has 4"));
    EXPECT_TRUE(has(refusal([&] { r.admit(frame("c", "f32", 4), 12); }), "a payload of 12 bytes"));
    EXPECT_TRUE(
        has(refusal([&] { r.admit(frame("c", "f64", 4), 32); }), "dtype \"f64\", but the document's buffer is f32"));
    EXPECT_TRUE(has(refusal([&] { r.admit(frame("u", "f64", 10), 79); }), "a payload of 79 bytes"));
    json m = frame("m", "u8", 6);
    m["shape"] = {4, 4};
    EXPECT_TRUE(has(refusal([&] { r.admit(m, 6); }), "shape [4, 4] does not hold its 6 elements"));
}

TEST(ReturnedBuffers, ACountOf2To42IsRefusedBeforeAnythingIsAllocated)
{
    ReturnedBuffers r(document(), "all");
    const std::uint64_t n = std::uint64_t(1) << 42;
    EXPECT_TRUE(has(refusal([&] { r.admit(frame("c", "f32", n), 16); }), "4398046511104 elements"));
    // Even with a matching payload size, and for a count the client could not evaluate.
    EXPECT_TRUE(has(refusal([&] { r.admit(frame("c", "f32", n), n * 4); }), "4398046511104 elements"));
    EXPECT_TRUE(has(refusal([&] { r.admit(frame("u", "f64", n), n * 8); }), "more than any buffer may have"));
}

TEST(ReturnedBuffers, ACountOf2To62Plus1ThatWrapsToASmallPayloadIsRefused)
{
    // (2^62 + 1) × 4 bytes wraps round to 4: a plot would read 2^62 elements past them.
    const std::uint64_t n = (std::uint64_t(1) << 62) + 1;
    ReturnedBuffers r(document(), "all");
    EXPECT_TRUE(has(refusal([&] { r.admit(frame("c", "f32", n), 4); }), "4611686018427387905"));
    EXPECT_TRUE(has(refusal([&] { r.admit(frame("u", "f64", n), 8); }), "more than any buffer may have"));
    // The checked product, within the limits: 2^40 doubles are not a payload of 0 bytes.
    EXPECT_TRUE(has(refusal([&] { r.admit(frame("u", "f64", std::uint64_t(1) << 40), 0); }), "a payload of 0 bytes"));
}

TEST(ReturnedBuffers, IllTypedMembersAreProtocolErrorsNotJsonExceptions)
{
    const std::vector<json> headers = {
        frame(5, "f32", 4),       frame(nullptr, "f32", 4), frame(json::array({"c"}), "f32", 4),
        frame("c", 7, 4),         frame("c", "f33", 4),     frame("c", nullptr, 4),
        frame("c", "f32", "4"),   frame("c", "f32", -1),    frame("c", "f32", 4.5),
        frame("c", "f32", 1e300), frame("c", "f32", true),  frame("c", "f32", nullptr),
    };
    for (const json& h : headers) {
        ReturnedBuffers r(document(), "all");
        EXPECT_THROW(r.admit(h, 16), kw::Error) << h.dump();
    }
    json noName = frame("c", "f32", 4);
    noName.erase("name");
    ReturnedBuffers r(document(), "all");
    EXPECT_THROW(r.admit(noName, 16), kw::Error);
    for (const json& shape : {json("x"), json::array({2, "2"}), json::array({-1, -4}), json(4)}) {
        json m = frame("c", "f32", 4);
        m["shape"] = shape;
        ReturnedBuffers again(document(), "all");
        EXPECT_THROW(again.admit(m, 16), kw::Error) << shape.dump();
    }
}

TEST(ReturnedBuffers, TheResultListGetsTheFramesAsData)
{
    ReturnedBuffers r(document(), "outputs");
    std::map<std::string, kw::HostBuffer> frames;
    frames["c"] = kw::HostBuffer(kw::DType::F32, 4);
    frames["c"].set(3, 9.0);
    kw::RunResult result;
    result.buffers
        = {listed("a", kw::DType::F32, kw::Direction::In, {4}), listed("c", kw::DType::F32, kw::Direction::Out, {4}),
           listed("m", kw::DType::U8, kw::Direction::InOut, {2, 3})};
    r.attach(result, frames);
    EXPECT_EQ(result.buffers[1].data.count(), 4u);
    EXPECT_EQ(result.buffers[1].data.at(3), 9.0);
    EXPECT_EQ(result.buffers[0].data.count(), 0u) << "an input that did not come back has no data";
}

TEST(ReturnedBuffers, AResultListThatLiesIsRefused)
{
    const auto attach = [](std::vector<kw::BufferResult> buffers) {
        ReturnedBuffers r(document(), "outputs");
        std::map<std::string, kw::HostBuffer> frames;
        frames["c"] = kw::HostBuffer(kw::DType::F32, 4);
        kw::RunResult result;
        result.buffers = std::move(buffers);
        return refusal([&] { r.attach(result, frames); });
    };
    // The names --out writes come from this list: the same rules as for frames.
    EXPECT_TRUE(has(attach({listed("../../x", kw::DType::F32, kw::Direction::Out, {4})}), "not a plain file name"));
    EXPECT_TRUE(has(attach({listed("c\0"s, kw::DType::F32, kw::Direction::Out, {4})}), "\"c\\x00\""));
    EXPECT_TRUE(has(attach({listed("NUL", kw::DType::F32, kw::Direction::Out, {4})}), "device name"));
    EXPECT_TRUE(has(attach({listed("zz", kw::DType::F32, kw::Direction::Out, {4})}), "not a buffer of the request"));
    EXPECT_TRUE(has(attach({listed("c", kw::DType::F32, kw::Direction::Out, {4}),
                            listed("c", kw::DType::F32, kw::Direction::Out, {4})}),
                    "listed twice"));
    EXPECT_TRUE(has(attach({listed("c", kw::DType::F64, kw::Direction::Out, {4})}), "dtype f64"));
    EXPECT_TRUE(has(attach({listed("c", kw::DType::F32, kw::Direction::In, {4})}), "direction in"));
    // A shape that is not the frame's data: a view would read past it.
    EXPECT_TRUE(has(attach({listed("c", kw::DType::F32, kw::Direction::Out, {1000000})}),
                    "shape [1000000] does not hold its 4 elements"));
    EXPECT_TRUE(has(attach({listed("a", kw::DType::F32, kw::Direction::In, {3})}), "does not hold its 4 elements"))
        << "without a frame, the document's count";
    EXPECT_TRUE(has(attach({listed("u", kw::DType::F64, kw::Direction::Out, {std::size_t(1) << 41})}),
                    "larger than any buffer"));
}

namespace {

// document() with two steps, the second a repeat of one: paths 1, 2, 2.1.
kw::Document documentOfSteps()
{
    kw::Document doc = document();
    doc.version = 2;
    doc.steps.resize(2);
    doc.steps[0].kind = kw::StepSpec::Kind::Fill;
    doc.steps[1].kind = kw::StepSpec::Kind::Repeat;
    doc.steps[1].steps.resize(1);
    return doc;
}

json stepFrame(const json& step, const json& name, const json& dtype, const json& count)
{
    json f = frame(name, dtype, count);
    f["step"] = step;
    return f;
}

} // namespace

TEST(ReturnedBuffers, FramesAfterAStepComeOnlyForTheStepsAskedForAndForEveryBuffer)
{
    ReturnedBuffers r(documentOfSteps(), "outputs", {"2.1"});
    const auto a = r.admit(stepFrame("2.1", "a", "f32", 4), 16);
    EXPECT_EQ(a.step, "2.1") << "an input too: every buffer after a step";
    EXPECT_EQ(r.admit(frame("c", "f32", 4), 16).step, "") << "the final outputs are apart";
    EXPECT_TRUE(r.admit(stepFrame("2.1", "c", "f32", 4), 16).step == "2.1") << "the same name after a step";
    EXPECT_TRUE(has(refusal([&] { r.admit(stepFrame("2.1", "c", "f32", 4), 16); }), "sent twice"));
    EXPECT_TRUE(has(refusal([&] { r.admit(stepFrame("1", "c", "f32", 4), 16); }),
                    "a step this request does not ask buffers after"));
    EXPECT_TRUE(has(refusal([&] { r.admit(stepFrame("../x", "c", "f32", 4), 16); }), "does not ask buffers after"));
    EXPECT_TRUE(has(refusal([&] { r.admit(stepFrame(7, "c", "f32", 4), 16); }), "step"));
    EXPECT_TRUE(has(refusal([&] { r.admit(stepFrame("2.1", "m", "f32", 6), 24); }), "dtype"));

    ReturnedBuffers all(documentOfSteps(), "none", {"*"});
    EXPECT_EQ(all.admit(stepFrame("1", "m", "u8", 6), 6).step, "1");
    EXPECT_EQ(all.admit(stepFrame("2", "m", "u8", 6), 6).step, "2");
    EXPECT_TRUE(has(refusal([&] { all.admit(stepFrame("3", "m", "u8", 6), 6); }), "does not ask buffers after"));
    EXPECT_TRUE(has(refusal([&] { all.admit(frame("c", "f32", 4), 16); }), "does not ask back"));
}

TEST(ReturnedBuffers, TheStepsBufferListsGetTheirOwnFrames)
{
    ReturnedBuffers r(documentOfSteps(), "outputs", {"1"});
    std::map<std::string, kw::HostBuffer> frames;
    frames["c"] = kw::HostBuffer(kw::DType::F32, 4);
    frames["c"].set(0, 9.0);
    frames[ReturnedBuffers::frameKey("1", "c")] = kw::HostBuffer(kw::DType::F32, 4);
    frames[ReturnedBuffers::frameKey("1", "c")].set(0, 5.0);
    kw::RunResult result;
    result.buffers = {listed("c", kw::DType::F32, kw::Direction::Out, {4})};
    result.steps.resize(3);
    result.steps[0].path = "1";
    result.steps[0].buffers = {listed("c", kw::DType::F32, kw::Direction::Out, {4})};
    result.steps[1].path = "2";
    r.attach(result, frames);
    EXPECT_EQ(result.buffers[0].data.at(0), 9.0);
    ASSERT_EQ(result.steps[0].buffers[0].data.count(), 4u);
    EXPECT_EQ(result.steps[0].buffers[0].data.at(0), 5.0);

    kw::RunResult lying;
    lying.steps.resize(2);
    lying.steps[1].path = "2";
    lying.steps[1].buffers = {listed("c", kw::DType::F32, kw::Direction::Out, {4})};
    EXPECT_TRUE(has(refusal([&] { r.attach(lying, frames); }), "after step \"2\": a step this request does not ask"));
    lying.steps[1].path = "1";
    lying.steps[1].buffers[0].direction = kw::Direction::In;
    EXPECT_TRUE(has(refusal([&] { r.attach(lying, frames); }), "\"c\" after step \"1\": direction in"));
}
