#include "compile/OptionAllowList.hpp"

#include "util/ArchName.hpp"
#include "util/Error.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace kw {

namespace {

bool isIdentifier(std::string_view s)
{
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
        return false;
    return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

bool isNumber(std::string_view s)
{
    return !s.empty() && s.size() <= 9
        && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

bool isNumberList(std::string_view s)
{
    if (s.empty())
        return false;
    std::size_t start = 0;
    while (start <= s.size()) {
        const std::size_t comma = s.find(',', start);
        const std::string_view item = s.substr(start, comma == std::string_view::npos ? s.npos : comma - start);
        if (!isNumber(item))
            return false;
        if (comma == std::string_view::npos)
            return true;
        start = comma + 1;
    }
    return false;
}

bool isOneOf(std::string_view s, std::initializer_list<std::string_view> values)
{
    return std::find(values.begin(), values.end(), s) != values.end();
}

// "compute_90", "sm_90a", "sm_100f" (ArchName), or "lto_90"
bool isArchitecture(std::string_view s)
{
    if (s.substr(0, 4) == "lto_") // a link-time target: spelled as compute_ is
        return ArchName::parse("compute_" + std::string(s.substr(4))).valid();
    return ArchName::parse(std::string(s)).valid();
}

bool isStandard(std::string_view s) { return isOneOf(s, {"c++03", "c++11", "c++14", "c++17", "c++20"}); }

// A macro value travels as one argument, so it cannot become another option;
// control characters are refused so it stays one line of the cache key and logs.
bool isPlainValue(std::string_view s)
{
    return std::none_of(s.begin(), s.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
}

// -DNAME, -DNAME=VALUE, --define-macro=NAME[=VALUE]
bool isDefine(std::string_view body)
{
    const std::size_t eq = body.find('=');
    return isIdentifier(body.substr(0, eq)) && (eq == std::string_view::npos || isPlainValue(body.substr(eq + 1)));
}

using Check = bool (*)(std::string_view);

struct Valued {
    std::string_view name; // "-arch" also matches "--arch"; the value follows '='
    Check value;
};

// Flags without a value; each is accepted with one or two leading dashes.
constexpr std::array kBare = {
    "G",
    "device-debug",
    "lineinfo",
    "generate-line-info",
    "use_fast_math",
    "extra-device-vectorization",
    "restrict",
    "default-device",
    "device-as-default-execution-space",
    "device-int128",
    "w",
    "disable-warnings",
    "err-no",
    "display-error-number",
    "no-err-no",
    "no-display-error-number",
    "builtin-move-forward",
    "builtin-initializer-list",
    "no-source-include",
    "fdevice-syntax-only",
    "minimal",
    "dc",
    "device-c",
    "dw",
    "device-w",
    "ewp",
    "extensible-whole-program",
    "dlto",
    "dlink-time-opt",
    "gen-opt-lto",
    "Wreorder",
    "Wno-deprecated-declarations",
    "Werror=all-warnings",
};

bool trueFalse(std::string_view v) { return isOneOf(v, {"true", "false"}); }
bool onOff(std::string_view v) { return isOneOf(v, {"on", "off"}); }
bool fastCompile(std::string_view v) { return isOneOf(v, {"0", "min", "mid", "max"}); }
bool inlineInfo(std::string_view v) { return v == "inline"; }
bool architecture(std::string_view v) { return isArchitecture(v); }
bool standard(std::string_view v) { return isStandard(v); }
bool number(std::string_view v) { return isNumber(v); }
bool numberList(std::string_view v) { return isNumberList(v); }
bool identifier(std::string_view v) { return isIdentifier(v); }
bool define(std::string_view v) { return isDefine(v); }
// ptxas options that only print or tune; ptxas has options that write files.
bool ptxasOption(std::string_view v)
{
    return isOneOf(v,
                   {"-v", "--verbose", "-O0", "-O1", "-O2", "-O3", "--warn-on-spills", "--warn-on-local-memory-usage",
                    "--allow-expensive-optimizations=true", "--allow-expensive-optimizations=false"});
}

constexpr std::array<Valued, 26> kValued = {{
    {"arch", architecture},
    {"gpu-architecture", architecture},
    {"std", standard},
    {"maxrregcount", number},
    {"ftz", trueFalse},
    {"prec-sqrt", trueFalse},
    {"prec-div", trueFalse},
    {"fmad", trueFalse},
    {"rdc", trueFalse},
    {"relocatable-device-code", trueFalse},
    {"modify-stack-limit", trueFalse},
    {"device-stack-protector", trueFalse},
    {"brief-diag", trueFalse},
    {"brief-diagnostics", trueFalse},
    {"dopt", onOff},
    {"Ofc", fastCompile},
    {"Ofast-compile", fastCompile},
    {"opt-info", inlineInfo},
    {"optimization-info", inlineInfo},
    {"split-compile", number},
    {"jump-table-density", number},
    {"diag-error", numberList},
    {"diag-suppress", numberList},
    {"diag-warn", numberList},
    {"define-macro", define},
    {"undefine-macro", identifier},
}};

std::string_view stripDashes(std::string_view s)
{
    if (s.substr(0, 2) == "--")
        return s.substr(2);
    if (s.substr(0, 1) == "-")
        return s.substr(1);
    return {};
}

[[noreturn]] void refuseField(const std::string& field, const std::string& why)
{
    throw Error(ErrorCategory::Untrusted,
                field + ": " + why + " (a document from elsewhere may not ask for it; trust the document to allow it)");
}

} // namespace

std::optional<std::string> OptionAllowList::refuse(const std::string& option)
{
    const std::string_view body = stripDashes(option);
    const std::string quoted = "\"" + option + "\"";
    if (body.empty())
        return quoted + " is not an NVRTC option";
    // -DNAME=VALUE, -UNAME and -Xptxas=OPT carry their value without '='.
    if (body[0] == 'D' && option[1] == 'D')
        return isDefine(body.substr(1))
            ? std::nullopt
            : std::optional<std::string>(quoted + " is not -DNAME or -DNAME=VALUE with a plain identifier");
    if (body[0] == 'U' && option[1] == 'U')
        return isIdentifier(body.substr(1)) ? std::nullopt
                                            : std::optional<std::string>(quoted + " does not name a macro");
    if (body.substr(0, 7) == "Xptxas=" || body.substr(0, 15) == "ptxas-options=")
        return ptxasOption(body.substr(body.find('=') + 1))
            ? std::nullopt
            : std::optional<std::string>("ptxas option " + quoted + " is not allowed");
    if (std::find(kBare.begin(), kBare.end(), body) != kBare.end())
        return std::nullopt;
    const std::size_t eq = body.find('=');
    if (eq != std::string_view::npos) {
        const std::string_view name = body.substr(0, eq);
        for (const auto& v : kValued)
            if (v.name == name)
                return v.value(body.substr(eq + 1))
                    ? std::nullopt
                    : std::optional<std::string>(quoted + " has a value that is not allowed");
    }
    return "option " + quoted + " is not allowed (it may name a path or write a file)";
}

void OptionAllowList::check(const CompileOptions& options)
{
    if (!options.arch.empty() && !isArchitecture(options.arch))
        refuseField("options.arch", "\"" + options.arch + "\" is not an architecture such as sm_90 or compute_75");
    if (!options.std.empty() && !isStandard(options.std))
        refuseField("options.std", "\"" + options.std + "\" is not one of c++03, c++11, c++14, c++17, c++20");
    for (std::size_t i = 0; i < options.defines.size(); ++i) {
        const auto& [name, value] = options.defines[i];
        if (!isIdentifier(name))
            refuseField("options.defines", "\"" + name + "\" is not a plain identifier");
        if (!isPlainValue(value))
            refuseField("options.defines." + name, "the value holds control characters");
    }
    for (std::size_t i = 0; i < options.extra.size(); ++i)
        if (auto why = refuse(options.extra[i]))
            refuseField("options.extra[" + std::to_string(i) + "]", *why);
}

} // namespace kw
