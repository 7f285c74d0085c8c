#include "launch/ResidentBuffers.hpp"

#include "launch/StepwisePass.hpp"

namespace kw {

std::unique_ptr<RecordedPass> ResidentBuffers::record(std::vector<ResidentOp> ops)
{
    return std::make_unique<StepwisePass>(*this, std::move(ops));
}

} // namespace kw
