#include "export/CppExporter.hpp"

#include "doc/ScalarPacker.hpp"
#include "doc/StepPaths.hpp"
#include "export/CheckCode.hpp"
#include "export/CppRuntime.hpp"
#include "export/FieldCode.hpp"
#include "export/PythonProgram.hpp"
#include "export/SourceFiles.hpp"
#include "export/StepCodeWriter.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

namespace kw::exporting {

namespace {

std::string str(const std::string& s) { return StepCodeWriter::quoted(s); }

std::string key(DType t) { return t == DType::BF16 ? "bf16" : std::string(npyDescr(t)).substr(1); }

std::string lit(double v) { return ExpressionTranslation::literal(Language::Cpp, v); }

std::string bytesLiteral(const std::vector<std::byte>& bytes)
{
    std::string s = "Bytes{";
    for (std::size_t i = 0; i < bytes.size(); ++i)
        s += fmt::format("{}0x{:02x}", i ? ", " : "", unsigned(bytes[i]));
    return s + "}";
}

std::string shapeLiteral(const std::vector<std::size_t>& shape)
{
    std::string s = "{";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "}";
}

// One check as a block that appends its result to `results`.
std::string checkBlock(const ExportPlan& plan, const CheckSpec& c, const std::string& field,
                       const std::map<std::string, std::string>& loops, const std::string& indent)
{
    const CheckCode code(plan, Language::Cpp, loops);
    const CheckExpression expect = code.translate(c.expect.empty() ? "1" : c.expect, field + ".expect");
    CheckExpression of;
    std::string shown = c.expect;
    if (!c.aggregate.empty()) {
        const std::string ofText = c.of.empty() ? c.buffer : c.of;
        of = code.translate(ofText, field + ".of");
        shown = c.aggregate + "(" + ofText + ") == " + c.expect;
    }
    std::set<std::string> after(expect.buffers.begin(), expect.buffers.end()),
        before(expect.initial.begin(), expect.initial.end());
    after.insert(of.buffers.begin(), of.buffers.end());
    before.insert(of.initial.begin(), of.initial.end());
    std::string s = indent + "{\n";
    for (const auto& n : after)
        s += fmt::format("{}    const auto& b_{} = B.at({});\n", indent, ExportPlan::identifier(n), str(n));
    for (const auto& n : before)
        s += fmt::format("{}    const auto& i_{} = I.at({});\n", indent, ExportPlan::identifier(n), str(n));
    const auto lambda = [&](const std::string& body) {
        return "[&](std::size_t k, double i, double x, double y, double z) -> double {\n" + indent
            + "        (void)k, (void)i, (void)x, (void)y, (void)z;\n" + indent + "        return " + body + ";\n"
            + indent + "    }";
    };
    s += fmt::format("{}    const PerElement expect = {};\n", indent, lambda(expect.code));
    s += fmt::format("{}    const PerElement of = {};\n", indent, c.aggregate.empty() ? "nullptr" : lambda(of.code));
    const ExportBuffer& target = plan.buffers()[plan.bufferIndex(c.buffer)];
    s += fmt::format("{}    results.push_back(run_check({}, {}, {}, B.at({}), {}, of, expect, {}, {}));\n", indent,
                     str(c.buffer), str(shown), str(c.aggregate), str(c.buffer), shapeLiteral(target.shape),
                     lit(c.absTol), lit(c.relTol));
    return s + indent + "}\n";
}

// The steps as C++ statements on the program's `run`.
class CppSteps : public StepCodeWriter {
public:
    CppSteps(const ExportPlan& plan, std::string& out)
        : StepCodeWriter(plan, Language::Cpp, {"//", ";", "{", "}", "{", "}", "kw_count"}, out)
    {
    }

    // The pass numbers' variables, declared before the steps (an index stays defined after its loop).
    static std::set<std::string> indices(const std::vector<StepSpec>& steps)
    {
        std::set<std::string> out;
        for (const StepSpec& s : steps) {
            if (!s.index.empty())
                out.insert(s.index);
            const auto inner = indices(s.steps);
            out.insert(inner.begin(), inner.end());
        }
        return out;
    }

private:
    std::string scalarLiteral(DType, const std::vector<std::byte>& bytes) const override { return bytesLiteral(bytes); }
    std::string scalarPacked(DType type, const std::string& code) const override
    {
        return fmt::format("pack({}, {})", str(key(type)), code);
    }
    std::string argument(const std::string& scalarCode) const override { return "Arg{" + scalarCode + "}"; }

