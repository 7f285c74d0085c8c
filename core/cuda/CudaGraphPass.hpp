#pragma once
// Recorded passes of a document's loop as one CUDA graph (launch/RecordedPass): built from
// nodes in the order of the ops, each node after the one before, so it runs exactly as
// the ops do one after another on the stream. A launch is a kernel node, a copy a memcpy
// node, a fill a memset node (elements of 1, 2 or 4 bytes) or an upload of the element
// and doubling copies (other sizes), as CudaResidentBuffers::fill does it.
#include "cuda/CudaBackend.hpp"
#include "cuda/PinnedHostMemory.hpp"
#include "launch/RecordedPass.hpp"

#include <functional>
#include <vector>

namespace kw::cuda {

class CudaGraphPass : public RecordedPass {
public:
    // `placed`: the resident buffers as the ops name them (outlives this); `abandon` lets
    // their memory go unfreed after a kernel that outlived its time limit.
    CudaGraphPass(CudaBackend& backend, const std::vector<CudaBackend::Placed>& placed, std::vector<ResidentOp> ops,
                  std::function<void()> abandon);
    ~CudaGraphPass() override;
    CudaGraphPass(const CudaGraphPass&) = delete;
    CudaGraphPass& operator=(const CudaGraphPass&) = delete;

    std::string how() const override;
    std::size_t size() const override { return ops_.size(); }
    // Sets the kernel nodes' dimensions and arguments in the instantiated graph; copies and
    // fills must be the recorded ones.
    bool update(const std::vector<ResidentOp>& ops) override;
    // Launches the graph `times` times on the backend's stream between two events, the
    // time measured for all of them together.
    ReplayReport replay(std::size_t times, double timeLimitSeconds) override;

private:
    struct KernelNode {
        const CudaBackend::Loaded* fn = nullptr;
        CUDA_KERNEL_NODE_PARAMS_v1 params{};
    };
    // The node of a launch; `pointers` holds the buffer arguments' values while it is added.
    KernelNode kernelNode(const ResidentOp& op, std::vector<CUdeviceptr>& pointers, std::vector<void*>& params);
    CUgraphNode add(CUgraphNode after, const ResidentOp& op);

    CudaBackend& backend_;
    const std::vector<CudaBackend::Placed>& placed_;
    std::vector<ResidentOp> ops_;
    std::function<void()> abandon_;
    std::vector<CUgraphNode> nodes_; // each op's (last) node; null for an empty copy or fill
    std::vector<PinnedHostMemory> elements_;
    CUgraph graph_ = nullptr;
    CUgraphExec exec_ = nullptr;
    std::size_t nodeCount_ = 0;
    const CudaBackend::Loaded* anyKernel_ = nullptr; // for a fault's report
    bool anyTrap_ = false;
};

} // namespace kw::cuda
