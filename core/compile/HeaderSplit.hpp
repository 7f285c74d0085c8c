#pragma once
// The document's own headers split like its source: a common.h with a host launcher, a
// host helper or an #include <cublas_v2.h> would otherwise reach NVRTC whole. Each header
// that has host code goes to NVRTC in memory, under the name its #include spells, with
// HostCodeFilter's blanks and then those NVRTC's verdict asks for (NvrtcHostRemoval);
// a header it leaves alone is read as before. Every removal is a note in that header.
#include "compile/Diagnostic.hpp"
#include "compile/HostCodeFilter.hpp"
#include "compile/IncludeGate.hpp"
#include "compile/IncludeScanner.hpp"

#include <string>
#include <vector>

namespace kw {

class HeaderSplit {
public:
    // Untrusted: the gate's headers, already in memory (filtered in place).
    explicit HeaderSplit(std::vector<InMemoryHeader>& inMemory);
    // Trusted: the files the scanner found; those with host code are added to `inMemory`
    // (a name two files share is left to NVRTC, which tells them apart by folder).
    HeaderSplit(const std::vector<IncludedFile>& files, std::vector<InMemoryHeader>& inMemory);

    // Blanks the declarations `diagnostics` call host code in a header; false when none.
    bool removeNamed(const std::vector<Diagnostic>& diagnostics);
    std::vector<Diagnostic> notes() const;
    // Diagnostics in a trusted header sent in memory name its file on disk again.
    void nameFiles(std::vector<Diagnostic>& diagnostics) const;

private:
    struct Split {
        std::string name; // as NVRTC names the file in diagnostics
        std::string path; // on disk, for a trusted header not yet in memory
        std::string spelled;
        std::string text;
        std::vector<HostCodeRange> removed;
        bool inMemory = false;
    };
    void publish(Split& s);

    std::vector<InMemoryHeader>& inMemory_;
    std::vector<Split> splits_;
};

} // namespace kw