    void repeat(const StepSpec& s, const std::string& field, const std::string& path, int depth) override
    {
        const bool until = s.kind == StepSpec::Kind::RepeatUntil;
        const std::string var = fmt::format("pass_{}", depth);
        const std::string passes = until ? count(s.limit, field + ".limit") : count(s.times, field + ".repeat");
        line(depth, "{");
        line(depth + 1, "const double before = run.kernelMs;");
        line(depth + 1, fmt::format("const std::size_t passes = {};", passes));
        if (until)
            line(depth + 1, "bool held = false;");
        line(depth + 1, fmt::format("for (std::size_t {0} = 0; {0} < passes; ++{0}) {{", var));
        if (!s.index.empty()) {
            line(depth + 2, fmt::format("idx_{} = double({});", ExportPlan::identifier(s.index), var));
            fields_.enterLoop(s.index, "idx_" + ExportPlan::identifier(s.index));
            loops_[s.index] = "idx_" + ExportPlan::identifier(s.index);
        }
        list(s.steps, field + ".steps", path, depth + 2);
        line(depth + 2, fmt::format("++run.step({}).runs;", str(path)));
        if (until) {
            line(depth + 2, fmt::format("if ({} != 0) {{", fields_.code(s.until, field + ".repeat_until")));
            line(depth + 3, "held = true;");
            line(depth + 3, "break;");
            line(depth + 2, "}");
        }
        line(depth + 1, "}");
        line(depth + 1, fmt::format("run.step({}).ms += run.kernelMs - before;", str(path)));
        if (until) {
            line(depth + 1, "if (!held)");
            line(depth + 2,
                 fmt::format("stopped.push_back(\"step {} (\" + std::string({}) + \"): the condition still "
                             "did not hold after \" + std::to_string(passes) + \" passes, the step's limit; "
                             "the buffers are as the last pass left them\");",
                             path, str("repeat until " + s.until)));
        }
        line(depth, "}");
    }

