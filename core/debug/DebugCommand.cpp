#include "debug/DebugCommand.hpp"

#include "compile/Compiler.hpp"
#include "compile/ProgramCache.hpp"
#include "debug/DapCommand.hpp"
#include "debug/DebugConsole.hpp"
#include "debug/DebugSession.hpp"
#include "doc/DocumentReader.hpp"
#include "run/ExitCode.hpp"
#include "run/FailureReport.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <atomic>
#include <csignal>

namespace kw::debug {

namespace {

// Ctrl+C while a command runs pauses it (DebugSession::interrupt, an atomic store: safe
// in a signal handler); between commands it ends the program as usual.
std::atomic<DebugSession*> running{nullptr};

extern "C" void pauseOnInterrupt(int)
{
    if (DebugSession* s = running.load()) {
        s->interrupt();
        return;
    }
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
}

} // namespace

DebugCommand::DebugCommand(DebugCommandOptions options, std::FILE* in, std::FILE* out, std::FILE* err)
    : options_(std::move(options))
    , in_(in)
    , out_(out)
    , err_(err)
{
}

int DebugCommand::execute()
{
    if (options_.dap)
        return DapCommand({options_.file, options_.trust, options_.check, options_.step}, {}, in_, out_, err_)
            .execute();
    try {
        if (options_.file.empty())
            throw Error(ErrorCategory::Usage, "debug: name the document (FILE.kwb), or speak the protocol with --dap");
        const Document doc
            = DocumentReader::readFile(options_.file, options_.trust ? Trust::Trusted : Trust::Untrusted);
        DebugOptions o;
        if (!options_.check.empty()) {
            const auto tool = parseCheckTool(options_.check);
            if (!tool)
                throw Error(ErrorCategory::Usage, fmt::format("--check {}: not a check", options_.check));
            o.check = *tool;
        }
        o.step = options_.step;
        o.pass = options_.pass;
        o.optimized = options_.optimized;
        Compiler compiler(ProgramCache::openDefault());
        const auto session = DebugSession::fromDocument(doc, compiler, o);
        DebugConsole console(*session);
        std::signal(SIGINT, pauseOnInterrupt);
        for (const std::string& w : session->warnings())
            fmt::print(out_, "warning: {}\n", w);
        fmt::print(out_, "variables: {}\n", session->variablesMode());
        fmt::print(out_, "{}", console.stopText(session->stop()));
        std::fflush(out_);
        std::string line;
        for (int c = std::fgetc(in_); !console.done(); c = std::fgetc(in_)) {
            if (c != EOF && c != '\n') {
                line += char(c);
                continue;
            }
            if (!line.empty() || c != EOF) {
                running.store(session.get());
                std::string text = console.execute(line);
                running.store(nullptr);
                session->takeInterrupt(); // asked as the command ended: not the next one's
                fmt::print(out_, "> {}\n{}", line, text);
                std::fflush(out_);
            }
            line.clear();
            if (c == EOF)
                break;
        }
        return ExitCode::Ok;
    } catch (const std::exception& e) {
        return FailureReport::print(err_, e);
    }
}

} // namespace kw::debug
