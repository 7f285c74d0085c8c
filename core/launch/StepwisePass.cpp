#include "launch/StepwisePass.hpp"

namespace kw {

StepwisePass::StepwisePass(ResidentBuffers& buffers, std::vector<ResidentOp> ops, std::string why)
    : buffers_(buffers)
    , ops_(std::move(ops))
    , why_(std::move(why))
{
}

std::string StepwisePass::how() const { return why_.empty() ? std::string() : "step by step: " + why_; }

bool StepwisePass::update(const std::vector<ResidentOp>& ops)
{
    if (ops.size() != ops_.size())
        return false;
    for (std::size_t i = 0; i < ops.size(); ++i)
        if (ops[i].kind != ops_[i].kind || ops[i].kernel != ops_[i].kernel)
            return false;
    ops_ = ops;
    return true;
}

ReplayReport StepwisePass::replay(std::size_t times, [[maybe_unused]] double timeLimitSeconds)
{
    ReplayReport report; // each launch keeps its own time limit
    for (std::size_t t = 0; t < times; ++t) {
        for (std::size_t i = 0; i < ops_.size(); ++i) {
            const ResidentOp& op = ops_[i];
            switch (op.kind) {
            case ResidentOp::Kind::Copy: buffers_.copy(op.from, op.fromOffset, op.to, op.toOffset, op.bytes); break;
            case ResidentOp::Kind::Fill: buffers_.fill(op.to, op.toOffset, op.element, op.count); break;
            case ResidentOp::Kind::Launch: {
                LaunchReport r = buffers_.launch(*op.kernel, op.args, op.config);
                report.launchMs.push_back(r.timings.firstLaunchMs);
                report.ms += r.timings.firstLaunchMs;
                report.warnings.insert(report.warnings.end(), r.warnings.begin(), r.warnings.end());
                if (r.fault || !r.ok) {
                    report.ok = false;
                    report.fault = r.fault;
                    report.faultOp = i;
                    return report;
                }
                break;
            }
            }
        }
    }
    return report;
}

} // namespace kw
