#pragma once
// `kwb-run compile-worker`, the child process of compile/IsolatedCompiler: one
// CompileRequest as JSON on its input, the encoded CompileResult on its output.
#include <cstdio>

namespace kw {

class CompileWorker {
public:
    // Reads `in` to its end, compiles, writes the result to `out`. Throws kw::Error
    // for a request that cannot be read or a compiler that cannot be loaded.
    static void serve(std::FILE* in, std::FILE* out);
};

} // namespace kw
