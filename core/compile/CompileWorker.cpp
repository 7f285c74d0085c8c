#include "compile/CompileWorker.hpp"

#include "compile/CompileResultCodec.hpp"
#include "compile/CompilerSandbox.hpp"
#include "compile/NvrtcInProcess.hpp"
#include "compile/NvrtcJob.hpp"
#include "compile/NvrtcLibrary.hpp"

#include <nlohmann/json.hpp>

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

} // namespace kw
