#include "serve/RunnerFailure.hpp"

#include <string_view>

namespace kw {

namespace {

bool has(const std::string& text, std::string_view what) { return text.find(what) != std::string::npos; }

std::string lastLine(const std::string& text)
{
    const auto nl = text.find_last_of('\n');
    return nl == std::string::npos ? text : text.substr(nl + 1);
}

} // namespace

std::string RunnerFailure::describe(const std::string& command, const std::string& how, const std::string& err)
{
    std::string hint;
    if (has(err, "Host key verification failed") || has(err, "REMOTE HOST IDENTIFICATION HAS CHANGED"))
        hint = "ssh does not know this host's key: connect once with ssh in a terminal to check and accept it";
    else if (has(err, "Permission denied") || has(err, "read_passphrase") || has(err, "can't open /dev/tty"))
        hint = "ssh could not log in without asking for a password: install an SSH key for this host "
               "(ssh-copy-id) and load it into the agent";
    else if (has(err, "Could not resolve hostname") || has(err, "Connection refused")
             || has(err, "Connection timed out") || has(err, "No route to host"))
        hint = "the host cannot be reached";
    else if (has(err, "CANCELLED") || has(err, "DUE TO TIME LIMIT") || has(err, "DUE TO PREEMPTION"))
        hint = "the scheduler ended the job";
    else if (has(err, "kwb-run: not found") || has(err, "kwb-run: command not found")
             || has(err, "No such file or directory")
             || has(err, "is not recognized as an internal or external command")
             || has(err, "The system cannot find the path specified"))
        hint = "kwb-run is not installed where the command runs";
    std::string text = "the runner \"" + command + "\" " + how;
    if (!hint.empty())
        text += ": " + hint;
    if (!err.empty())
        text += " (" + lastLine(err) + ")";
    return text;
}

} // namespace kw
