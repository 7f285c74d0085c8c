#include "compile/TranslationUnitKernels.hpp"

#include "compile/SignatureParser.hpp"

namespace kw {

namespace {

std::string shown(const std::filesystem::path& file, const std::filesystem::path& root)
{
    if (root.empty())
        return file.string();
    std::error_code ec;
    const auto r = std::filesystem::relative(file, std::filesystem::weakly_canonical(root, ec), ec);
    const std::string s = r.generic_string();
    return ec || s.empty() || s.rfind("..", 0) == 0 ? file.string() : s;
}

} // namespace

std::vector<KernelSignature> translationUnitKernels(std::string_view source, const std::vector<IncludedFile>& files,
                                                    const std::filesystem::path& root)
{
    std::vector<KernelSignature> all = parseKernelSignatures(source);
    for (const IncludedFile& f : files) {
        if (f.path.empty() || f.notRegular || f.contents.empty())
            continue;
        for (KernelSignature k : parseKernelSignatures(f.contents)) {
            k.file = shown(f.path, root);
            all.push_back(std::move(k));
        }
    }
    return all;
}

} // namespace kw
