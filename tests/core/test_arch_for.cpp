// Which architecture a document is compiled for on a backend (Backend::archFor): the
// document's options.arch where the backend can run it, the backend's own without one,
// and an error that names both where it cannot.
#include "launch/Backend.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

using namespace kw;

namespace {

// A backend that only answers what it compiles for.
class ArchOnly : public Backend {
public:
    explicit ArchOnly(std::string arch)
        : arch_(std::move(arch))
    {
    }
    DeviceInfo device() const override
    {
        DeviceInfo d;
        d.id = "cuda:0";
        d.name = "a GPU";
        return d;
    }
    std::string compileArch() const override { return arch_; }
    LaunchReport launch(const KernelImage&, std::vector<BufferArg>&, const std::vector<LaunchArg>&,
                        const LaunchConfig&) override
    {
        return {};
    }

private:
    std::string arch_;
};

std::string refusal(const Backend& b, const std::string& arch, ErrorCategory expected)
{
    try {
        b.archFor(arch);
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), expected) << e.what();
        return e.what();
    }
    ADD_FAILURE() << arch << " was not refused";
    return {};
}

} // namespace

TEST(ArchFor, TheSimulatorRunsThePtxOfWhateverArchTheDocumentAsksFor)
{
    const ArchOnly sim("compute_75");
    EXPECT_EQ(sim.archFor(""), "compute_75");
    EXPECT_EQ(sim.archFor("compute_90"), "compute_90");
    EXPECT_EQ(sim.archFor("sm_90"), "compute_90"); // PTX of the same number, not a binary
    EXPECT_EQ(sim.archFor("sm_80"), "compute_80");
    EXPECT_EQ(sim.archFor("sm_90a"), "compute_90a");
}

TEST(ArchFor, AGpuRunsItsOwnBinaryAndPtxUpToItsOwnNumber)
{
    const ArchOnly h200("sm_90");
    EXPECT_EQ(h200.archFor(""), "sm_90");
    EXPECT_EQ(h200.archFor("sm_90"), "sm_90");
    EXPECT_EQ(h200.archFor("sm_90a"), "sm_90a");
    EXPECT_EQ(h200.archFor("compute_90"), "compute_90");
    // An sm_80 binary cannot run on sm_90; its PTX can, with sm_80's features only.
    EXPECT_EQ(h200.archFor("sm_80"), "compute_80");
    EXPECT_EQ(h200.archFor("compute_75"), "compute_75");
}

TEST(ArchFor, CodeANewerOrAnotherArchSpecificGpuNeedsIsRefusedNamingBoth)
{
    const ArchOnly h200("sm_90");
    const std::string newer = refusal(h200, "sm_100", ErrorCategory::Limit);
    EXPECT_NE(newer.find("sm_100"), std::string::npos) << newer;
    EXPECT_NE(newer.find("cuda:0 (a GPU) is sm_90"), std::string::npos) << newer;
    EXPECT_NE(newer.find("newer GPU"), std::string::npos) << newer;
    EXPECT_NE(refusal(h200, "compute_100", ErrorCategory::Limit).find("newer"), std::string::npos);
    const std::string specific = refusal(ArchOnly("sm_100"), "sm_90a", ErrorCategory::Limit);
    EXPECT_NE(specific.find("arch-specific"), std::string::npos) << specific;
    EXPECT_NE(refusal(h200, "gfx90a", ErrorCategory::Document).find("not an architecture"), std::string::npos);
    EXPECT_NE(refusal(ArchOnly("compute_75"), "sm_", ErrorCategory::Document).find("not an architecture"),
              std::string::npos);
}
