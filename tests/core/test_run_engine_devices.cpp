// Device names, the driver's absence, and the mapping of CUDA errors onto faults
// (no GPU needed).
#include "cuda/CudaDevices.hpp"
#include "cuda/CudaFault.hpp"
#include "cuda/DriverApi.hpp"
#include "run/DeviceSelector.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

using namespace kw;

TEST(DeviceSelector, ParsesDeviceNames)
{
    EXPECT_EQ(DeviceSelector::parse("sim").kind, DeviceSpec::Kind::Sim);
    EXPECT_EQ(DeviceSelector::parse("cuda:3").ordinal, 3);
    EXPECT_EQ(DeviceSelector::parse("2").ordinal, 2);
    EXPECT_EQ(DeviceSelector::parse("cuda:1").str(), "cuda:1");
    for (const char* bad : {"cuda:", "cuda:x", "-1", "gpu", "1a", "cuda:-2"})
        EXPECT_THROW(DeviceSelector::parse(bad), Error) << bad;
}

TEST(DeviceSelector, WithoutAGpuTheDefaultIsTheSimulator)
{
    if (cuda::CudaDevices::count() > 0)
        GTEST_SKIP() << "a GPU is present";
    EXPECT_EQ(DeviceSelector::defaultDevice().kind, DeviceSpec::Kind::Sim);
    EXPECT_EQ(DeviceSelector::parse("").kind, DeviceSpec::Kind::Sim);
    const auto list = DeviceSelector::list();
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].id, "sim");
}

TEST(DriverApi, MissingDriverIsAOneLineNoDeviceError)
{
    if (cuda::DriverApi::available())
        GTEST_SKIP() << "a CUDA driver is present";
    try {
        cuda::DriverApi::get();
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::NoDevice);
        const std::string msg = e.what();
        EXPECT_EQ(msg.find('\n'), std::string::npos);
        EXPECT_EQ(msg, cuda::DriverApi::unavailableReason());
    }
    EXPECT_EQ(cuda::CudaDevices::count(), 0);
    EXPECT_THROW(DeviceSelector::open(DeviceSelector::parse("cuda:0"), nullptr), Error);
}

TEST(CudaFault, MapsKernelErrorsToFaultKinds)
{
    auto kind = [](CUresult r, bool trap = false) {
        auto f = cuda::CudaFault::fromResult(r, "NAME", "text", "k", trap);
        return f ? f->kind : FaultKind::None;
    };
    EXPECT_EQ(kind(CUDA_ERROR_ILLEGAL_ADDRESS), FaultKind::IllegalAddress);
    EXPECT_EQ(kind(CUDA_ERROR_MISALIGNED_ADDRESS), FaultKind::MisalignedAddress);
    EXPECT_EQ(kind(CUDA_ERROR_ASSERT), FaultKind::Assert);
    EXPECT_EQ(kind(CUDA_ERROR_LAUNCH_TIMEOUT), FaultKind::Timeout);
    EXPECT_EQ(kind(CUDA_ERROR_LAUNCH_FAILED, true), FaultKind::Trap);
    EXPECT_EQ(kind(CUDA_ERROR_LAUNCH_FAILED, false), FaultKind::LaunchFailure);
    EXPECT_EQ(kind(CUDA_ERROR_ILLEGAL_INSTRUCTION), FaultKind::LaunchFailure);
    EXPECT_EQ(kind(CUDA_ERROR_HARDWARE_STACK_ERROR), FaultKind::LaunchFailure);
    EXPECT_EQ(kind(CUDA_ERROR_OUT_OF_MEMORY), FaultKind::None); // machinery, not a fault
    EXPECT_EQ(kind(CUDA_SUCCESS), FaultKind::None);
    EXPECT_TRUE(cuda::CudaFault::isSticky(CUDA_ERROR_ILLEGAL_ADDRESS));
    EXPECT_FALSE(cuda::CudaFault::isSticky(CUDA_ERROR_INVALID_VALUE));

    auto f = cuda::CudaFault::fromResult(CUDA_ERROR_ASSERT, "CUDA_ERROR_ASSERT", "device-side assert triggered",
                                         "scale<float,4>", false);
    ASSERT_TRUE(f);
    EXPECT_NE(f->message.find("scale<float,4>"), std::string::npos);
    EXPECT_NE(f->message.find("CUDA_ERROR_ASSERT"), std::string::npos);
    EXPECT_EQ(cuda::CudaFault::timeout("k", 2.5).kind, FaultKind::Timeout);
}

TEST(CudaFault, FindsTrapInstructionsInPtx)
{
    EXPECT_TRUE(cuda::CudaFault::ptxHasTrap("{\n\tsetp.ne.s32 %p1, %r1, 3;\n\t@%p1 bra $L;\n\ttrap;\n$L:\n\tret;\n}"));
    EXPECT_TRUE(cuda::CudaFault::ptxHasTrap("@%p1 trap;"));
    EXPECT_FALSE(cuda::CudaFault::ptxHasTrap("\tmov.u32 %r1, %trap_count;\n\tcall.uni __assertfail;\n"));
    EXPECT_FALSE(cuda::CudaFault::ptxHasTrap("// no traps here\n\tret;\n"));
}
