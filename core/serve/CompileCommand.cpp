#include "serve/CompileCommand.hpp"

#include "compile/Compiler.hpp"
#include "compile/KernelFootprint.hpp"
#include "compile/ProgramCache.hpp"
#include "run/CompileInput.hpp"
#include "run/DeviceSelector.hpp"
#include "run/ExitCode.hpp"
#include "run/FailureReport.hpp"
#include "run/SummaryText.hpp"
#include "serve/ResultJson.hpp"
#include "serve/Watchdog.hpp"
#include "util/FileDescriptor.hpp"
#include "util/TerminalText.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>

namespace kw {

namespace {

std::string hex(const std::vector<char>& bytes)
{
    static const char* digits = "0123456789abcdef";
    std::string h;
    h.reserve(bytes.size() * 2);
    for (char c : bytes) {
        h += digits[(static_cast<unsigned char>(c) >> 4) & 15];
        h += digits[static_cast<unsigned char>(c) & 15];
    }
    return h;
}

} // namespace

CompileCommand::CompileCommand(CompileCommandOptions options, std::FILE* out, std::FILE* err)
    : options_(std::move(options))
    , out_(out)
    , err_(err)
{
}

int CompileCommand::execute()
{
    CompileResult r;
    CompileInput in;
    try {
        in = CompileInput::read(options_);
        CompileRequest& req = in.compileRequest;
        req.timeLimit = kTimeLimit; // the compile worker stops NVRTC past it and says so
        // Anything else stuck on the way (reading the source's headers) must not hang a script.
        Watchdog watchdog;
        std::FILE* err = err_;
        watchdog.arm(kTimeLimit + std::chrono::seconds(15), [err] {
            std::fprintf(err, "kwb-run: nvrtc error: the compiler did not finish within %lld s and was stopped\n",
                         static_cast<long long>(kTimeLimit.count() / 1000));
            std::fflush(nullptr);
            std::_Exit(ExitCode::BadInput);
        });
        Compiler compiler(ProgramCache::openDefault());
        r = compiler.compile(req);
        watchdog.disarm();
    } catch (const std::exception& e) {
        return FailureReport::print(err_, e);
    }
    return print(r, in);
}

void CompileCommand::printStepOccupancy(const CompileResult& r, const CompileInput& in)
{
    const auto d = device();
    if (!d) {
        fmt::print(out_, "occupancy not shown: no device {} here\n", DeviceSelector::parse(options_.device).str());
        return;
    }
    for (const CompileInput::StepLaunch& s : in.steps) {
        const std::string step = fmt::format("step {} ({}{})", s.path, s.name.empty() ? "" : s.name + ": ", s.kernel);
        if (!s.launch) {
            fmt::print(out_, "{}: occupancy not shown: {}\n", TerminalText::escape(step), TerminalText::escape(s.note));
            continue;
        }
        const KernelFootprint kernel = KernelFootprint::of(r, KernelFootprint::loweredName(r, s.kernel));
        std::string text = SummaryText::occupancy(*d, s.launch->block.volume(), s.launch->sharedBytes, kernel);
        if (!s.note.empty())
            text.insert(text.size() - 1, " (" + TerminalText::escape(s.note) + ")");
        fmt::print(out_, "{}: {}", TerminalText::escape(step), text);
    }
}

std::optional<DeviceInfo> CompileCommand::device() const
{
    const std::string id = DeviceSelector::parse(options_.device).str();
    for (DeviceInfo& d : DeviceSelector::list())
        if (d.id == id)
            return std::move(d);
    return std::nullopt;
}

int CompileCommand::print(const CompileResult& r, const CompileInput& in)
{
    const std::string& emit = options_.emit;
    if (emit == "cubin" && r.ok && r.cubin.empty()) {
        fmt::print(err_,
                   "kwb-run: no CUBIN: {} is a virtual architecture (give --arch sm_XX; without a GPU "
                   "the default is PTX only)\n",
                   r.arch);
        return ExitCode::BadInput;
    }
    if (options_.json) {
        nlohmann::json j = toJson(r, emit == "ptx");
        if (emit == "cubin")
            j["cubin_hex"] = hex(r.cubin);
        fmt::print(out_, "{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    } else if (emit == "ptx" && r.ok) {
        fmt::print(out_, "{}", r.ptx);
    } else if (emit == "cubin" && r.ok) {
        if (fd::isTerminal(fileno(out_))) {
            fmt::print(err_, "kwb-run: --emit cubin writes binary data; redirect it to a file\n");
            return ExitCode::BadInput;
        }
        std::fwrite(r.cubin.data(), 1, r.cubin.size(), out_);
    } else {
        fmt::print(out_, "{}", SummaryText::compile(r));
        if (r.ok && in.launch) {
            const KernelFootprint kernel = KernelFootprint::of(r, KernelFootprint::loweredName(r, in.kernel));
            if (const auto d = device())
                fmt::print(out_, "{}",
                           SummaryText::occupancy(*d, in.launch->block.volume(), in.launch->sharedBytes, kernel));
            else
                fmt::print(out_, "occupancy not shown: no device {} here\n",
                           DeviceSelector::parse(options_.device).str());
        }
        if (r.ok && !in.steps.empty())
            printStepOccupancy(r, in);
    }
    return ExitCode::of(r);
}

} // namespace kw
