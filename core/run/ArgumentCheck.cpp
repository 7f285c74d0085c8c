#include "run/ArgumentCheck.hpp"

#include "data/CVectorType.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

namespace kw {

namespace {

std::string argLabel(const std::vector<ArgSpec>& specs, std::size_t i)
{
    if (i < specs.size() && !specs[i].name.empty())
        return fmt::format("args[{}] ({})", i, specs[i].name);
    return fmt::format("args[{}]", i);
}

} // namespace

std::vector<std::string> ArgumentCheck::check(const std::string& kernel, const PtxEntry& entry,
                                              const KernelSignature* signature, const std::vector<ArgSpec>& specs,
                                              const std::vector<LaunchArg>& args, const std::vector<BufferArg>& buffers)
{
    std::vector<std::string> warnings;
    if (args.size() != entry.params.size())
        throw Error(ErrorCategory::Document,
                    fmt::format("args: {} arguments given but kernel {} has {} parameters", args.size(), kernel,
                                entry.params.size()));
    if (signature && signature->params.size() != entry.params.size())
        signature = nullptr; // the source parser and PTX disagree (macros?): trust the PTX sizes

    for (std::size_t i = 0; i < args.size(); ++i) {
        const LaunchArg& a = args[i];
        const PtxParam& p = entry.params[i];
        const KernelParam* sp = signature ? &signature->params[i] : nullptr;
        const std::string label = argLabel(specs, i);
        if (a.isBuffer) {
            if (a.buffer >= buffers.size())
                throw Error(ErrorCategory::Internal,
                            fmt::format("{}: refers to buffer {} of {}", label, a.buffer, buffers.size()));
            const std::string& bname = buffers[a.buffer].name;
            if (p.size != 8)
                throw Error(ErrorCategory::Document,
                            fmt::format("{}: buffer {} is passed as a pointer (8 bytes) but parameter {} "
                                        "of {} is {} bytes",
                                        label, bname, i, kernel, p.size));
            if (sp && !sp->isPointer)
                throw Error(ErrorCategory::Document,
                            fmt::format("{}: buffer {} is passed to parameter {} ({} {}), which is not a "
                                        "pointer",
                                        label, bname, i, sp->type, sp->name));
            if (sp) {
                const auto pointee = dtypeForCType(sp->baseType);
                const DType have = buffers[a.buffer].data.dtype();
                if (pointee && *pointee != have)
                    warnings.push_back(fmt::format("{}: buffer {} holds {} but parameter {} is {}", label, bname,
                                                   toString(have), sp->name, sp->type));
                if (!pointee && sp->pointerDepth == 1 && sp->baseType != "void" && !vectorTypeOf(sp->baseType))
                    warnings.push_back(fmt::format("{}: parameter {} points to {}, whose size is not known here: "
                                                   "the size of buffer {} cannot be checked against it",
                                                   label, sp->name, sp->baseType, bname));
            }
        } else {
            if (a.bytes.size() != p.size)
                throw Error(ErrorCategory::Document,
                            fmt::format("{}: the scalar is {} bytes{} but parameter {} of {} is {} bytes{}", label,
                                        a.bytes.size(),
                                        i < specs.size() ? fmt::format(" ({})", toString(specs[i].type)) : "", i,
                                        kernel, p.size, sp ? fmt::format(" ({})", sp->type) : ""));
            if (sp && sp->isPointer && !(i < specs.size() && specs[i].null))
                throw Error(ErrorCategory::Document,
                            fmt::format("{}: a scalar is passed to pointer parameter {} ({}); pass a buffer", label,
                                        sp->name, sp->type));
        }
    }
    return warnings;
}

} // namespace kw
