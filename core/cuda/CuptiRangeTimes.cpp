#include "cuda/CuptiRangeTimes.hpp"

#include "cuda/CuptiLibrary.hpp"
#include "util/DynamicLibrary.hpp"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <type_traits>

namespace kw::cuda {

namespace {

// CUPTI's parameter blocks: zeroed, with the size that tells CUPTI their version.
template <class Params> Params params(std::size_t structSize)
{
    Params p{};
    p.structSize = structSize;
    return p;
}
#define KW_CUPTI_PARAMS(Type) params<Type>(Type##_STRUCT_SIZE)

} // namespace

struct CuptiRangeTimes::Api {
    decltype(&cuptiProfilerInitialize) initialize = nullptr;
    decltype(&cuptiDeviceGetChipName) chipName = nullptr;
    decltype(&cuptiProfilerGetCounterAvailability) counterAvailability = nullptr;
    decltype(&cuptiProfilerHostInitialize) hostInitialize = nullptr;
    decltype(&cuptiProfilerHostDeinitialize) hostDeinitialize = nullptr;
    decltype(&cuptiProfilerHostConfigAddMetrics) addMetrics = nullptr;
    decltype(&cuptiProfilerHostGetConfigImageSize) configImageSize = nullptr;
    decltype(&cuptiProfilerHostGetConfigImage) configImage = nullptr;
    decltype(&cuptiProfilerHostGetNumOfPasses) passes = nullptr;
    decltype(&cuptiProfilerHostEvaluateToGpuValues) evaluate = nullptr;
    decltype(&cuptiRangeProfilerEnable) enable = nullptr;
    decltype(&cuptiRangeProfilerDisable) disable = nullptr;
    decltype(&cuptiRangeProfilerGetCounterDataSize) counterDataSize = nullptr;
    decltype(&cuptiRangeProfilerCounterDataImageInitialize) counterDataInitialize = nullptr;
    decltype(&cuptiRangeProfilerSetConfig) setConfig = nullptr;
    decltype(&cuptiRangeProfilerStart) start = nullptr;
    decltype(&cuptiRangeProfilerStop) stop = nullptr;
    decltype(&cuptiRangeProfilerDecodeData) decode = nullptr;
    decltype(&cuptiRangeProfilerGetCounterDataInfo) counterDataInfo = nullptr;
};

// Owns CUPTI's host object: made in place, never copied (a copy would free it twice).
struct CuptiRangeTimes::HostObject {
    const Api* api;
    CUpti_Profiler_Host_Object* object;
    HostObject(const Api* a, CUpti_Profiler_Host_Object* o)
        : api(a)
        , object(o)
    {
    }
    HostObject(const HostObject&) = delete;
    HostObject& operator=(const HostObject&) = delete;
    ~HostObject()
    {
        auto p = KW_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
        p.pHostObject = object;
        api->hostDeinitialize(&p);
    }
};

namespace {

// Nsight Compute's kernel duration, in ns: the GPU's own start-to-end of the launch.
const char* const kMetric = "gpu__time_duration.sum";

struct Loaded {
    std::unique_ptr<CuptiRangeTimes::Api> api;
    std::unique_ptr<CuptiRangeTimes> times;
    std::string reason;
};

// Never destroyed, as the library is never closed: CUPTI may call back until the end.
Loaded& loaded()
{
    static Loaded& l = *new Loaded;
    static std::once_flag once;
    std::call_once(once, [] {
        if (const char* only = std::getenv("KWB_CUPTI"); only && std::strcmp(only, "activity") == 0) {
            l.reason = "KWB_CUPTI=activity";
            return;
        }
        const DynamicLibrary* library = CuptiLibrary::get();
        if (!library) {
            l.reason = CuptiLibrary::reason();
            return;
        }
        auto api = std::make_unique<CuptiRangeTimes::Api>();
        bool all = true;
        auto sym = [&](auto& fn, const char* name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(library->symbol(name));
            all = all && fn != nullptr;
        };
        sym(api->initialize, "cuptiProfilerInitialize");
        sym(api->chipName, "cuptiDeviceGetChipName");
        sym(api->counterAvailability, "cuptiProfilerGetCounterAvailability");
        sym(api->hostInitialize, "cuptiProfilerHostInitialize");
        sym(api->hostDeinitialize, "cuptiProfilerHostDeinitialize");
        sym(api->addMetrics, "cuptiProfilerHostConfigAddMetrics");
        sym(api->configImageSize, "cuptiProfilerHostGetConfigImageSize");
        sym(api->configImage, "cuptiProfilerHostGetConfigImage");
        sym(api->passes, "cuptiProfilerHostGetNumOfPasses");
        sym(api->evaluate, "cuptiProfilerHostEvaluateToGpuValues");
        sym(api->enable, "cuptiRangeProfilerEnable");
        sym(api->disable, "cuptiRangeProfilerDisable");
        sym(api->counterDataSize, "cuptiRangeProfilerGetCounterDataSize");
        sym(api->counterDataInitialize, "cuptiRangeProfilerCounterDataImageInitialize");
        sym(api->setConfig, "cuptiRangeProfilerSetConfig");
        sym(api->start, "cuptiRangeProfilerStart");
        sym(api->stop, "cuptiRangeProfilerStop");
        sym(api->decode, "cuptiRangeProfilerDecodeData");
        sym(api->counterDataInfo, "cuptiRangeProfilerGetCounterDataInfo");
        if (!all) {
            l.reason = library->name() + " lacks the range profiler (CUDA 12.6 or later has it)";
            return;
        }
        l.times = std::make_unique<CuptiRangeTimes>(api.get());
        l.api = std::move(api);
    });
    return l;
}

} // namespace

CuptiRangeTimes* CuptiRangeTimes::get() { return loaded().times.get(); }

std::string CuptiRangeTimes::unavailableReason() { return loaded().reason; }

CuptiRangeTimes::CuptiRangeTimes(const Api* api)
    : api_(api)
{
}

CuptiRangeTimes::~CuptiRangeTimes() = default;

// What does not change between runs on one device: the chip's evaluator and the
// configuration that collects the one metric.
bool CuptiRangeTimes::prepare(CUcontext context, int device)
{
    const auto fail = [&](const char* what, CUptiResult r) {
        error_ = std::string(what) + ": " + CuptiLibrary::resultText(r);
        return false;
    };
    if (!initialized_) {
        auto p = KW_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
        if (const CUptiResult r = api_->initialize(&p); r != CUPTI_SUCCESS)
            return fail("cuptiProfilerInitialize", r);
        initialized_ = true;
    }
    if (preparedDevice_ == device)
        return true;
    host_.reset();
    preparedDevice_ = -1;

    auto chip = KW_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    chip.deviceIndex = std::size_t(device);
    if (const CUptiResult r = api_->chipName(&chip); r != CUPTI_SUCCESS)
        return fail("cuptiDeviceGetChipName", r);
    // Which counters this GPU has free now (another profiler may hold some).
    auto availability = KW_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    availability.ctx = context;
    if (const CUptiResult r = api_->counterAvailability(&availability); r != CUPTI_SUCCESS)
        return fail("cuptiProfilerGetCounterAvailability", r);
    availability_.assign(availability.counterAvailabilityImageSize, 0);
    availability.pCounterAvailabilityImage = availability_.data();
    if (const CUptiResult r = api_->counterAvailability(&availability); r != CUPTI_SUCCESS)
        return fail("cuptiProfilerGetCounterAvailability", r);
    auto init = KW_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    init.pChipName = chip.pChipName;
    init.pCounterAvailabilityImage = availability_.data();
    if (const CUptiResult r = api_->hostInitialize(&init); r != CUPTI_SUCCESS)
        return fail(("cuptiProfilerHostInitialize for chip " + std::string(chip.pChipName)).c_str(), r);
    host_ = std::make_unique<HostObject>(api_, init.pHostObject);
    const char* metrics[] = {kMetric};
    auto add = KW_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    add.pHostObject = host_->object;
    add.ppMetricNames = metrics;
    add.numMetrics = 1;
    if (const CUptiResult r = api_->addMetrics(&add); r != CUPTI_SUCCESS)
        return fail((std::string(kMetric) + " on chip " + chip.pChipName).c_str(), r);
    auto size = KW_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
    size.pHostObject = host_->object;
    if (const CUptiResult r = api_->configImageSize(&size); r != CUPTI_SUCCESS)
        return fail("cuptiProfilerHostGetConfigImageSize", r);
    config_.assign(size.configImageSize, 0);
    auto image = KW_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    image.pHostObject = host_->object;
    image.configImageSize = config_.size();
    image.pConfigImage = config_.data();
    if (const CUptiResult r = api_->configImage(&image); r != CUPTI_SUCCESS)
        return fail("cuptiProfilerHostGetConfigImage", r);
    // One pass: each launch runs once, as it would unprofiled. A metric that needed
    // more would have CUPTI replay the kernel, which is not a plain timed run.
    auto passes = KW_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    passes.configImageSize = config_.size();
    passes.pConfigImage = config_.data();
    if (const CUptiResult r = api_->passes(&passes); r != CUPTI_SUCCESS)
        return fail("cuptiProfilerHostGetNumOfPasses", r);
    if (passes.numOfPasses != 1) {
        error_ = std::string(kMetric) + " needs " + std::to_string(passes.numOfPasses) + " passes on this GPU";
        return false;
    }
    preparedDevice_ = device;
    return true;
}

bool CuptiRangeTimes::begin(CUcontext context, int device, std::size_t launches)
{
    error_.clear();
    disable();
    if (!prepare(context, device))
        return false;
    const auto fail = [&](const char* what, CUptiResult r) {
        error_ = std::string(what) + ": " + CuptiLibrary::resultText(r);
        disable();
        return false;
    };
    auto enable = KW_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    enable.ctx = context;
    if (const CUptiResult r = api_->enable(&enable); r != CUPTI_SUCCESS)
        return fail("cuptiRangeProfilerEnable", r);
    profiler_ = enable.pRangeProfilerObject;

    const char* metrics[] = {kMetric};
    auto size = KW_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    size.pRangeProfilerObject = enable.pRangeProfilerObject;
    size.pMetricNames = metrics;
    size.numMetrics = 1;
    size.maxNumOfRanges = launches;
    size.maxNumRangeTreeNodes = uint32_t(launches);
    if (const CUptiResult r = api_->counterDataSize(&size); r != CUPTI_SUCCESS)
        return fail("cuptiRangeProfilerGetCounterDataSize", r);
    counterData_.assign(size.counterDataSize, 0);
    auto init = KW_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    init.pRangeProfilerObject = enable.pRangeProfilerObject;
    init.counterDataSize = counterData_.size();
    init.pCounterData = counterData_.data();
    if (const CUptiResult r = api_->counterDataInitialize(&init); r != CUPTI_SUCCESS)
        return fail("cuptiRangeProfilerCounterDataImageInitialize", r);

    // Auto ranges: every launch is its own range, as under Nsight Compute.
    auto set = KW_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    set.pRangeProfilerObject = enable.pRangeProfilerObject;
    set.configSize = config_.size();
    set.pConfig = config_.data();
    set.counterDataImageSize = counterData_.size();
    set.pCounterDataImage = counterData_.data();
    set.range = CUPTI_AutoRange;
    set.replayMode = CUPTI_KernelReplay;
    set.maxRangesPerPass = launches;
    set.numNestingLevels = 1;
    set.minNestingLevel = 1;
    set.passIndex = 0;
    set.targetNestingLevel = 1;
    if (const CUptiResult r = api_->setConfig(&set); r != CUPTI_SUCCESS)
        return fail("cuptiRangeProfilerSetConfig", r);
    auto start = KW_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
    start.pRangeProfilerObject = enable.pRangeProfilerObject;
    if (const CUptiResult r = api_->start(&start); r != CUPTI_SUCCESS)
        return fail("cuptiRangeProfilerStart", r);
    return true;
}

std::vector<double> CuptiRangeTimes::end()
{
    std::vector<double> launches;
    if (!profiler_)
        return launches;
    auto* profiler = static_cast<CUpti_RangeProfiler_Object*>(profiler_);
    const auto fail = [&](const char* what, CUptiResult r) {
        error_ = std::string(what) + ": " + CuptiLibrary::resultText(r);
        disable();
        return std::vector<double>{};
    };
    auto stop = KW_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
    stop.pRangeProfilerObject = profiler;
    if (const CUptiResult r = api_->stop(&stop); r != CUPTI_SUCCESS)
        return fail("cuptiRangeProfilerStop", r);
    auto decode = KW_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    decode.pRangeProfilerObject = profiler;
    if (const CUptiResult r = api_->decode(&decode); r != CUPTI_SUCCESS)
        return fail("cuptiRangeProfilerDecodeData", r);
    if (decode.numOfRangeDropped > 0) {
        error_ = std::to_string(decode.numOfRangeDropped) + " launches were not profiled (too many for the buffer)";
        disable();
        return launches;
    }
    auto info = KW_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    info.pCounterDataImage = counterData_.data();
    info.counterDataImageSize = counterData_.size();
    if (const CUptiResult r = api_->counterDataInfo(&info); r != CUPTI_SUCCESS)
        return fail("cuptiRangeProfilerGetCounterDataInfo", r);
    const char* metrics[] = {kMetric};
    for (std::size_t i = 0; i < info.numTotalRanges; ++i) {
        double ns = 0;
        auto eval = KW_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
        eval.pHostObject = host_->object;
        eval.pCounterDataImage = counterData_.data();
        eval.counterDataImageSize = counterData_.size();
        eval.rangeIndex = i;
        eval.ppMetricNames = metrics;
        eval.numMetrics = 1;
        eval.pMetricValues = &ns;
        if (const CUptiResult r = api_->evaluate(&eval); r != CUPTI_SUCCESS)
            return fail("cuptiProfilerHostEvaluateToGpuValues", r);
        launches.push_back(ns * 1e-6);
    }
    disable();
    return launches;
}

void CuptiRangeTimes::disable()
{
    if (!profiler_)
        return;
    auto p = KW_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
    p.pRangeProfilerObject = static_cast<CUpti_RangeProfiler_Object*>(profiler_);
    api_->disable(&p);
    profiler_ = nullptr;
}

} // namespace kw::cuda
