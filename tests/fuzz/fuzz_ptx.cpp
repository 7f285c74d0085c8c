// The simulator's PTX parser and decoder.
#include "FuzzInput.hpp"
#include "sim/PtxParser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    kw::fuzz::refusalsOnly([&] { (void)kw::sim::parsePtx(kw::fuzz::text(data, size)); });
    return 0;
}
