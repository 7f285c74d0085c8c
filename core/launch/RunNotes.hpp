#pragma once
// Warnings that are information only: what a user should know of a run that went
// right, such as the simulator running fewer timed repeats than asked for because
// repeats on the CPU are capped in time. One rule for the backend that words them and
// for whoever shows them (the window as information, kwb-run as "note:").
#include <fmt/format.h>

#include <string>
#include <string_view>

namespace kw {

inline constexpr std::string_view kRepeatCapNote = "sim: ran ";

// The simulator's note: `ran` of `asked` timed repeats fit its `budgetSeconds`.
inline std::string repeatCapNote(int ran, int asked, double msPerLaunch, double budgetSeconds)
{
    return fmt::format("{}{} of {} timed repeats ({:.1f} ms per launch on the CPU; repeats are capped at {:.0f} s); "
                       "the first launch served as warm-up",
                       kRepeatCapNote, ran, asked, msPerLaunch, budgetSeconds);
}

// Whether a run's warning is one of these notes.
inline bool isNote(std::string_view warning) { return warning.starts_with(kRepeatCapNote); }

} // namespace kw
