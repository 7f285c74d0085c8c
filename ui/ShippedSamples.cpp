#include "ShippedSamples.hpp"

#include "TrustStore.hpp"

#include <kw/ShippedSampleHashes.hpp>

#include <algorithm>
#include <iterator>

namespace kw {

namespace {

bool known(const QString& hash)
{
    const QByteArray h = hash.toLatin1();
    return !h.isEmpty()
        && std::any_of(std::begin(kShippedSampleHashes), std::end(kShippedSampleHashes),
                       [&](const char* s) { return h == s; });
}

} // namespace

bool ShippedSamples::shipped(const QByteArray& content, const std::vector<BroughtFile>& files)
{
    return known(TrustStore::hashOf(content)) && std::all_of(files.begin(), files.end(), [](const BroughtFile& f) {
               return known(TrustStore::hashOfFile(f.path));
           });
}

} // namespace kw
