#pragma once
// A recorded pass replayed one operation at a time through the buffers' own copy, fill
// and launch: what a backend without graphs records, and the fall-back of one that has.
#include "launch/RecordedPass.hpp"
#include "launch/ResidentBuffers.hpp"

namespace kw {

class StepwisePass : public RecordedPass {
public:
    // `why`: the note for the run, empty when replaying one at a time is the backend's way.
    StepwisePass(ResidentBuffers& buffers, std::vector<ResidentOp> ops, std::string why = {});

    std::string how() const override;
    std::size_t size() const override { return ops_.size(); }
    bool update(const std::vector<ResidentOp>& ops) override;
    ReplayReport replay(std::size_t times, double timeLimitSeconds) override;

private:
    ResidentBuffers& buffers_;
    std::vector<ResidentOp> ops_;
    std::string why_;
};

} // namespace kw
