// What `kwb-run run --out DIR` writes (serve/RunOutputFolder): each output buffer as
// an .npy file with its dtype and shape, no inputs, no buffers after a fault, the run
// result as result.json, and nothing at all when a buffer's name is no plain file name.
#include "data/NpyFile.hpp"
#include "serve/ResultJson.hpp"
#include "serve/RunOutputFolder.hpp"
#include "support/TempDir.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace fs = std::filesystem;
using kw::RunOutputFolder;

namespace {

kw::BufferResult buffer(const std::string& name, kw::Direction direction, kw::DType dtype,
                        std::vector<std::size_t> shape)
{
    kw::BufferResult b;
    b.name = name;
    b.direction = direction;
    b.shape = shape;
    std::size_t count = 1;
    for (std::size_t d : shape)
        count *= d;
    b.data = kw::HostBuffer(dtype, count);
    for (std::size_t i = 0; i < count; ++i)
        b.data.set(i, double(i) * 2);
    return b;
}

kw::RunResult result()
{
    kw::RunResult r;
    r.ok = true;
    r.compile.ok = true;
    r.device.id = "sim";
    r.buffers
        = {buffer("p", kw::Direction::InOut, kw::DType::I32, {2, 3}),
           buffer("q", kw::Direction::Out, kw::DType::F32, {4}), buffer("a", kw::Direction::In, kw::DType::F32, {4})};
    return r;
}

nlohmann::json readJson(const fs::path& p)
{
    std::ifstream in(p);
    return nlohmann::json::parse(in);
}

} // namespace

TEST(RunOutputFolder, WritesEveryOutputWithItsDtypeAndShapeAndTheResult)
{
    const fs::path dir = kw::test::freshDir("kw_test_run_output_folder", "outputs") / "made" / "here";
    const kw::RunResult r = result();
    RunOutputFolder::write(dir, r);

    const kw::NdArray p = kw::NpyFile::read(dir / "p.npy");
    EXPECT_EQ(p.data.dtype(), kw::DType::I32);
    EXPECT_EQ(p.shape, (std::vector<std::size_t>{2, 3}));
    EXPECT_EQ(p.data.at(5), 10.0);
    const kw::NdArray q = kw::NpyFile::read(dir / "q.npy");
    EXPECT_EQ(q.data.dtype(), kw::DType::F32);
    EXPECT_EQ(q.shape, (std::vector<std::size_t>{4}));
    EXPECT_FALSE(fs::exists(dir / "a.npy")) << "inputs are not outputs";
    EXPECT_EQ(readJson(dir / "result.json"), kw::toJson(r));
}

TEST(RunOutputFolder, AFaultedRunWritesOnlyTheResult)
{
    const fs::path dir = kw::test::freshDir("kw_test_run_output_folder", "fault");
    kw::RunResult r = result();
    r.ok = false;
    kw::Fault f;
    f.kind = kw::FaultKind::OutOfBounds;
    f.message = "past the end";
    r.fault = f;
    RunOutputFolder::write(dir, r);
    EXPECT_FALSE(fs::exists(dir / "p.npy"));
    EXPECT_FALSE(fs::exists(dir / "q.npy"));
    EXPECT_EQ(readJson(dir / "result.json")["fault"]["kind"], "out_of_bounds");
}

TEST(RunOutputFolder, AFolderThatCannotBeMadeThrows)
{
    const fs::path dir = kw::test::freshDir("kw_test_run_output_folder", "blocked");
    std::ofstream(dir / "file") << "not a folder";
    EXPECT_ANY_THROW(RunOutputFolder::write(dir / "file", result()));
}

TEST(RunOutputFolder, ABufferNameThatIsNotAPlainFileNameIsRefusedAndNothingIsWritten)
{
    // Names may come from a runner: "../../x" would land outside the folder, "c\0" as "c".
    for (const std::string& name : {std::string("../../x"), std::string("c\0", 2), std::string("CON"),
                                    std::string("/tmp/x"), std::string("..")}) {
        const fs::path root = kw::test::freshDir("kw_test_run_output_folder", "refused");
        const fs::path dir = root / "a" / "b" / "out";
        kw::RunResult r = result();
        r.buffers.push_back(buffer(name, kw::Direction::Out, kw::DType::F32, {4}));
        try {
            RunOutputFolder::write(dir, r);
            ADD_FAILURE() << "wrote " << name;
        } catch (const kw::Error& e) {
            EXPECT_NE(std::string(e.what()).find("cannot be written as a file"), std::string::npos) << e.what();
        }
        EXPECT_FALSE(fs::exists(dir)) << "nothing is written, not even the good buffers or result.json";
        EXPECT_FALSE(fs::exists(root / "a" / "x.npy"));
    }
}
