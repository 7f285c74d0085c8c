// DocumentChanges: what differs between two versions of a document, named as a
// student reads it (the run history's compare view).
#include "data/BufferDifference.hpp"
#include "doc/DocumentChanges.hpp"
#include "doc/DocumentReader.hpp"

#include <gtest/gtest.h>

#include "util/Error.hpp"

#include <algorithm>
#include <cmath>

using namespace kw;

namespace {

Document mandelbrot() { return DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/mandelbrot.kwb"); }

std::vector<std::string> texts(const std::vector<DocumentChange>& changes)
{
    std::vector<std::string> out;
    for (const DocumentChange& c : changes)
        out.push_back(c.text());
    return out;
}

std::string joinedTexts(const std::vector<DocumentChange>& changes)
{
    std::string s;
    for (const std::string& t : texts(changes))
        s += t + "\n";
    return s;
}

} // namespace

TEST(DocumentChanges, TheSameDocumentHasNoChanges)
{
    const Document d = mandelbrot();
    EXPECT_TRUE(DocumentChanges::between(d, d).empty());
    EXPECT_FALSE(DocumentChanges::sourceChanged(d, d));
}

TEST(DocumentChanges, AVariableAndTheBlockAreNamedWithTheirValues)
{
    const Document a = mandelbrot();
    Document b = a;
    for (auto& [name, value] : b.variables)
        if (name == "max_iter")
            value = "32";
    b.launch.block = {"32", "8", "1"};
    const auto changes = DocumentChanges::between(a, b);
    EXPECT_EQ(texts(changes), (std::vector<std::string>{"max_iter: 128 → 32", "block: 16, 16 → 32, 8"}))
        << joinedTexts(changes);
    EXPECT_FALSE(DocumentChanges::sourceChanged(a, b));
}

TEST(DocumentChanges, AOneDimensionalBlockIsOneNumber)
{
    Document a = mandelbrot(), b = a;
    a.launch.block = {"256", "1", "1"};
    b.launch.block = {"128", "1", "1"};
    EXPECT_EQ(texts(DocumentChanges::between(a, b)), (std::vector<std::string>{"block: 256 → 128"}));
}

TEST(DocumentChanges, AnInitialiserADefineAndAnAddedVariable)
{
    Document a = mandelbrot(), b = a;
    a.buffers[0].init.kind = Initialiser::Kind::Uniform;
    a.buffers[0].init.low = 0;
    a.buffers[0].init.high = 1;
    a.buffers[0].init.seed = 7;
    b.buffers[0].init.kind = Initialiser::Kind::Arange;
    a.options.defines = {{"TILE", "16"}, {"FAST", ""}};
    b.options.defines = {{"TILE", "32"}};
    b.variables.push_back({"zoom", "2"});
    const auto t = texts(DocumentChanges::between(a, b));
    const std::string all = joinedTexts(DocumentChanges::between(a, b));
    auto has = [&](const std::string& s) { return std::find(t.begin(), t.end(), s) != t.end(); };
    EXPECT_TRUE(has("zoom: added (2)")) << all;
    EXPECT_TRUE(has("buffer iterations, initialiser: uniform(0, 1, seed 7) → arange(0, step 1)")) << all;
    EXPECT_TRUE(has("define TILE: 16 → 32")) << all;
    EXPECT_TRUE(has("define FAST: removed (was defined)")) << all;
    EXPECT_EQ(t.size(), 4u) << all;
}

TEST(DocumentChanges, BuffersArgumentsOptionsAndChecks)
{
    Document a = mandelbrot(), b = a;
    b.buffers[0].count = "w*h*2";
    b.buffers.push_back({"extra", DType::F32, "16"});
    b.args[7].value = "2*max_iter";
    b.options.fastMath = true;
    b.run.repeats = 3;
    b.checks.push_back({"iterations", "1"});
    const auto t = texts(DocumentChanges::between(a, b));
    const std::string all = joinedTexts(DocumentChanges::between(a, b));
    auto has = [&](const std::string& s) { return std::find(t.begin(), t.end(), s) != t.end(); };
    EXPECT_TRUE(has("buffer iterations, count: w*h → w*h*2")) << all;
    EXPECT_TRUE(has("buffer extra: added (f32[16] inout, zeros)")) << all;
    EXPECT_TRUE(has("argument 8 (max_iter): i32 max_iter → i32 2*max_iter")) << all;
    EXPECT_TRUE(has("fast math: off → on")) << all;
    EXPECT_TRUE(has("timed runs: 10 → 3")) << all;
    EXPECT_TRUE(has("check 1: added (iterations: 1 (abs 1e-06, rel 1e-05))")) << all;
    EXPECT_EQ(t.size(), 6u) << all;
}

TEST(DocumentChanges, TheSourceIsComparedApartAndTheNotesNotAtAll)
{
    Document a = mandelbrot(), b = a;
    b.source += "// more\n";
    b.description = "other notes";
    b.title = "other title";
    EXPECT_TRUE(DocumentChanges::sourceChanged(a, b));
    EXPECT_TRUE(DocumentChanges::between(a, b).empty()) << joinedTexts(DocumentChanges::between(a, b));
}

TEST(DocumentChanges, AStepThatChangedIsNamedByItsPlace)
{
    const Document a = DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/heat_diffusion.kwb");
    ASSERT_TRUE(a.isSequence());
    Document b = a;
    b.steps.back().name = "renamed";
    const auto changes = DocumentChanges::between(a, b);
    ASSERT_EQ(changes.size(), 1u) << joinedTexts(changes);
    EXPECT_EQ(changes[0].what, "step " + std::to_string(a.steps.size()));
}

// The output side of a comparison: BufferDifference.
TEST(BufferDifference, CountsTheDifferingElementsAndFindsTheLargest)
{
    HostBuffer a(DType::F32, 6), b(DType::F32, 6);
    for (std::size_t i = 0; i < 6; ++i) {
        a.set(i, double(i));
        b.set(i, double(i));
    }
    b.set(1, 1.5);  // +0.5
    b.set(4, 1.0);  // -3: the largest
    b.set(5, 12.0); // would be the largest, but it was NaN before: no number
    a.set(5, std::nan(""));
    const BufferDifference d = BufferDifference::of(a, b);
    EXPECT_EQ(d.differing, 3u);
    EXPECT_EQ(d.notANumber, 1u);
    EXPECT_DOUBLE_EQ(d.largest, 3.0);
    EXPECT_EQ(d.largestAt, 4u);
    EXPECT_DOUBLE_EQ(d.values.at(1), 0.5);
    EXPECT_DOUBLE_EQ(d.values.at(4), -3.0);
    EXPECT_DOUBLE_EQ(d.values.at(0), 0.0);
    EXPECT_TRUE(std::isnan(d.values.at(5)));
}

TEST(BufferDifference, TwoNaNsAreEqualAndLengthsMustMatch)
{
    HostBuffer a(DType::F64, 2), b(DType::F64, 2);
    a.set(0, std::nan(""));
    b.set(0, std::nan(""));
    EXPECT_EQ(BufferDifference::of(a, b).differing, 0u);
    EXPECT_THROW(BufferDifference::of(a, HostBuffer(DType::F64, 3)), Error);
}

TEST(BufferDifference, APlaceInAShapeIsRowThenColumn)
{
    EXPECT_EQ(BufferDifference::place(7, {2, 5}), (std::vector<std::size_t>{1, 2}));
    EXPECT_EQ(BufferDifference::place(7, {10}), (std::vector<std::size_t>{7}));
    EXPECT_EQ(BufferDifference::place(23, {2, 3, 4}), (std::vector<std::size_t>{1, 2, 3}));
}
