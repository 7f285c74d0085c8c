#pragma once
// Cross-checks the arguments a document passes against the kernel's PTX .entry
// parameters (and its C signature where known), so a wrong argument is never
// passed silently: pointer parameters take 8 bytes, a scalar must have the size
// of the parameter it fills.
#include "compile/KernelSignature.hpp"
#include "doc/Document.hpp"
#include "launch/LaunchTypes.hpp"

#include <string>
#include <vector>

namespace kw {

class ArgumentCheck {
public:
    // Throws kw::Error(Document) naming args[i] and both sizes. `signature` may be
    // null (then only the sizes are compared). Returns warnings for legal but
    // suspicious arguments (a buffer's dtype differing from the pointee type).
    static std::vector<std::string> check(const std::string& kernel, const PtxEntry& entry,
                                          const KernelSignature* signature, const std::vector<ArgSpec>& specs,
                                          const std::vector<LaunchArg>& args, const std::vector<BufferArg>& buffers);
};

} // namespace kw
