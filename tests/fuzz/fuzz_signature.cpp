// The kernel signature parser, and instantiation of what it finds with the last line.
#include "FuzzInput.hpp"
#include "compile/SignatureParser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view in = kw::fuzz::text(data, size);
    kw::fuzz::refusalsOnly([&] {
        const auto kernels = kw::parseKernelSignatures(in);
        const std::size_t nl = in.rfind('\n');
        const std::string_view last = nl == std::string_view::npos ? in : in.substr(nl + 1);
        for (const auto& k : kernels)
            kw::fuzz::refusalsOnly([&] { (void)kw::instantiate(k, last); });
        (void)kw::parseKernelParam(last);
    });
    return 0;
}
