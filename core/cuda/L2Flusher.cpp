#include "cuda/L2Flusher.hpp"

#include "cuda/DriverApi.hpp"

namespace kw::cuda {

namespace {
// Every thread reads 16-byte words, grid-stride, and stores only when their XOR equals a
// value the zeroed buffer never gives, so the loads cannot be dropped. PTX, compiled by
// the driver for whichever GPU this is.
const char* const kReadPtx = R"(.version 7.0
.target sm_70
.address_size 64
.visible .entry kwb_l2_read(.param .u64 p, .param .u64 words, .param .u64 sink)
{
    .reg .pred %q;
    .reg .b32 %r<12>;
    .reg .b64 %d<8>;
    ld.param.u64 %d1, [p];
    ld.param.u64 %d2, [words];
    ld.param.u64 %d3, [sink];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mov.u32 %r4, %nctaid.x;
    mad.lo.u32 %r5, %r1, %r2, %r3;
    cvt.u64.u32 %d4, %r5;
    mul.lo.u32 %r6, %r4, %r2;
    cvt.u64.u32 %d5, %r6;
    mov.u32 %r7, 0;
LOOP:
    setp.ge.u64 %q, %d4, %d2;
    @%q bra DONE;
    shl.b64 %d6, %d4, 4;
    add.u64 %d7, %d1, %d6;
    ld.global.v4.u32 {%r8, %r9, %r10, %r11}, [%d7];
    xor.b32 %r7, %r7, %r8;
    xor.b32 %r7, %r7, %r9;
    xor.b32 %r7, %r7, %r10;
    xor.b32 %r7, %r7, %r11;
    add.u64 %d4, %d4, %d5;
    bra LOOP;
DONE:
    setp.ne.u32 %q, %r7, 1234567;
    @%q bra END;
    st.global.u32 [%d3], %r7;
END:
    ret;
}
)";
constexpr unsigned kBlocks = 1024;
constexpr unsigned kThreads = 256;
} // namespace

L2Flusher::L2Flusher(CUdevice device)
{
    const auto& api = DriverApi::get();
    int l2 = 0;
    if (api.cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device) == CUDA_SUCCESS && l2 > 0)
        bytes_ = 2 * std::size_t(l2);
}

bool L2Flusher::flush(CUstream stream)
{
    const auto& api = DriverApi::get();
    if (bytes_ == 0)
        return false;
    if (!read_) {
        scratch_ = DeviceMemory(bytes_, "L2 flush scratch buffer");
        api.check(api.cuMemsetD8Async(scratch_.pointer(), 0, bytes_, stream), "cuMemsetD8Async", "L2 flush");
        module_ = Module(kReadPtx, "L2 flush");
        read_ = module_.function("kwb_l2_read");
    }
    CUdeviceptr words = scratch_.pointer();
    unsigned long long count = bytes_ / 16;
    CUdeviceptr sink = scratch_.pointer();
    void* args[] = {&words, &count, &sink};
    api.check(api.cuLaunchKernel(read_, kBlocks, 1, 1, kThreads, 1, 1, 0, stream, args, nullptr), "cuLaunchKernel",
              "L2 flush");
    return true;
}

} // namespace kw::cuda
