#pragma once
// What an exported program needs from a document, worked out once for every target:
// the source as a file (and the document's own headers beside it), the compile options,
// each buffer's initial contents (a formula or baked values), the launch or steps and
// the checks. The exporters only write it down.
#include "compile/HostCodeFilter.hpp"
#include "doc/Document.hpp"
#include "doc/PreparedRun.hpp"
#include "export/InitialiserTranslation.hpp"

#include <string>
#include <utility>
#include <vector>

namespace kw::exporting {

struct ExportBuffer {
    std::string name;
    DType dtype = DType::F32;
    std::size_t count = 0;
    std::vector<std::size_t> shape; // NumPy order; {count} for 1-D
    Direction direction = Direction::InOut;
    bool global = false;                                        // fills the module variable of its name
    InitialValues init;                                         // a formula, or baked
    HostBuffer initial;                                         // the document's exact initial contents
    bool written() const { return direction != Direction::In; } // as kwb-run run --out writes it
};

struct ExportSource {
    std::string fileName; // the document's name for it (kernel.cu when inline)
    std::string text;     // as the document has it, or with host code blanked
    std::vector<HostCodeRange> blanked;
    std::vector<std::pair<std::string, std::string>> headers; // the document's own: path in the folder, text
    std::vector<std::string> headersLeftOut;                  // included from outside the document's folder
};

class ExportPlan {
public:
    // `doc` must have passed DocumentValidator. Throws kw::Error naming the field for
    // what cannot be evaluated.
    static ExportPlan make(const Document& doc);

    const Document& document() const { return doc_; }
    const PreparedRun& prepared() const { return prepared_; }
    const std::vector<ExportBuffer>& buffers() const { return buffers_; }
    const ExportSource& source() const { return source_; }
    // NVRTC's options: the document's, numeric defines evaluated, plus -lineinfo; no
    // -arch unless the document names one (the program compiles for its GPU).
    const std::vector<std::string>& nvrtcOptions() const { return nvrtcOptions_; }
    // The kernels by name expression (instantiations as written: "scale<float,4>").
    std::vector<std::string> kernels() const { return doc_.kernelNames(); }
    // Whether the checks read a buffer's contents before the run (`name_in`).
    bool checksUseInitialData() const { return usesInitial_; }
    std::size_t bufferIndex(const std::string& name) const;
    // A C/Python identifier made of a document name ("time steps" -> "time_steps").
    static std::string identifier(const std::string& name);

private:
    Document doc_;
    PreparedRun prepared_;
    std::vector<ExportBuffer> buffers_;
    ExportSource source_;
    std::vector<std::string> nvrtcOptions_;
    bool usesInitial_ = false;
};

} // namespace kw::exporting
