#include "compile/CompileWorker.hpp"

#include "compile/CompileRequestJson.hpp"
#include "compile/CompileResultCodec.hpp"
#include "compile/Compiler.hpp"

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
    const CompileRequest req = compileRequestFromJson(nlohmann::json::parse(input));
    const std::string bytes = encodeCompileResult(Compiler().compile(req));
    std::fwrite(bytes.data(), 1, bytes.size(), out);
    std::fflush(out);
}

} // namespace kw
