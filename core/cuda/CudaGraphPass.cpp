#include "cuda/CudaGraphPass.hpp"

#include "cuda/Context.hpp"
#include "cuda/DriverApi.hpp"
#include "cuda/Event.hpp"
#include "cuda/Stream.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <cstring>
#include <set>

namespace kw::cuda {

namespace {

bool sameMove(const ResidentOp& a, const ResidentOp& b)
{
    return a.from == b.from && a.fromOffset == b.fromOffset && a.to == b.to && a.toOffset == b.toOffset
        && a.bytes == b.bytes && a.count == b.count && a.element == b.element;
}

bool sameShape(const std::vector<LaunchArg>& a, const std::vector<LaunchArg>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].isBuffer != b[i].isBuffer || a[i].bytes.size() != b[i].bytes.size())
            return false;
    return true;
}

} // namespace

CudaGraphPass::CudaGraphPass(CudaBackend& backend, const std::vector<CudaBackend::Placed>& placed,
                             std::vector<ResidentOp> ops, std::function<void()> abandon)
    : backend_(backend)
    , placed_(placed)
    , ops_(std::move(ops))
    , abandon_(std::move(abandon))
{
    backend_.checkUsable();
    backend_.context_->makeCurrent();
    const DriverApi& api = DriverApi::get();
    api.check(api.cuGraphCreate(&graph_, 0), "cuGraphCreate");
    try {
        CUgraphNode last = nullptr;
        for (const ResidentOp& op : ops_) {
            CUgraphNode node = add(last, op);
            nodes_.push_back(node);
            if (node)
                last = node;
        }
        api.check(api.cuGraphInstantiateWithFlags(&exec_, graph_, 0), "cuGraphInstantiateWithFlags",
                  fmt::format("a graph of {} nodes", nodeCount_));
    } catch (...) {
        api.cuGraphDestroy(graph_); // no destructor runs for a constructor that throws
        throw;
    }
}

CudaGraphPass::~CudaGraphPass()
{
    if (backend_.stillRunning())
        return; // any driver call could block: the process ends next
    const DriverApi& api = DriverApi::get();
    if (exec_)
        api.cuGraphExecDestroy(exec_);
    if (graph_)
        api.cuGraphDestroy(graph_);
}

std::string CudaGraphPass::how() const
{
    return fmt::format("one CUDA graph of {} operations ({} nodes)", ops_.size(), nodeCount_);
}

CudaGraphPass::KernelNode CudaGraphPass::kernelNode(const ResidentOp& op, std::vector<CUdeviceptr>& pointers,
                                                    std::vector<void*>& params)
{
    LaunchReport ignored;
    KernelNode k;
    // The same refusals as a launch of its own: limits, arguments that do not fit.
    k.fn = &backend_.prepare(*op.kernel, op.args, placed_.size(), op.config, ignored, true);
    params = CudaBackend::parameters(op.args, placed_, pointers);
    CUDA_KERNEL_NODE_PARAMS_v1& p = k.params;
    p.func = k.fn->function;
    p.gridDimX = op.config.grid.x;
    p.gridDimY = op.config.grid.y;
    p.gridDimZ = op.config.grid.z;
    p.blockDimX = op.config.block.x;
    p.blockDimY = op.config.block.y;
    p.blockDimZ = op.config.block.z;
    p.sharedMemBytes = op.config.sharedBytes;
    p.kernelParams = params.data();
    p.extra = nullptr;
    return k;
}

