// Which architecture a compile is for (run/ArchChoice): what was asked for, then the
// document's, then the first GPU's CUBIN target, else none (PTX only).
#include "cuda/CudaDevices.hpp"
#include "run/ArchChoice.hpp"

#include <gtest/gtest.h>

using kw::ArchChoice;

namespace {

// A machine with or without a GPU, counting what the choice asks of it.
struct FakeMachine {
    bool gpu = false;
    int presentAsked = 0, archAsked = 0;
    ArchChoice::Gpus gpus()
    {
        return {[this] {
                    ++presentAsked;
                    return gpu;
                },
                [this] {
                    ++archAsked;
                    return std::string("sm_90");
                }};
    }
};

} // namespace

TEST(ArchChoice, WhatWasAskedForWinsAndAsksNothingOfTheMachine)
{
    FakeMachine m{true};
    EXPECT_EQ(ArchChoice::choose("compute_80", "sm_75", m.gpus()), "compute_80");
    EXPECT_EQ(m.presentAsked + m.archAsked, 0);
}

TEST(ArchChoice, TheDocumentsArchComesNext)
{
    FakeMachine m{true};
    EXPECT_EQ(ArchChoice::choose("", "sm_75", m.gpus()), "sm_75");
    EXPECT_EQ(m.presentAsked + m.archAsked, 0);
}

TEST(ArchChoice, ThenCubinForTheFirstGpu)
{
    FakeMachine m{true};
    EXPECT_EQ(ArchChoice::choose("", "", m.gpus()), "sm_90");
    EXPECT_EQ(m.presentAsked, 1);
    EXPECT_EQ(m.archAsked, 1);
}

TEST(ArchChoice, WithoutAGpuNoArchAndTheGpuIsNotQueried)
{
    FakeMachine m{false};
    EXPECT_EQ(ArchChoice::choose("", "", m.gpus()), "");
    EXPECT_EQ(m.presentAsked, 1);
    EXPECT_EQ(m.archAsked, 0);
    EXPECT_EQ(ArchChoice::choose("", "", ArchChoice::Gpus{}), "") << "a machine that says nothing has no GPU";
}

TEST(ArchChoice, ThisMachineAnswersAsTheDriverDoes)
{
    const ArchChoice::Gpus here = ArchChoice::ofThisMachine();
    ASSERT_EQ(here.present(), kw::cuda::CudaDevices::count() > 0);
    if (here.present()) {
        EXPECT_EQ(here.firstArch(), kw::cuda::CudaDevices::cubinArch(kw::cuda::CudaDevices::query(0)));
    } else {
        EXPECT_EQ(ArchChoice::choose("", ""), "");
    }
}

TEST(ArchChoice, AGpusCubinTargetIsSmAndItsComputeCapability)
{
    kw::DeviceInfo d;
    d.ccMajor = 9;
    d.ccMinor = 0;
    EXPECT_EQ(kw::cuda::CudaDevices::cubinArch(d), "sm_90");
    d.ccMajor = 12;
    d.ccMinor = 1;
    EXPECT_EQ(kw::cuda::CudaDevices::cubinArch(d), "sm_121");
}