    void checks(const std::vector<CheckSpec>& list, const std::string& field, const std::string& path,
                int depth) override
    {
        line(depth, "{");
        line(depth + 1, "const Doubles B = run.after();");
        line(depth + 1, "std::vector<CheckResult> results;");
        for (std::size_t i = 0; i < list.size(); ++i)
            lines(checkBlock(plan_, list[i], fmt::format("{}.checks[{}]", field, i), loops_, pad(depth + 1)));
        line(depth + 1, fmt::format("run.keepChecks({}, std::move(results));", str(path)));
        line(depth, "}");
    }
};

} // namespace

std::string CppExporter::program(const ExportPlan& plan, const EmbeddedCubin* cubin)
{
    const Document& doc = plan.document();
    std::string s = fmt::format("// {}\n", doc.title.empty() ? std::string("Kernel Workbench document") : doc.title);
    s += fmt::format("// Exported from the Kernel Workbench document {}: compiles {} with NVRTC, runs the\n",
                     doc.path.filename().string().empty() ? std::string("(unsaved)") : doc.path.filename().string(),
                     plan.source().fileName);
    s += "// document's launches on GPU 0 through the driver API with the same inputs, prints the same\n"
         "// checks and timings, and writes every output buffer as out/NAME.npy (or --out DIR).\n";
    s += "// Build: cmake -B build && cmake --build build; run: build/run_cpp [--out DIR] [--dir FOLDER]\n"
         "// build/run_cpp --check-outputs DIR: only the checks, on NAME.npy files written elsewhere (no GPU).\n";
    s += CppRuntime::text();
    s += "\nnamespace {\n\n";
    s += fmt::format("const char* const kSource = {};\n", str(plan.source().fileName));
    s += "const std::vector<std::string> kKernels = {";
    for (std::size_t i = 0; i < plan.kernels().size(); ++i)
        s += (i ? ", " : "") + str(plan.kernels()[i]);
    s += "};\n\n";
    s += "std::vector<std::string> compileOptions(const std::string& folder)\n{\n    return {\n";
    for (const auto& o : plan.nvrtcOptions())
        s += "        " + str(o) + ",\n";
    for (const auto& d : SourceFiles::nvrtcIncludeOptions(plan))
        s += "        \"-I\" + folder + " + str("/" + d) + ",\n";
    s += fmt::format("        \"--pre-include=\" + folder + \"/{}/{}\",\n    }};\n}}\n\n", SourceFiles::kBuiltinFolder,
                     SourceFiles::kNvccEnvironment);

    s += "// The binary compiled on export (--cubin), for one architecture; empty: NVRTC compiles the source.\n";
    s += "const Bytes& embeddedCubin()\n{\n    static const Bytes cubin = {";
    if (cubin)
        for (std::size_t i = 0; i < cubin->cubin.size(); ++i)
            s += fmt::format("{}{}", i % 24 == 0 ? "\n        " : " ",
                             unsigned(static_cast<unsigned char>(cubin->cubin[i])))
                + (i + 1 < cubin->cubin.size() ? "," : "");
    s += "};\n    return cubin;\n}\n\n";
    s += fmt::format("int embeddedArch() {{ return {}; }}\n\n", cubin ? cubin->arch : 0);
    s += "const std::map<std::string, std::string>& embeddedNames()\n{\n    static const std::map<std::string, "
         "std::string> names = {";
    if (cubin)
        for (const auto& [k, v] : cubin->lowered)
            s += fmt::format("{{{}, {}}}, ", str(k), str(v));
    s += "};\n    return names;\n}\n\n";
    s += "// The document's buffers and their contents before the run.\n";
    s += "std::vector<Buffer> initialBuffers(const std::string& folder)\n{\n    (void)folder;\n"
         "    std::vector<Buffer> v;\n";
    for (const auto& b : plan.buffers()) {
        const std::string k = str(key(b.dtype));
        std::string contents;
        const InitialValues& f = b.init;
        switch (f.form) {
        case InitialValues::Form::Baked:
            s += fmt::format("    // {}: baked, {}\n", b.name, f.reason);
            contents = fmt::format("baked(folder, {}, {})", str(PythonProgram::bakedFile(b)), b.initial.byteSize());
            break;
        case InitialValues::Form::Zeros: contents = fmt::format("Bytes({})", b.initial.byteSize()); break;
        case InitialValues::Form::Fill: contents = fmt::format("fill_bytes({}, {}, {})", k, b.count, lit(f.a)); break;
        case InitialValues::Form::Arange:
            contents = fmt::format("arange_bytes({}, {}, {}, {})", k, b.count, lit(f.a), lit(f.b));
            break;
        case InitialValues::Form::Linspace:
            contents = fmt::format("linspace_bytes({}, {}, {}, {})", k, b.count, lit(f.a), lit(f.b));
            break;
        }
        s += fmt::format("    v.push_back(Buffer{{{}, {}, {}, {}, {}, {}, {}, {}}});\n", str(b.name), k,
                         str(npyDescr(b.dtype)), b.count, shapeLiteral(b.shape), str(toString(b.direction)),
                         b.global ? "true" : "false", contents);
    }
    s += "    return v;\n}\n\n";

    s += "// The document's checks after the run.\nstd::vector<CheckResult> documentChecks(const Doubles& B, const "
         "Doubles& I)\n{\n    (void)B, (void)I;\n    std::vector<CheckResult> results;\n";
    for (std::size_t i = 0; i < doc.checks.size(); ++i)
        s += checkBlock(plan, doc.checks[i], fmt::format("checks[{}]", i), {}, "    ");
    s += "    return results;\n}\n\n";

    s += "// --check-outputs DIR: the document's checks on output buffers written elsewhere (kwb-run run --out DIR),\n"
         "// without a GPU.\nint checkOutputs(const std::string& folder, const std::string& dir)\n{\n";
    s += "    const std::vector<Buffer> buffers = initialBuffers(folder);\n";
    s += "    Doubles B, I;\n";
    s += "    for (const auto& b : buffers) {\n";
    s += "        I[b.name] = as_doubles(b.dtype, b.host);\n";
    s += "        B[b.name] = b.direction == \"in\" ? I[b.name] : as_doubles(b.dtype, read_npy(dir + \"/\" + b.name + "
         "\".npy\").data);\n";
    s += "    }\n";
    s += "    const std::vector<CheckResult> results = documentChecks(B, I);\n";
    s += "    std::fputs(check_lines(results, \"\").c_str(), stdout);\n";
    s += "    for (const auto& c : results)\n        if (!c.passed)\n            return 4;\n    return 0;\n}\n\n";
    s += "int runDocument(const std::string& folder, const std::string& out)\n{\n";
    s += "    const auto t0 = std::chrono::steady_clock::now();\n";
    s += "    Device dev(folder, kSource, compileOptions(folder), kKernels);\n";
    s += "    const double compileMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - "
         "t0).count();\n";
    s += "    std::vector<Buffer> buffers = initialBuffers(folder);\n";
    s += "    Run run(dev, buffers);\n";
    s += "    const Doubles I = run.before();\n";
    s += "    std::vector<std::string> stopped;\n";
    s += "    std::printf(\"device   %s (cuda:0)\\n\", dev.name().c_str());\n";
    if (!doc.isSequence()) {
        const PreparedRun& p = plan.prepared();
        std::string args;
        for (std::size_t a = 0; a < p.args.size(); ++a) {
            const LaunchArg& arg = p.args[a];
            if (arg.isBuffer) {
                const ExportBuffer& b = plan.buffers()[arg.buffer];
                args += (args.empty() ? "" : ", ")
                    + fmt::format("run.buf({}, {})", str(b.name), arg.offsetBytes / sizeOf(b.dtype));
            } else {
                args += (args.empty() ? "" : ", ") + ("Arg{" + bytesLiteral(arg.bytes) + "}");
            }
        }
        const LaunchConfig& c = p.config;
        s += fmt::format("    const std::array<std::size_t, 3> grid{{{}, {}, {}}}, block{{{}, {}, {}}};\n", c.grid.x,
                         c.grid.y, c.grid.z, c.block.x, c.block.y, c.block.z);
        s += fmt::format("    const std::size_t shared = {};\n", c.sharedBytes);
        s += "    const auto args = [&] { return std::vector<Arg>{" + args + "}; };\n";
        s += "    std::printf(\"launch   grid %zux%zux%zu block %zux%zux%zu shared %zu B\\n\", grid[0], grid[1], "
             "grid[2], block[0], block[1], block[2], shared);\n";
        s += fmt::format("    const double firstMs = run.launch(\"1\", {}, grid, block, shared, args());\n",
                         str(doc.kernel));
        s += "    run.writeOutputs(out);\n";
        s += "    const Doubles B = run.after();\n";
        s += fmt::format("    const int warmup = {}, repeats = {};\n", doc.run.warmup, doc.run.repeats);
        s += "    std::vector<double> times;\n";
        s += "    for (int rep = 0; rep < warmup + repeats; ++rep) {\n";
        s += "        run.restore(); // the inputs as they were, outside the timed region\n";
        s += fmt::format("        const double ms = run.launch(\"1\", {}, grid, block, shared, args());\n",
                         str(doc.kernel));
        s += "        if (rep >= warmup)\n            times.push_back(ms);\n    }\n";
        s += "    if (times.empty())\n        times.push_back(firstMs);\n";
        s += "    double low = 0, median = 0, mean = 0;\n    timing_stats(times, low, median, mean);\n";
        s += "    std::printf(\"kernel   median %.4f ms  min %.4f ms  mean %.4f ms  (%zu repeats)\\n\", median, low, "
             "mean, "
             "times.size());\n";
        s += "    std::printf(\"times    compile %.1f ms\\n\", compileMs);\n";
    } else {
        for (const auto& index : CppSteps::indices(doc.steps))
            s += fmt::format("    double idx_{0} = 0;\n    (void)idx_{0};\n", ExportPlan::identifier(index));
        CppSteps steps(plan, s);
        steps.list(doc.steps, "steps", "", 1);
        s += "    run.writeOutputs(out);\n";
        s += "    const Doubles B = run.after();\n";
        s += "    struct Listed {\n        const char* path;\n        const char* name;\n        const char* kind;\n   "
             " };\n";
        s += "    const std::vector<Listed> listed = {\n";
        for (const auto& [path, st] : StepPaths::list(doc.steps))
            s += fmt::format("        {{{}, {}, {}}},\n", str(path), str(StepCodeWriter::label(*st)),
                             str(toString(st->kind)));
        s += "    };\n";
        s += "    double total = 0;\n";
        s += "    for (const auto& l : listed)\n        if (std::string(l.kind) == \"launch\")\n"
             "            total += run.step(l.path).ms;\n";
        s += "    std::printf(\"steps    %zu steps, kernels %.4f ms in all\\n\", listed.size(), total);\n";
        s += "    for (const auto& l : listed) {\n";
        s += "        const StepRecord& st = run.step(l.path);\n";
        s += "        const std::string path = l.path, kind = l.kind;\n";
        s += "        const std::size_t depth = std::size_t(std::count(path.begin(), path.end(), '.'));\n";
        s += "        const std::string label = std::string(2 * depth, ' ') + path + \" \" + l.name;\n";
        s += "        char what[256];\n";
        s += "        if (st.runs == 0) {\n            std::snprintf(what, sizeof what, \"not run\");\n";
        s += "        } else if (kind == \"launch\") {\n";
        s += "            int n = std::snprintf(what, sizeof what, \"grid %ux%ux%u block %ux%ux%u  %.4f ms\", "
             "st.grid[0], "
             "st.grid[1], st.grid[2], st.block[0], st.block[1], st.block[2], st.ms);\n";
        s += "            if (st.runs > 1)\n                n += std::snprintf(what + n, sizeof what - std::size_t(n), "
             "\" in %zu runs\", st.runs);\n";
        s += "            if (total > 0)\n                std::snprintf(what + n, sizeof what - std::size_t(n), \" "
             "(%.0f "
             "%%)\", 100 * st.ms / total);\n";
        s += "        } else if (kind == \"repeat\" || kind == \"repeat_until\") {\n";
        s += "            std::snprintf(what, sizeof what, \"%zu pass%s, %.4f ms\", st.runs, st.runs == 1 ? \"\" : "
             "\"es\", "
             "st.ms);\n";
        s += "        } else if (st.runs == 1) {\n            std::snprintf(what, sizeof what, \"done\");\n";
        s += "        } else {\n            std::snprintf(what, sizeof what, \"%zu times\", st.runs);\n        }\n";
        s += "        std::printf(\"  %-32s %s\\n\", label.c_str(), what);\n";
        s += "        std::fputs(check_lines(st.checks, std::string(4 + 2 * depth, ' ')).c_str(), stdout);\n";
        s += "    }\n";
        s += "    for (const auto& line : stopped)\n        std::printf(\"STOPPED  %s\\n\", line.c_str());\n";
        s += "    std::printf(\"times    compile %.1f ms\\n\", compileMs);\n";
    }
    s += "    const std::vector<CheckResult> results = documentChecks(B, I);\n";
    s += "    std::fputs(check_lines(results, \"\").c_str(), stdout);\n";
    s += "    bool failed = false;\n";
    s += "    for (const auto& c : results)\n        failed = failed || !c.passed;\n";
    if (doc.isSequence()) {
        s += "    for (const auto& l : listed)\n        for (const auto& c : run.step(l.path).checks)\n"
             "            failed = failed || !c.passed;\n";
    }
    s += "    return failed ? 4 : 0;\n}\n\n} // namespace\n\n";
    s += "int main(int argc, char** argv)\n{\n";
    s += "    std::string folder = KWB_EXPORT_DIR, out, checkDir;\n";
    s += "    for (int a = 1; a + 1 < argc; a += 2) {\n";
    s += "        const std::string option = argv[a];\n";
    s += "        if (option == \"--out\")\n            out = argv[a + 1];\n";
    s += "        else if (option == \"--dir\")\n            folder = argv[a + 1];\n";
    s += "        else if (option == \"--check-outputs\")\n            checkDir = argv[a + 1];\n";
    s += "        else {\n            std::fprintf(stderr, \"usage: %s [--out DIR] [--dir FOLDER] [--check-outputs "
         "DIR]\\n\", argv[0]);\n"
         "            return 2;\n        }\n    }\n";
    s += "    if (out.empty())\n        out = folder + \"/out\";\n";
    s += "    try {\n        if (!checkDir.empty())\n            return checkOutputs(folder, checkDir);\n        "
         "return runDocument(folder, out);\n    } catch (const std::exception& e) {\n";
    s += "        std::fprintf(stderr, \"%s\\n\", e.what());\n        return 3;\n    }\n}\n";
    return s;
}

std::string CppExporter::cmakeLists(const ExportPlan& plan)
{
    (void)plan;
    return R"CMAKE(# Builds run_cpp: the exported document on the CUDA driver API and NVRTC.
cmake_minimum_required(VERSION 3.18)
project(kernel_workbench_export LANGUAGES CXX)
find_package(CUDAToolkit REQUIRED)
add_executable(run_cpp run.cpp)
target_compile_features(run_cpp PRIVATE cxx_std_17)
target_link_libraries(run_cpp PRIVATE CUDA::cuda_driver CUDA::nvrtc)
# The program finds its source and data here unless given --dir.
target_compile_definitions(run_cpp PRIVATE KWB_EXPORT_DIR="${CMAKE_CURRENT_SOURCE_DIR}")
# The toolkit's device headers, for NVRTC when the program runs.
list(GET CUDAToolkit_INCLUDE_DIRS 0 kwb_cuda_include)
target_compile_definitions(run_cpp PRIVATE KWB_CUDA_INCLUDE_DIR="${kwb_cuda_include}")
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(run_cpp PRIVATE -Wall -Wextra)
endif()
)CMAKE";
}

ExportFiles CppExporter::files(const ExportPlan& plan, const EmbeddedCubin* cubin)
{
    return {{kProgram, program(plan, cubin)}, {"CMakeLists.txt", cmakeLists(plan)}};
}

} // namespace kw::exporting
