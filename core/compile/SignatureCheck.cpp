#include "compile/SignatureCheck.hpp"

#include <map>

namespace kw {

std::size_t paramTypeSize(std::string_view baseType)
{
#ifdef _WIN32
    constexpr std::size_t longSize = 4; // NVRTC follows the host's LLP64 model
#else
    constexpr std::size_t longSize = 8;
#endif
    static const std::map<std::string_view, std::size_t> sizes = {{"bool", 1},
                                                                  {"char", 1},
                                                                  {"signed char", 1},
                                                                  {"unsigned char", 1},
                                                                  {"int8_t", 1},
                                                                  {"uint8_t", 1},
                                                                  {"std::int8_t", 1},
                                                                  {"std::uint8_t", 1},
                                                                  {"char2", 2},
                                                                  {"uchar2", 2},
                                                                  {"char4", 4},
                                                                  {"uchar4", 4},
                                                                  {"short", 2},
                                                                  {"short int", 2},
                                                                  {"unsigned short", 2},
                                                                  {"unsigned short int", 2},
                                                                  {"int16_t", 2},
                                                                  {"uint16_t", 2},
                                                                  {"std::int16_t", 2},
                                                                  {"std::uint16_t", 2},
                                                                  {"__half", 2},
                                                                  {"half", 2},
                                                                  {"__nv_bfloat16", 2},
                                                                  {"short2", 4},
                                                                  {"ushort2", 4},
                                                                  {"short4", 8},
                                                                  {"ushort4", 8},
                                                                  {"__half2", 4},
                                                                  {"half2", 4},
                                                                  {"__nv_bfloat162", 4},
                                                                  {"int", 4},
                                                                  {"signed", 4},
                                                                  {"signed int", 4},
                                                                  {"unsigned", 4},
                                                                  {"unsigned int", 4},
                                                                  {"float", 4},
                                                                  {"int32_t", 4},
                                                                  {"uint32_t", 4},
                                                                  {"std::int32_t", 4},
                                                                  {"std::uint32_t", 4},
                                                                  {"int2", 8},
                                                                  {"uint2", 8},
                                                                  {"float2", 8},
                                                                  {"int3", 12},
                                                                  {"uint3", 12},
                                                                  {"float3", 12},
                                                                  {"dim3", 12},
                                                                  {"int4", 16},
                                                                  {"uint4", 16},
                                                                  {"float4", 16},
                                                                  {"uint", 4},
                                                                  {"ushort", 2},
                                                                  {"ulong", longSize},
                                                                  {"long", longSize},
                                                                  {"long int", longSize},
                                                                  {"unsigned long", longSize},
                                                                  {"unsigned long int", longSize},
                                                                  {"long long", 8},
                                                                  {"long long int", 8},
                                                                  {"unsigned long long", 8},
                                                                  {"unsigned long long int", 8},
                                                                  {"double", 8},
                                                                  {"int64_t", 8},
                                                                  {"uint64_t", 8},
                                                                  {"std::int64_t", 8},
                                                                  {"std::uint64_t", 8},
                                                                  {"size_t", 8},
                                                                  {"std::size_t", 8},
                                                                  {"ptrdiff_t", 8},
                                                                  {"std::ptrdiff_t", 8},
                                                                  {"intptr_t", 8},
                                                                  {"uintptr_t", 8},
                                                                  {"longlong2", 16},
                                                                  {"ulonglong2", 16},
                                                                  {"double2", 16},
                                                                  {"double3", 24},
                                                                  {"double4", 32},
                                                                  {"longlong4", 32},
                                                                  {"ulonglong4", 32},
                                                                  {"cudaTextureObject_t", 8},
                                                                  {"cudaSurfaceObject_t", 8}};
    auto it = sizes.find(baseType);
    return it == sizes.end() ? 0 : it->second;
}

std::vector<std::string> crossCheck(const KernelSignature& kernel, const PtxEntry& entry)
{
    std::vector<std::string> problems;
    if (kernel.params.size() != entry.params.size()) {
        problems.push_back("kernel '" + kernel.name + "' has " + std::to_string(kernel.params.size())
                           + " parameters in the source but " + std::to_string(entry.params.size()) + " in PTX entry '"
                           + entry.name + "'");
        return problems;
    }
    for (std::size_t i = 0; i < kernel.params.size(); ++i) {
        const KernelParam& p = kernel.params[i];
        std::size_t want = p.isPointer ? 8 : paramTypeSize(p.baseType);
        std::size_t got = entry.params[i].size;
        if (want != 0 && want != got) {
            std::string label = p.name.empty() ? "#" + std::to_string(i + 1) : "'" + p.name + "'";
            problems.push_back("kernel '" + kernel.name + "' parameter " + label + " (" + p.type + ") takes "
                               + std::to_string(want) + " bytes but PTX entry '" + entry.name + "' expects "
                               + std::to_string(got));
        }
    }
    return problems;
}

} // namespace kw
