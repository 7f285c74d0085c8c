// The NVRTC log parser.
#include "FuzzInput.hpp"
#include "compile/DiagnosticParser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    kw::fuzz::refusalsOnly([&] { (void)kw::parseNvrtcLog(kw::fuzz::text(data, size)); });
    return 0;
}