CUgraphNode CudaGraphPass::add(CUgraphNode after, const ResidentOp& op)
{
    const DriverApi& api = DriverApi::get();
    const CUcontext context = backend_.context_->handle();
    CUgraphNode node = nullptr;
    const auto chained = [&](CUresult r, const char* call, const std::string& what) {
        api.check(r, call, what);
        ++nodeCount_;
        after = node;
    };
    const auto deviceCopy = [&](CUdeviceptr to, CUdeviceptr from, std::size_t bytes, const std::string& what) {
        CUDA_MEMCPY3D c{};
        c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
        c.srcDevice = from;
        c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        c.dstDevice = to;
        c.WidthInBytes = bytes;
        c.Height = 1;
        c.Depth = 1;
        chained(api.cuGraphAddMemcpyNode(&node, graph_, after ? &after : nullptr, after ? 1 : 0, &c, context),
                "cuGraphAddMemcpyNode", what);
    };
    switch (op.kind) {
    case ResidentOp::Kind::Launch: {
        std::vector<CUdeviceptr> pointers;
        std::vector<void*> params;
        const KernelNode k = kernelNode(op, pointers, params);
        chained(api.cuGraphAddKernelNode(&node, graph_, after ? &after : nullptr, after ? 1 : 0, &k.params),
                "cuGraphAddKernelNode", "kernel " + op.kernel->name);
        anyKernel_ = k.fn;
        anyTrap_ = anyTrap_ || k.fn->hasTrap;
        return node;
    }
    case ResidentOp::Kind::Copy:
        if (op.bytes == 0)
            return nullptr;
        deviceCopy(placed_[op.to].pointer + op.toOffset, placed_[op.from].pointer + op.fromOffset, op.bytes,
                   "copy " + placed_[op.from].name + " to " + placed_[op.to].name);
        return node;
    case ResidentOp::Kind::Fill: {
        const std::size_t size = op.element.size();
        if (op.count == 0 || size == 0)
            return nullptr;
        const CUdeviceptr at = placed_[op.to].pointer + op.toOffset;
        const std::string what = "fill " + placed_[op.to].name;
        if (size == 1 || size == 2 || size == 4) {
            CUDA_MEMSET_NODE_PARAMS_v1 m{};
            std::uint32_t value = 0;
            std::memcpy(&value, op.element.data(), size); // little-endian: the element's bytes, zero-extended
            m.dst = at;
            m.value = value;
            m.elementSize = unsigned(size);
            m.width = op.count;
            m.height = 1;
            chained(api.cuGraphAddMemsetNode(&node, graph_, after ? &after : nullptr, after ? 1 : 0, &m, context),
                    "cuGraphAddMemsetNode", what);
            return node;
        }
        // The element uploaded from pinned memory the graph keeps, then doubled on the device.
        elements_.emplace_back(size);
        std::memcpy(elements_.back().data(), op.element.data(), size);
        CUDA_MEMCPY3D c{};
        c.srcMemoryType = CU_MEMORYTYPE_HOST;
        c.srcHost = elements_.back().data();
        c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        c.dstDevice = at;
        c.WidthInBytes = size;
        c.Height = 1;
        c.Depth = 1;
        chained(api.cuGraphAddMemcpyNode(&node, graph_, after ? &after : nullptr, after ? 1 : 0, &c, context),
                "cuGraphAddMemcpyNode", what);
        const std::size_t bytes = size * op.count;
        for (std::size_t done = size; done < bytes;) {
            const std::size_t n = std::min(done, bytes - done);
            deviceCopy(at + done, at, n, what);
            done += n;
        }
        return node;
    }
    }
    return nullptr;
}

bool CudaGraphPass::update(const std::vector<ResidentOp>& ops)
{
    if (ops.size() != ops_.size())
        return false;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const ResidentOp &was = ops_[i], &now = ops[i];
        if (was.kind != now.kind || was.kernel != now.kernel)
            return false;
        if (was.kind != ResidentOp::Kind::Launch && !sameMove(was, now))
            return false;
        if (was.kind == ResidentOp::Kind::Launch && !sameShape(was.args, now.args))
            return false;
    }
    backend_.checkUsable();
    backend_.context_->makeCurrent();
    const DriverApi& api = DriverApi::get();
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (ops[i].kind != ResidentOp::Kind::Launch)
            continue;
        std::vector<CUdeviceptr> pointers;
        std::vector<void*> params;
        const KernelNode k = kernelNode(ops[i], pointers, params);
        if (api.cuGraphExecKernelNodeSetParams(exec_, nodes_[i], &k.params) != CUDA_SUCCESS)
            return false; // the ops before it changed already: the caller records afresh
    }
    ops_ = ops;
    return true;
}

ReplayReport CudaGraphPass::replay(std::size_t times, double timeLimitSeconds)
{
    ReplayReport report;
    backend_.checkUsable();
    backend_.context_->makeCurrent();
    const DriverApi& api = DriverApi::get();
    const CUstream stream = backend_.stream_->handle();
    Event start, stop;
    start.record(stream);
    CUresult r = CUDA_SUCCESS;
    for (std::size_t t = 0; t < times && r == CUDA_SUCCESS; ++t)
        r = api.cuGraphLaunch(exec_, stream);
    backend_.launchedAny_ = true;
    if (r == CUDA_SUCCESS) {
        stop.record(stream);
        r = CudaBackend::waitForEvent(stop.handle(), timeLimitSeconds > 0 ? timeLimitSeconds : 1e9);
    }
    if (r != CUDA_SUCCESS) {
        if (!anyKernel_) // copies and fills alone: a driver error, not a kernel's fault
            api.check(r, "cuGraphLaunch", how());
        KernelImage named; // the kernels it may have been
        std::set<std::string> kernels;
        for (const ResidentOp& op : ops_)
            if (op.kind == ResidentOp::Kind::Launch && kernels.insert(op.kernel->name).second)
                named.name += (named.name.empty() ? "" : " or ") + op.kernel->name;
        CudaBackend::Loaded fn = *anyKernel_;
        fn.hasTrap = anyTrap_;
        LaunchConfig config;
        config.timeLimitSeconds = timeLimitSeconds;
        LaunchReport launch;
        backend_.faulted(r, fn, named, config, launch, abandon_);
        report.ok = false;
        report.fault = launch.fault;
        report.warnings = launch.warnings;
        return report;
    }
    report.ms = stop.elapsedSince(start);
    return report;
}

} // namespace kw::cuda
