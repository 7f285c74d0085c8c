#pragma once
// Checks a document's meaning once its JSON shape is known to be right: the
// kernel exists, arguments match its parameters, every expression evaluates,
// sizes and shapes agree, files exist. Initialiser data is not generated
// (files are read, to check their element count).
#include "compile/KernelSignature.hpp"
#include "doc/Document.hpp"
#include "doc/VariableScope.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace kw {

class DocumentValidator {
public:
    // Throws kw::Error(Document) with one message naming the field and why.
    static void validate(const Document& doc);

    // The check `index` of `doc.checks` alone, as validate() checks it (its buffer, its
    // tolerances, its expressions against the names a check has): live validation in
    // the window. Throws kw::Error(Document) naming "checks[index]" and the field.
    // With `step` (a path, "3.1"): the check `index` of that step's checks, with the
    // names in scope there (a repeat's index), named "steps[2].steps[0].checks[index]".
    static void validateCheck(const Document& doc, std::size_t index, const std::string& step = {});

    // The kernel's signature (template parameters substituted for an instantiation
    // such as "scale<float,128>"). Throws kw::Error(Document) naming `kernel`.
    static KernelSignature kernelSignature(const Document& doc);
    // The same for `kernel` of the document's source, naming `field` in errors ("kernels[1]").
    static KernelSignature kernelSignature(const Document& doc, const std::string& kernel, const std::string& field);

    // `args` against `kernel`'s parameters: one each, buffers for pointers of a size that
    // fits, scalars of the parameter's type whose value evaluates in `scope`. `field`
    // names the list ("args", "steps[2].args").
    static void validateArgs(const Document& doc, const KernelSignature& kernel, const std::vector<ArgSpec>& args,
                             const std::string& field, const VariableScope& scope);

    // The __global__ functions of `source` and of the files in `folder` it includes
    // (found as the include gate finds them), each with the file it lives in.
    static std::vector<KernelSignature> kernels(const std::string& source, const std::filesystem::path& folder,
                                                const std::string& sourceName);
};

} // namespace kw
