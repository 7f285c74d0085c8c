// `kwb-run compile-worker` as a core class (compile/CompileWorker): a request as JSON
// in, the encoded result out, as compile/IsolatedCompiler reads it.
#include "compile/CompileRequestJson.hpp"
#include "compile/CompileResultCodec.hpp"
#include "compile/CompileWorker.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>

namespace {

std::FILE* fileWith(const std::string& text)
{
    std::FILE* f = std::tmpfile();
    std::fwrite(text.data(), 1, text.size(), f);
    std::rewind(f);
    return f;
}

std::string contents(std::FILE* f)
{
    std::string text;
    std::rewind(f);
    char chunk[4096];
    for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;)
        text.append(chunk, n);
    std::fclose(f);
    return text;
}

} // namespace

TEST(CompileWorker, CompilesTheRequestAndWritesTheEncodedResult)
{
    kw::CompileRequest req;
    req.source = "__global__ void k(int* p) { p[0] = 1; }\n";
    req.sourceName = "k.cu";
    req.nameExpressions = {"k"};
    req.options.arch = "compute_75";
    std::FILE* in = fileWith(kw::toJson(req).dump());
    std::FILE* out = std::tmpfile();
    kw::CompileWorker::serve(in, out);
    std::fclose(in);
    kw::CompileResult r;
    ASSERT_TRUE(kw::decodeCompileResult(contents(out), r));
    EXPECT_TRUE(r.ok) << r.log;
    EXPECT_EQ(r.arch, "compute_75");
    EXPECT_EQ(r.loweredNames.count("k"), 1u);
}

TEST(CompileWorker, ARequestThatIsNotOneThrows)
{
    std::FILE* in = fileWith(R"({"source": "x"})");
    std::FILE* out = std::tmpfile();
    EXPECT_ANY_THROW(kw::CompileWorker::serve(in, out));
    std::fclose(in);
    EXPECT_EQ(contents(out), "");
}
