#include "compile/SplitCompileBound.hpp"

#include <algorithm>
#include <charconv>
#include <thread>

namespace kw {

namespace {

bool isSplitCompile(const std::string& a)
{
    const std::size_t eq = a.find('=');
    return eq != std::string::npos
        && (a.compare(0, eq, "--split-compile") == 0 || a.compare(0, eq, "-split-compile") == 0);
}

} // namespace

std::vector<Diagnostic> SplitCompileBound::apply(std::vector<std::string>& args, unsigned cores,
                                                 const std::string& sourceName)
{
    std::vector<Diagnostic> notes;
    for (std::string& a : args) {
        if (!isSplitCompile(a))
            continue;
        const std::size_t eq = a.find('=');
        unsigned long long n = 0;
        const char* first = a.data() + eq + 1;
        const char* last = a.data() + a.size();
        const auto [end, ec] = std::from_chars(first, last, n);
        // Not a plain number: NVRTC itself refuses it, in its words.
        if (ec == std::errc::result_out_of_range || (ec == std::errc() && end == last && n > cores)) {
            notes.push_back({sourceName,
                             0,
                             0,
                             Severity::Note,
                             "\"" + a + "\" asks for more threads than this machine's " + std::to_string(cores)
                                 + " cores: compiled with --split-compile=" + std::to_string(cores),
                             {},
                             {}});
            a = a.substr(0, eq + 1) + std::to_string(cores);
        }
    }
    return notes;
}

bool SplitCompileBound::remove(std::vector<std::string>& args)
{
    const auto before = args.size();
    args.erase(std::remove_if(args.begin(), args.end(), isSplitCompile), args.end());
    return args.size() != before;
}

unsigned SplitCompileBound::machineCores() { return std::max(1u, std::thread::hardware_concurrency()); }

} // namespace kw
