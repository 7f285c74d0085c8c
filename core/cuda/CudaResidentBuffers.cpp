#include "cuda/CudaResidentBuffers.hpp"

#include "cuda/Context.hpp"
#include "cuda/CudaGraphPass.hpp"
#include "cuda/DriverApi.hpp"
#include "cuda/Event.hpp"
#include "cuda/StagedTransfer.hpp"
#include "cuda/Stream.hpp"
#include "launch/StepwisePass.hpp"
#include "util/Elapsed.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kw::cuda {

CudaResidentBuffers::CudaResidentBuffers(CudaBackend& backend)
    : backend_(backend)
{
}

CudaResidentBuffers::~CudaResidentBuffers()
{
    // A kernel that outlived its time limit may still write here: let the memory go unfreed
    // (the process ends next, and the context with it).
    if (backend_.stillRunning())
        abandonMemory();
}

void CudaResidentBuffers::abandonMemory()
{
    for (auto& m : memory_)
        m.abandon();
}

bool CudaResidentBuffers::recordsGraphs() const { return DriverApi::get().hasGraphs(); }

std::unique_ptr<RecordedPass> CudaResidentBuffers::record(std::vector<ResidentOp> ops)
{
    if (!recordsGraphs())
        return std::make_unique<StepwisePass>(*this, std::move(ops),
                                              "the driver lacks CUDA graphs (cuGraphInstantiateWithFlags, CUDA 11.4)");
    // A buffer that fills a module variable is copied into it before each launch and back
    // after: those copies are not part of the ops.
    for (const CudaBackend::Placed& b : placed_)
        if (!b.global.empty())
            return std::make_unique<StepwisePass>(*this, std::move(ops),
                                                  "buffer " + b.name + " fills the module variable " + b.global
                                                      + ", copied around each launch");
    try {
        return std::make_unique<CudaGraphPass>(backend_, placed_, ops, [this] { abandonMemory(); });
    } catch (const Error& e) {
        // What the driver would not put in a graph still runs, one operation at a time;
        // a launch it refuses is refused there again, with the launch's own message.
        if (!backend_.usable())
            throw;
        return std::make_unique<StepwisePass>(*this, std::move(ops), std::string("no graph: ") + e.what());
    }
}

std::size_t CudaResidentBuffers::add(const BufferArg& buffer)
{
    backend_.checkUsable();
    backend_.context_->makeCurrent();
    const std::size_t bytes = buffer.data.byteSize();
    memory_.emplace_back(bytes, buffer.name);
    placed_.push_back({buffer.name, buffer.global, buffer.direction, bytes, memory_.back().pointer()});
    backend_.transfer_->upload(buffer.data.data(), memory_.back().pointer(), bytes, backend_.stream_->handle(),
                               buffer.name);
    return placed_.size() - 1;
}

void CudaResidentBuffers::read(std::size_t index, HostBuffer& into)
{
    backend_.checkUsable();
    backend_.context_->makeCurrent();
    if (index >= placed_.size())
        throw Error(ErrorCategory::Internal, fmt::format("resident buffer {} of {}", index, placed_.size()));
    const CudaBackend::Placed& b = placed_[index];
    if (into.byteSize() != b.bytes)
        throw Error(ErrorCategory::Internal,
                    fmt::format("buffer {} is {} bytes on the device but {} bytes asked for", b.name, b.bytes,
                                into.byteSize()));
    backend_.transfer_->download(b.pointer, into.data(), b.bytes, backend_.stream_->handle(), b.name);
}

void CudaResidentBuffers::copy(std::size_t from, std::size_t fromOffset, std::size_t to, std::size_t toOffset,
                               std::size_t bytes)
{
    backend_.checkUsable();
    backend_.context_->makeCurrent();
    if (from >= placed_.size() || to >= placed_.size() || fromOffset + bytes > placed_[from].bytes
        || toOffset + bytes > placed_[to].bytes)
        throw Error(ErrorCategory::Internal, "a copy outside the resident buffers");
    if (bytes == 0)
        return;
    const DriverApi& api = DriverApi::get();
    api.check(api.cuMemcpyDtoDAsync(placed_[to].pointer + toOffset, placed_[from].pointer + fromOffset, bytes,
                                    backend_.stream_->handle()),
              "cuMemcpyDtoDAsync", "copy " + placed_[from].name + " to " + placed_[to].name);
}

void CudaResidentBuffers::fill(std::size_t index, std::size_t offset, const std::vector<std::byte>& element,
                               std::size_t count)
{
    backend_.checkUsable();
    backend_.context_->makeCurrent();
    const std::size_t bytes = count * element.size();
    if (index >= placed_.size() || offset + bytes > placed_[index].bytes)
        throw Error(ErrorCategory::Internal, "a fill outside the resident buffers");
    if (count == 0)
        return;
    // One element up, then doubling copies on the device: log2(count) copies, whatever the
    // element's size (the driver's memsets stop at 4 bytes).
    const CUdeviceptr at = placed_[index].pointer + offset;
    backend_.transfer_->upload(element.data(), at, element.size(), backend_.stream_->handle(), placed_[index].name);
    const DriverApi& api = DriverApi::get();
    for (std::size_t done = element.size(); done < bytes;) {
        const std::size_t n = std::min(done, bytes - done);
        api.check(api.cuMemcpyDtoDAsync(at + done, at, n, backend_.stream_->handle()), "cuMemcpyDtoDAsync",
                  "fill " + placed_[index].name);
        done += n;
    }
}

LaunchReport CudaResidentBuffers::launch(const KernelImage& kernel, const std::vector<LaunchArg>& args,
                                         const LaunchConfig& config)
{
    LaunchReport report;
    const CudaBackend::Loaded& fn = backend_.prepare(kernel, args, placed_.size(), config, report, true);
    backend_.findVariables(fn, placed_);
    backend_.copyVariables(placed_, true);
    std::vector<CUdeviceptr> pointers;
    std::vector<void*> params = CudaBackend::parameters(args, placed_, pointers);
    const auto abandon = [this] { abandonMemory(); };
    Event start, stop;
    if (backend_.faulted(backend_.launchAndWait(fn, kernel, config, params, start, stop), fn, kernel, config, report,
                         abandon))
        return report;
    report.timings.firstLaunchMs = stop.elapsedSince(start);
    if (backend_.printf_) {
        if (backend_.faulted(DriverApi::get().cuCtxSynchronize(), fn, kernel, config, report, abandon))
            return report;
        backend_.collectPrintf(report);
    }
    backend_.copyVariables(placed_, false);
    report.timings.repeatMs = {report.timings.firstLaunchMs};
    report.timings.minMs = report.timings.medianMs = report.timings.meanMs = report.timings.firstLaunchMs;
    report.timings.detail.method = "cuda events";
    return report;
}

} // namespace kw::cuda
