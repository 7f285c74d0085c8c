// Every sample runs on the CPU simulator, as CI runs it without a GPU: it launches
// without a fault, every check of the document is evaluated over the whole buffer
// and passes, and the checks are the ones docs/samples.md lists. The samples without
// checks are compared with what they must print or compute. The tutorials' programs
// (docs/samples.md, "From the tutorials") are among them, hello_from_gpu with each of
// the tutorial's block shapes.
#include "compile/Compiler.hpp"
#include "doc/DocumentReader.hpp"
#include "run/RunEngine.hpp"
#include "sim/SimBackend.hpp"
#include "support/TextFile.hpp"

#include "support/Samples.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace kw;
namespace fs = std::filesystem;

namespace {

const fs::path kSamplesDir = KW_SAMPLES_DIR;

// The rows of docs/samples.md's "## Checks" table: sample -> checked buffers
// ("—" rows, for samples without a check, give no buffer but list the sample).
std::map<std::string, std::vector<std::string>> documentedChecks()
{
    const std::string md = test::readTextFile(kSamplesDir.parent_path() / "docs" / "samples.md");
    std::map<std::string, std::vector<std::string>> rows;
    std::istringstream in(md.substr(md.find("## Checks")));
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("| `", 0) != 0)
            continue;
        std::vector<std::string> cells;
        std::istringstream cellsIn(line);
        std::string cell;
        while (std::getline(cellsIn, cell, '|'))
            cells.push_back(cell);
        if (cells.size() < 3)
            continue;
        auto unquote = [](std::string s) {
            s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == '`' || c == ' '; }), s.end());
            return s;
        };
        const std::string sample = unquote(cells[1]);
        const std::string buffer = unquote(cells[2]);
        auto& list = rows[sample];
        if (buffer != "—")
            list.push_back(buffer);
    }
    return rows;
}

RunResult runOnSim(Document doc)
{
    doc.run.warmup = 0; // one launch is what the checks need; the timings are not looked at
    doc.run.repeats = 1;
    Compiler compiler;
    SimBackend sim;
    RunEngine engine(compiler, sim);
    return engine.run(doc);
}

std::string describe(const RunResult& r)
{
    std::string s = r.fault ? "fault: " + r.fault->message : std::string("no fault");
    if (!r.compile.ok)
        s += "; compile log:\n" + r.compile.log;
    for (const auto& c : r.checks)
        if (!c.passed)
            s += "; check " + c.buffer + " = " + c.expect + " failed at " + std::to_string(c.mismatches) + " of "
                + std::to_string(c.checked) + " elements";
    return s;
}

const BufferResult* bufferNamed(const RunResult& r, const std::string& name)
{
    for (const BufferResult& b : r.buffers)
        if (b.name == name)
            return &b;
    return nullptr;
}

class SampleOnSim : public testing::TestWithParam<std::string> { };

} // namespace

TEST(SamplesOnSim, ThereAreSamplesAndTheDocumentListsEachOne)
{
    const auto names = kw::test::sampleStems();
    ASSERT_GE(names.size(), 13u) << "the samples folder lost documents";
    const auto documented = documentedChecks();
    for (const auto& name : names)
        EXPECT_TRUE(documented.count(name)) << name << " is missing from docs/samples.md's Checks table";
    for (const auto& [name, buffers] : documented)
        EXPECT_TRUE(std::find(names.begin(), names.end(), name) != names.end())
            << "docs/samples.md lists " << name << ", which is not in samples/";
}

TEST_P(SampleOnSim, RunsAndPassesEveryCheckTheDocumentAndTheDocsList)
{
    const Document doc = DocumentReader::readFile(kSamplesDir / (GetParam() + ".kwb"));
    const RunResult r = runOnSim(doc);
    ASSERT_FALSE(r.fault) << describe(r);
    EXPECT_TRUE(r.compile.ok) << r.compile.log;
    EXPECT_EQ(r.device.id, "sim");

    // As many results as checks, in the document's order, each over its whole buffer.
    ASSERT_EQ(r.checks.size(), doc.checks.size());
    for (std::size_t c = 0; c < r.checks.size(); ++c) {
        SCOPED_TRACE("checks[" + std::to_string(c) + "]");
        EXPECT_EQ(r.checks[c].buffer, doc.checks[c].buffer);
        const BufferResult* target = bufferNamed(r, doc.checks[c].buffer);
        ASSERT_NE(target, nullptr);
        EXPECT_EQ(r.checks[c].checked, target->data.count()) << "every element is checked";
        EXPECT_GT(r.checks[c].checked, 0u);
        EXPECT_EQ(r.checks[c].mismatches, 0u) << describe(r);
        EXPECT_TRUE(r.checks[c].passed);
    }
    EXPECT_TRUE(r.ok) << describe(r);

    // The same checks as docs/samples.md's table says, buffer by buffer.
    const auto documented = documentedChecks();
    ASSERT_TRUE(documented.count(GetParam())) << "docs/samples.md has no row for " << GetParam();
    std::vector<std::string> checked;
    for (const CheckSpec& c : doc.checks)
        checked.push_back(c.buffer);
    std::vector<std::string> listed = documented.at(GetParam());
    std::sort(checked.begin(), checked.end());
    std::sort(listed.begin(), listed.end());
    EXPECT_EQ(checked, listed) << "the document's checks and docs/samples.md's differ";

    // Every output comes back with the document's element count.
    EXPECT_EQ(r.buffers.size(), doc.buffers.size());
}

