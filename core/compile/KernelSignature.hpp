#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace kw {

// One parameter of a __global__ function as the arguments panel needs it.
struct KernelParam {
    std::string name;     // may be empty for unnamed parameters
    std::string type;     // C type as written, normalised spacing: "const float *"
    std::string baseType; // pointee or value type without qualifiers: "float"
    bool isPointer = false;
    bool isConst = false; // pointee const for pointers
    bool isRestrict = false;
    int pointerDepth = 0; // 2 for "float**"; array parameters count as pointers
};

struct KernelSignature {
    std::string name;                        // "scale"
    std::vector<std::string> templateParams; // {"typename T", "int N"}; empty if not a template
    std::vector<KernelParam> params;
    int line = 0;     // 1-based line of the kernel's name
    std::string file; // where it lives: empty for the source itself, else an included file
};

// One .entry of a PTX module: the lowered name and each parameter's byte size and alignment.
struct PtxParam {
    std::size_t size = 0;
    std::size_t align = 0;
    bool isPointerSized = false; // .u64 / .b64 scalar that may hold a pointer
};
struct PtxEntry {
    std::string name;
    std::vector<PtxParam> params;
};

} // namespace kw
