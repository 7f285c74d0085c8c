#pragma once
// What compute-sanitizer's own text (its --log-file) says: how many errors it found
// in all (the XML lists at most --print-limit of them) and its first message, for
// when the XML report lists nothing or is missing.
//   ========= COMPUTE-SANITIZER
//   ========= Invalid __global__ write of size 4 bytes
//   ...
//   ========= ERROR SUMMARY: 65 errors
//   ========= RACECHECK SUMMARY: 100 hazards displayed (257 errors, 0 warnings)
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kw {

struct SanitizerLog {
    std::optional<std::uint64_t> errors; // from the summary line
    std::string firstMessage;            // the first line after the banner, without "========= "

    static SanitizerLog parse(std::string_view text);
};

} // namespace kw