INSTANTIATE_TEST_SUITE_P(All, SampleOnSim, testing::ValuesIn(kw::test::sampleStems()),
                         [](const testing::TestParamInfo<std::string>& info) { return info.param; });

// The tutorial's hello_from_gpu with block=(1,1,1), (3,1,1), (3,4,1) and (3,4,5):
// one tagged line per thread, each thread exactly once.
TEST(SamplesOnSim, HelloFromGpuPrintsOneLinePerThreadForEveryTutorialBlock)
{
    const Document base = DocumentReader::readFile(kSamplesDir / "hello_from_gpu.kwb");
    for (const auto& [bx, by, bz] :
         std::vector<std::tuple<int, int, int>>{{1, 1, 1}, {3, 1, 1}, {3, 4, 1}, {3, 4, 5}}) {
        SCOPED_TRACE("block " + std::to_string(bx) + "x" + std::to_string(by) + "x" + std::to_string(bz));
        Document doc = base;
        for (auto& [name, value] : doc.variables) {
            if (name == "bx")
                value = std::to_string(bx);
            if (name == "by")
                value = std::to_string(by);
            if (name == "bz")
                value = std::to_string(bz);
        }
        const RunResult r = runOnSim(doc);
        ASSERT_TRUE(r.ok) << describe(r);
        EXPECT_EQ(r.block.x, unsigned(bx));
        EXPECT_EQ(r.block.y, unsigned(by));
        EXPECT_EQ(r.block.z, unsigned(bz));
        ASSERT_EQ(r.printf.lines.size(), std::size_t(bx * by * bz));
        EXPECT_TRUE(r.printf.untagged.empty());
        std::set<std::tuple<unsigned, unsigned, unsigned>> threads;
        for (const PrintfLine& line : r.printf.lines) {
            EXPECT_EQ(line.block.x + line.block.y + line.block.z, 0u) << "one block";
            EXPECT_LT(line.thread.x, unsigned(bx));
            EXPECT_LT(line.thread.y, unsigned(by));
            EXPECT_LT(line.thread.z, unsigned(bz));
            EXPECT_FALSE(line.text.empty());
            threads.insert({line.thread.x, line.thread.y, line.thread.z});
        }
        EXPECT_EQ(threads.size(), std::size_t(bx * by * bz)) << "each thread prints once";
    }
}

// Mandelbrot has no closed form, but without fma contraction every float operation
// rounds on its own and the host computes the same image: every pixel must match.
TEST(SamplesOnSim, MandelbrotMatchesTheHostImageInEveryPixel)
{
    Document doc = DocumentReader::readFile(kSamplesDir / "mandelbrot.kwb");
    doc.options.extra.push_back("--fmad=false");
    const RunResult r = runOnSim(doc);
    ASSERT_TRUE(r.ok) << describe(r);
    const BufferResult* image = bufferNamed(r, "iterations");
    ASSERT_NE(image, nullptr);

    std::map<std::string, double> v;
    for (const auto& [name, value] : doc.variables)
        v[name] = std::stod(value);
    const int w = int(v.at("w")), h = int(v.at("h")), maxIter = int(v.at("max_iter"));
    const float xMin = float(v.at("x_min")), xMax = float(v.at("x_max"));
    const float yMin = float(v.at("y_min")), yMax = float(v.at("y_max"));
    ASSERT_EQ(image->data.count(), std::size_t(w) * std::size_t(h));
    ASSERT_EQ(image->shape, (std::vector<std::size_t>{std::size_t(h), std::size_t(w)}));

    const auto* got = reinterpret_cast<const std::int32_t*>(image->data.data());
    std::size_t wrong = 0, inside = 0;
    for (int py = 0; py < h; ++py)
        for (int px = 0; px < w; ++px) {
            // The kernel's arithmetic, one rounding per operation, in its order.
            const volatile float dx = xMax - xMin, dy = yMax - yMin;
            const volatile float sx = dx * float(px), sy = dy * float(py);
            const volatile float cr = xMin + sx / float(w - 1), ci = yMin + sy / float(h - 1);
            float zr = 0, zi = 0;
            int it = 0;
            for (;;) {
                const volatile float rr = zr * zr, ii = zi * zi;
                const volatile float norm = rr + ii;
                if (!(it < maxIter && norm <= 4.0f))
                    break;
                const volatile float t = rr - ii;
                const volatile float twoZr = 2.0f * zr;
                const volatile float p = twoZr * zi;
                zi = p + ci;
                zr = t + cr;
                ++it;
            }
            inside += it == maxIter;
            const std::int32_t g = got[std::size_t(py) * std::size_t(w) + std::size_t(px)];
            if (g != it && wrong++ < 5)
                ADD_FAILURE() << "pixel (" << px << ", " << py << "): " << g << " iterations, expected " << it;
        }
    EXPECT_EQ(wrong, 0u);
    EXPECT_GT(inside, 0u) << "the view holds points of the set";
    EXPECT_LT(inside, std::size_t(w) * std::size_t(h)) << "and points that escape";
}
