#include "cuda/CuptiKernelTimes.hpp"

#include "cuda/CuptiLibrary.hpp"
#include "util/DynamicLibrary.hpp"

#if defined(__MINGW32__)
// cupti_common.h spells the records' packing in MSVC's words (__pragma, __declspec(align))
// for every Windows compiler; MinGW's GCC gets the header's own GCC spelling instead,
// the same layout.
#include <cupti_common.h>
#undef START_PACKED_ALIGNMENT
#undef PACKED_ALIGNMENT
#undef END_PACKED_ALIGNMENT
#define START_PACKED_ALIGNMENT
#define PACKED_ALIGNMENT __attribute__((__packed__)) __attribute__((aligned(ACTIVITY_RECORD_ALIGNMENT)))
#define END_PACKED_ALIGNMENT
#endif
#include <cupti.h>
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <new>
#include <type_traits>
#include <utility>

namespace kw::cuda {

struct CuptiKernelTimes::Api {
    decltype(&cuptiActivityEnable) enable = nullptr;
    decltype(&cuptiActivityDisable) disable = nullptr;
    decltype(&cuptiActivityRegisterCallbacks) registerCallbacks = nullptr;
    decltype(&cuptiActivityGetNextRecord) nextRecord = nullptr;
    decltype(&cuptiActivityFlushAll) flushAll = nullptr;
};

namespace {

constexpr std::size_t kBufferBytes = 1u << 20;
constexpr std::size_t kAlign = ACTIVITY_RECORD_ALIGNMENT;

// What the callbacks collect: (start, end) in ns of each kernel record.
std::mutex recordsMutex;
std::vector<std::pair<std::uint64_t, std::uint64_t>> records;
const CuptiKernelTimes::Api* callbackApi = nullptr;

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords)
{
    // Aligned operator new, not std::aligned_alloc, which Windows' C library lacks.
    *buffer = static_cast<uint8_t*>(::operator new (kBufferBytes, std::align_val_t{kAlign}, std::nothrow));
    *size = *buffer ? kBufferBytes : 0;
    *maxNumRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize)
{
    CUpti_Activity* record = nullptr;
    std::lock_guard lock(recordsMutex);
    while (callbackApi && callbackApi->nextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && record->kind != CUPTI_ACTIVITY_KIND_KERNEL)
            continue;
        // start and end lie at the same place in every kernel record version since 4.
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        records.emplace_back(k->start, k->end);
    }
    ::operator delete (buffer, std::align_val_t{kAlign});
}

struct Loaded {
    std::unique_ptr<CuptiKernelTimes::Api> api;
    std::unique_ptr<CuptiKernelTimes> times;
    std::string reason;
};

// Never destroyed, as the library is never closed: CUPTI may call back until the end.
Loaded& loaded()
{
    static Loaded& l = *new Loaded;
    static std::once_flag once;
    std::call_once(once, [] {
        const DynamicLibrary* library = CuptiLibrary::get();
        if (!library) {
            l.reason = CuptiLibrary::reason();
            return;
        }
        auto api = std::make_unique<CuptiKernelTimes::Api>();
        auto sym = [&](auto& fn, const char* name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(library->symbol(name));
            return fn != nullptr;
        };
        if (!sym(api->enable, "cuptiActivityEnable") || !sym(api->disable, "cuptiActivityDisable")
            || !sym(api->registerCallbacks, "cuptiActivityRegisterCallbacks")
            || !sym(api->nextRecord, "cuptiActivityGetNextRecord") || !sym(api->flushAll, "cuptiActivityFlushAll")) {
            l.reason = library->name() + " lacks the activity API";
            return;
        }
        callbackApi = api.get();
        if (const CUptiResult r = api->registerCallbacks(bufferRequested, bufferCompleted); r != CUPTI_SUCCESS) {
            l.reason = "cuptiActivityRegisterCallbacks: " + CuptiLibrary::resultText(r);
            callbackApi = nullptr;
            return;
        }
        l.times = std::make_unique<CuptiKernelTimes>(api.get());
        l.api = std::move(api);
    });
    return l;
}

} // namespace

CuptiKernelTimes* CuptiKernelTimes::get() { return loaded().times.get(); }

std::string CuptiKernelTimes::unavailableReason() { return loaded().reason; }

bool CuptiKernelTimes::begin()
{
    error_.clear();
    api_->flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); // nothing from before counts
    {
        std::lock_guard lock(recordsMutex);
        records.clear();
    }
    if (const CUptiResult r = api_->enable(CUPTI_ACTIVITY_KIND_KERNEL); r != CUPTI_SUCCESS) {
        error_ = "cuptiActivityEnable: " + CuptiLibrary::resultText(r);
        return false;
    }
    return true;
}

std::vector<double> CuptiKernelTimes::end()
{
    api_->disable(CUPTI_ACTIVITY_KIND_KERNEL);
    if (const CUptiResult r = api_->flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); r != CUPTI_SUCCESS)
        error_ = "cuptiActivityFlushAll: " + CuptiLibrary::resultText(r);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> got;
    {
        std::lock_guard lock(recordsMutex);
        got.swap(records);
    }
    std::sort(got.begin(), got.end());
    std::vector<double> ms;
    ms.reserve(got.size());
    for (const auto& [start, end] : got)
        ms.push_back(end > start ? double(end - start) * 1e-6 : 0.0);
    return ms;
}

} // namespace kw::cuda
