// StagedTransfer, the pinned staging ring behind uploads and downloads: for sizes
// around a slot and around the ring's wrap, with unaligned ends, every byte reaches
// the device (read back without the ring) and every byte comes back through the ring.
#include "cuda/Context.hpp"
#include "cuda/DeviceMemory.hpp"
#include "cuda/DriverApi.hpp"
#include "cuda/StagedTransfer.hpp"
#include "cuda/Stream.hpp"
#include "gpu/GpuTestSupport.hpp"

#include <cstring>
#include <random>
#include <vector>

namespace {

std::vector<unsigned char> pattern(std::size_t n, unsigned seed)
{
    std::vector<unsigned char> v(n);
    std::mt19937_64 rng(seed);
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const std::uint64_t r = rng();
        std::memcpy(v.data() + i, &r, 8);
    }
    for (; i < n; ++i)
        v[i] = static_cast<unsigned char>(rng());
    return v;
}

std::size_t firstDifference(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b)
{
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i])
            return i;
    return a.size();
}

} // namespace

TEST(GpuStagedTransfer, EveryByteGoesUpAndComesBackForSizesAroundSlotsAndTheRing)
{
    KW_REQUIRE_GPU();
    using kw::cuda::StagedTransfer;
    const auto& api = kw::cuda::DriverApi::get();
    kw::cuda::Context context(0);
    kw::cuda::Stream stream;
    StagedTransfer ring;
    const std::size_t slot = ring.ring().slotBytes, wrap = ring.ring().slots * slot;
    for (std::size_t bytes : {std::size_t(1), std::size_t(4097), slot - 1, slot, slot + 1, wrap - 3, wrap, wrap + 1,
                              2 * wrap + slot / 2 + 7}) {
        SCOPED_TRACE("bytes " + std::to_string(bytes));
        const auto host = pattern(bytes, unsigned(bytes));
        kw::cuda::DeviceMemory device(bytes, "staged");
        ring.upload(host.data(), device.pointer(), bytes, stream.handle(), "staged");

        // Read back without the ring (a plain copy into pageable memory): a fault
        // that upload and download share would cancel out in a round trip.
        std::vector<unsigned char> direct(bytes, 0);
        api.check(api.cuMemcpyDtoHAsync(direct.data(), device.pointer(), bytes, stream.handle()), "cuMemcpyDtoHAsync",
                  "read-back");
        api.check(api.cuStreamSynchronize(stream.handle()), "cuStreamSynchronize", "read-back");
        ASSERT_EQ(firstDifference(direct, host), bytes) << "the device holds another byte here after the upload";

        std::vector<unsigned char> back(bytes, 0);
        ring.download(device.pointer(), back.data(), bytes, stream.handle(), "staged");
        ASSERT_EQ(firstDifference(back, host), bytes) << "the download differs here";
    }
}
