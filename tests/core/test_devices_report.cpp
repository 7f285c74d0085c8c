// What `kwb-run devices` and the serve `devices` request say (run/DevicesReport,
// run/DevicesText, serve/ResultJson): the devices, the simulator last, and why there
// is no GPU when there is none.
#include "cuda/CudaDevices.hpp"
#include "cuda/DriverApi.hpp"
#include "run/DevicesReport.hpp"
#include "run/DevicesText.hpp"
#include "serve/ResultJson.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using kw::DevicesReport;
using kw::DevicesText;

namespace {

kw::DeviceInfo simulator()
{
    kw::DeviceInfo d;
    d.id = "sim";
    d.name = "CPU simulator (4 threads)";
    return d;
}

kw::DeviceInfo gpu()
{
    kw::DeviceInfo d;
    d.id = "cuda:0";
    d.name = "NVIDIA H200";
    d.ccMajor = 9;
    d.ccMinor = 0;
    d.totalMemory = std::size_t(3) << 29; // 1.5 GiB
    d.limits.multiprocessors = 132;
    d.limits.maxThreadsPerBlock = 1024;
    d.limits.sharedPerBlock = 49152;
    d.limits.sharedPerBlockOptin = 232448;
    d.limits.maxRegistersPerBlock = 65536;
    d.limits.warpSize = 32;
    return d;
}

} // namespace

TEST(DevicesReport, ThisMachineListsItsGpusThenTheSimulatorAndSaysWhyThereIsNoDriver)
{
    const DevicesReport r = DevicesReport::collect();
    ASSERT_FALSE(r.devices.empty());
    EXPECT_EQ(r.devices.back().id, "sim");
    EXPECT_EQ(r.devices.size(), std::size_t(kw::cuda::CudaDevices::count()) + 1);
    EXPECT_EQ(r.hasGpu(), kw::cuda::CudaDevices::count() > 0);
    EXPECT_EQ(r.noDriver.has_value(), !kw::cuda::DriverApi::available());
    if (r.noDriver) {
        EXPECT_EQ(*r.noDriver, kw::cuda::DriverApi::unavailableReason());
    }
}

TEST(DevicesReport, OnlyTheSimulatorIsNoGpu)
{
    DevicesReport r;
    EXPECT_FALSE(r.hasGpu());
    r.devices = {simulator()};
    EXPECT_FALSE(r.hasGpu());
    r.devices = {gpu(), simulator()};
    EXPECT_TRUE(r.hasGpu());
}

TEST(DevicesText, WithoutADriverSaysWhyThenListsTheSimulator)
{
    DevicesReport r;
    r.devices = {simulator()};
    r.noDriver = "no NVIDIA driver found (libcuda.so.1 could not be loaded)";
    EXPECT_EQ(DevicesText::format(r),
              "No GPU: no NVIDIA driver found (libcuda.so.1 could not be loaded)\n"
              "sim  CPU simulator (4 threads)\n");
}

TEST(DevicesText, ADriverWithoutDevicesSaysSo)
{
    DevicesReport r;
    r.devices = {simulator()};
    EXPECT_EQ(DevicesText::format(r),
              "No GPU: the NVIDIA driver reports no device\n"
              "sim  CPU simulator (4 threads)\n");
}

TEST(DevicesText, AGpuGetsItsComputeCapabilityMemoryAndLimits)
{
    DevicesReport r;
    r.devices = {gpu(), simulator()};
    EXPECT_EQ(DevicesText::format(r),
              "cuda:0  NVIDIA H200  compute 9.0  1.5 GiB  132 SMs\n"
              "        max threads/block 1024  block 1024x1024x64  grid 2147483647x65535x65535  shared/block 49152 B "
              "(opt-in 232448 B)  registers/block 65536  warp 32\n"
              "sim  CPU simulator (4 threads)\n");
    r.devices[0].memoryBandwidthGBs = 4800.4;
    EXPECT_NE(DevicesText::format(r).find("warp 32  peak bandwidth 4800 GB/s\n"), std::string::npos)
        << DevicesText::format(r);
}

TEST(DevicesJson, TheDevicesAndTheDriverAsTheProtocolSaysThem)
{
    DevicesReport r;
    r.devices = {gpu(), simulator()};
    nlohmann::json j = kw::toJson(r);
    ASSERT_TRUE(j["devices"].is_array());
    ASSERT_EQ(j["devices"].size(), 2u);
    EXPECT_EQ(j["devices"][0], kw::toJson(gpu()));
    EXPECT_EQ(j["devices"][1]["id"], "sim");
    EXPECT_TRUE(j["driver"].is_null());
    EXPECT_EQ(j.size(), 2u);

    r.noDriver = "no driver here";
    EXPECT_EQ(kw::toJson(r)["driver"], "no driver here");
    EXPECT_EQ(kw::toJson(r.devices), j["devices"]);
}
