#pragma once
// libcupti, opened at run time once per process (as libcuda is), so a machine without it
// still runs. Every CUPTI user (activity records, the range profiler) takes its entry
// points from this one handle. KWB_CUPTI=0 keeps it closed.
#include <string>

namespace kw {
class DynamicLibrary;
}

namespace kw::cuda {

class CuptiLibrary {
public:
    // The library, or null with reason() saying why.
    static const DynamicLibrary* get();
    static const std::string& reason();
    // CUPTI's words for a result code ("CUPTI error N" where it has none).
    static std::string resultText(int result);
};

} // namespace kw::cuda
