// bench_transfer: 1 GiB (or --mib N) uploads and downloads in one fresh process, each
// timed by CUDA events around the copies as CuPy's are; prints one JSON object. Run by
// bench_transfer.py, five fresh processes beside five of CuPy's pinned cudaMemcpy.
//
//   bench_transfer [--mib N] [--rounds R]
//
// Rows, medians of R rounds after one untimed round (which also pins the ring):
//   upload/download: the workbench's StagedTransfer (pageable HostBuffer, pinned ring);
//   pinned: cuMemcpyHtoD/DtoH from cuMemAllocHost memory (CuPy's pinned peer, in process);
//   registered: cuMemHostRegister of the HostBuffer, the copy, cuMemHostUnregister, wall
//   time of all three (does registering each buffer pay?).
// With each ring round, how long the host waited for the copy engine (upload_wait_ms,
// download_wait_ms): a slow round that waited little was slow in the host's copying, one
// that waited much in the copy engine's.
// The data are checked: what comes back from the device equals what went up, every byte.
#include "cuda/Context.hpp"
#include "cuda/DeviceMemory.hpp"
#include "cuda/DriverApi.hpp"
#include "cuda/DriverStagingDevice.hpp"
#include "cuda/Event.hpp"
#include "cuda/PinnedHostMemory.hpp"
#include "cuda/StagedTransfer.hpp"
#include "cuda/Stream.hpp"
#include "data/HostBuffer.hpp"
#include "launch/TimingStats.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

double median(const std::vector<double>& v) { return kw::TimingStats::compute(v).median; }

double msSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The driver's staging device, adding up the time its caller waits for the copy engine.
class WaitTimingDevice : public kw::cuda::DriverStagingDevice {
public:
    double waitedMs = 0;
    void waitSlot(std::size_t slot, const std::string& label) override
    {
        const auto t0 = std::chrono::steady_clock::now();
        DriverStagingDevice::waitSlot(slot, label);
        waitedMs += msSince(t0);
    }
    void waitAll(CUstream stream, const std::string& label) override
    {
        const auto t0 = std::chrono::steady_clock::now();
        DriverStagingDevice::waitAll(stream, label);
        waitedMs += msSince(t0);
    }
};

} // namespace

int main(int argc, char** argv)
try {
    std::size_t mib = 1024;
    int rounds = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--mib") == 0)
            mib = std::stoul(argv[i + 1]);
        else if (std::strcmp(argv[i], "--rounds") == 0)
            rounds = std::stoi(argv[i + 1]);
        else
            throw std::runtime_error(std::string("unknown option ") + argv[i]);
    }
    const std::size_t bytes = mib << 20;
    const auto& api = kw::cuda::DriverApi::get();
    kw::cuda::Context context(0);
    kw::cuda::Stream stream;
    const CUstream s = stream.handle();
    kw::cuda::DeviceMemory device(bytes, "bench");
    auto timingDevice = std::make_unique<WaitTimingDevice>();
    WaitTimingDevice& waits = *timingDevice;
    kw::cuda::StagedTransfer transfer(kw::cuda::StagedTransfer::ringFromEnvironment(), std::move(timingDevice));

    // The host data as the workbench holds it: a HostBuffer of pageable memory, written
    // once (a document's initialiser) before it is uploaded.
    kw::HostBuffer host = kw::HostBuffer::uninitialised(kw::DType::U32, bytes / 4);
    auto* words = reinterpret_cast<std::uint32_t*>(host.data());
    for (std::size_t i = 0; i < host.count(); ++i)
        words[i] = std::uint32_t(i * 2654435761u);
    kw::HostBuffer back = kw::HostBuffer::uninitialised(kw::DType::U32, bytes / 4);
    std::memset(back.data(), 0, bytes); // a result buffer exists (and is touched) before its download

    auto timed = [&](const std::function<void()>& copy) {
        kw::cuda::Event start, stop;
        start.record(s);
        copy();
        stop.record(s);
        api.check(api.cuEventSynchronize(stop.handle()), "cuEventSynchronize", "bench");
        return double(stop.elapsedSince(start));
    };
    std::vector<double> waited; // by round of the last series, ms
    auto series = [&](const std::function<void()>& copy) {
        std::vector<double> ms;
        waited.clear();
        for (int r = 0; r <= rounds; ++r) {
            waits.waitedMs = 0;
            const double t = timed(copy);
            if (r > 0) {
                ms.push_back(t);
                waited.push_back(waits.waitedMs);
            }
        }
        return ms;
    };
    auto gbps = [&](double ms) { return double(bytes) / (ms * 1e-3) / 1e9; };

    const auto up = series([&] { transfer.upload(host.data(), device.pointer(), bytes, s, "bench"); });
    const auto upWaited = waited;
    const auto down = series([&] { transfer.download(device.pointer(), back.data(), bytes, s, "bench"); });
    const auto downWaited = waited;
    if (std::memcmp(back.data(), host.data(), bytes) != 0)
        throw std::runtime_error("the download differs from the upload");

    kw::cuda::PinnedHostMemory pinned(bytes);
    std::memcpy(pinned.data(), host.data(), bytes);
    const auto pinnedUp = series([&] {
        api.check(api.cuMemcpyHtoDAsync(device.pointer(), pinned.data(), bytes, s), "cuMemcpyHtoDAsync", "pinned");
    });
    const auto pinnedDown = series([&] {
        api.check(api.cuMemcpyDtoHAsync(pinned.data(), device.pointer(), bytes, s), "cuMemcpyDtoHAsync", "pinned");
    });
    if (std::memcmp(pinned.data(), host.data(), bytes) != 0)
        throw std::runtime_error("the pinned round trip differs");

    json out = {{"bytes", bytes},
                {"rounds", rounds},
                {"ring",
                 {{"slot_mib", transfer.ring().slotBytes >> 20},
                  {"slots", transfer.ring().slots},
                  {"copy_threads", transfer.ring().copyThreads}}},
                {"upload_ms", up},
                {"download_ms", down},
                {"upload_wait_ms", upWaited},
                {"download_wait_ms", downWaited},
                {"upload_gbps", gbps(median(up))},
                {"download_gbps", gbps(median(down))},
                {"pinned_upload_gbps", gbps(median(pinnedUp))},
                {"pinned_download_gbps", gbps(median(pinnedDown))}};

    if (api.cuMemHostRegister && api.cuMemHostUnregister) {
        auto registered = [&](bool toDevice) {
            std::vector<double> ms;
            for (int r = 0; r <= rounds; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                api.check(api.cuMemHostRegister(host.data(), bytes, 0), "cuMemHostRegister", "bench");
                if (toDevice)
                    api.check(api.cuMemcpyHtoDAsync(device.pointer(), host.data(), bytes, s), "cuMemcpyHtoDAsync", "");
                else
                    api.check(api.cuMemcpyDtoHAsync(host.data(), device.pointer(), bytes, s), "cuMemcpyDtoHAsync", "");
                api.check(api.cuStreamSynchronize(s), "cuStreamSynchronize", "bench");
                api.check(api.cuMemHostUnregister(host.data()), "cuMemHostUnregister", "bench");
                const double t = msSince(t0);
                if (r > 0)
                    ms.push_back(t);
            }
            return ms;
        };
        out["registered_upload_gbps"] = gbps(median(registered(true)));
        out["registered_download_gbps"] = gbps(median(registered(false)));
    }
    std::printf("%s\n", out.dump().c_str());
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_transfer: %s\n", e.what());
    return 1;
}
