#include "views/MinMaxDecimator.hpp"

#include "views/BufferValues.hpp"

namespace kw {

MinMaxDecimator::Output MinMaxDecimator::decimate(const HostBuffer& data, double xFrom, double xTo,
                                                  int columns)
{
    Output out;
    visitValues(data, [&](auto get) { out = decimate(get, data.count(), xFrom, xTo, columns); });
    return out;
}

} // namespace kw
