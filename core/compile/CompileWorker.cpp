#include "compile/CompileWorker.hpp"

#include "compile/CompileResultCodec.hpp"
#include "compile/CompilerSandbox.hpp"
#include "compile/NvrtcInProcess.hpp"
#include "compile/NvrtcJob.hpp"
#include "compile/NvrtcLibrary.hpp"
#include "util/Error.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <string>

namespace kw {

void CompileWorker::serve(std::FILE* in, std::FILE* out)
{
    std::string input;
    char chunk[1 << 16];
    std::size_t n;
    while ((n = std::fread(chunk, 1, sizeof chunk, in)) > 0)
        input.append(chunk, n);
    const NvrtcJob job = nvrtcJobFromJson(nlohmann::json::parse(input));
    // Everything the compile needs from the file system outside the walls is loaded
    // before they rise: NVRTC and its builtins (NvrtcLibrary), the folders' list.
    const NvrtcLibrary& nvrtc = NvrtcLibrary::instance();
    SandboxPolicy policy;
    policy.confined = job.confined;
    policy.timeLimit = job.timeLimit;
    if (job.confined)
        policy.readable = CompilerSandbox::compilerFolders();
    CompilerSandbox::enter(policy);
    const std::string bytes = encodeCompileResult(runNvrtcInProcess(nvrtc, job));
    std::fwrite(bytes.data(), 1, bytes.size(), out);
    std::fflush(out);
}

namespace {

void answer(std::FILE* out, char kind, const std::string& bytes)
{
    std::fprintf(out, "%c %zu\n", kind, bytes.size());
    std::fwrite(bytes.data(), 1, bytes.size(), out);
    std::fflush(out);
}

std::string machineryFailure(const std::exception& e)
{
    const auto* ke = dynamic_cast<const Error*>(&e);
    return std::string("kwb-run: ") + toString(ke ? ke->category() : ErrorCategory::Internal) + " error: " + e.what();
}

} // namespace

void CompileWorker::serveMany(std::FILE* in, std::FILE* out, bool confined, const std::filesystem::path& pchRoot)
{
    try {
        const NvrtcLibrary& nvrtc = NvrtcLibrary::instance();
        SandboxPolicy policy;
        policy.confined = confined;
        policy.manyJobs = true;
        if (confined)
            policy.readable = CompilerSandbox::compilerFolders();
        if (!pchRoot.empty()) {
            policy.writable.push_back(pchRoot);
#ifndef _WIN32
            // With precompiled headers NVRTC's front end writes a temporary file, in TMPDIR.
            setenv("TMPDIR", pchRoot.c_str(), 1);
#endif
        }
        CompilerSandbox::enter(policy);
        (void)nvrtc;
    } catch (const std::exception& e) {
        answer(out, 'E', machineryFailure(e));
        return;
    }
    for (;;) {
        std::size_t length = 0;
        if (std::fscanf(in, "%zu", &length) != 1 || std::fgetc(in) != '\n')
            return; // the end of the input, or not a job: nothing more to serve
        if (length > (std::size_t(1) << 30)) {
            answer(out, 'E', "kwb-run: protocol error: a compile job of " + std::to_string(length) + " bytes");
            return;
        }
        std::string input(length, '\0');
        if (std::fread(input.data(), 1, length, in) != length)
            return;
        try {
            const NvrtcJob job = nvrtcJobFromJson(nlohmann::json::parse(input));
            if (job.confined != confined)
                throw Error(ErrorCategory::Internal, "a job for another sandbox");
            CompilerSandbox::limitCpuTimeOfNextJob(job.timeLimit);
            answer(out, 'R', encodeCompileResult(runNvrtcInProcess(NvrtcLibrary::instance(), job)));
        } catch (const std::exception& e) {
            answer(out, 'E', machineryFailure(e));
        }
    }
}

} // namespace kw
