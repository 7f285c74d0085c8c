#include "compile/ContentHash.hpp"

#include <cstring>

namespace kw {

namespace {

std::uint64_t fmix(std::uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}

} // namespace

std::uint64_t contentHash(std::string_view data, std::uint64_t seed)
{
    std::uint64_t h = seed ^ (data.size() * 0x9e3779b97f4a7c15ull);
    std::size_t i = 0;
    for (; i + 8 <= data.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, data.data() + i, 8);
        h = (h ^ fmix(w + 0x9e3779b97f4a7c15ull)) * 0x87c37b91114253d5ull;
        h = (h << 31) | (h >> 33);
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, data.data() + i, data.size() - i);
    h ^= fmix(tail ^ 0x4cf5ad432745937full);
    return fmix(h);
}

} // namespace kw
