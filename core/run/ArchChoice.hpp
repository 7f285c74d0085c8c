#pragma once
// The architecture a compile is for: the one asked for (--arch, or the arch of the
// device a serve request names), else the document's own, else CUBIN for the first
// GPU here, else none: PTX for NVRTC's default virtual architecture, no GPU needed.
#include <functional>
#include <string>

namespace kw {

class ArchChoice {
public:
    // What the choice asks of the machine, and only when it gets that far.
    struct Gpus {
        std::function<bool()> present;          // a GPU is here
        std::function<std::string()> firstArch; // the arch of cuda:0
    };
    // The driver's answers: a GPU is counted; sm_XY of cuda:0, queried without
    // opening a context.
    static Gpus ofThisMachine();

    static std::string choose(const std::string& asked, const std::string& documentArch,
                              const Gpus& gpus = ofThisMachine());
};

} // namespace kw
