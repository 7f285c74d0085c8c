#pragma once
// The workbench document (*.kwb), as loaded and validated. Expressions are kept
// as text here; doc/PreparedRun evaluates them against the variables.
#include "compile/CompileOptions.hpp"
#include "data/DType.hpp"
#include "data/Direction.hpp"
#include "data/NdArray.hpp"
#include "launch/LaunchTypes.hpp"
#include "util/Trust.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kw {

struct Initialiser {
    enum class Kind { Zeros, Fill, Arange, Linspace, Uniform, Normal, Expression, File, Copy };
    Kind kind = Kind::Zeros;
    std::string value = "0";                         // fill value expression
    std::string start = "0", step = "1", stop = "1"; // arange start/step, linspace start/stop
    double low = 0.0, high = 1.0;                    // uniform
    double mean = 0.0, stddev = 1.0;                 // normal
    std::uint64_t seed = 0;                          // uniform/normal
    std::string expression;                          // per element: i, x, y, z and the variables
    std::string file;                                // .npy/.csv/.bin, relative to the document
    std::string from;                                // copy: the buffer whose initial contents this one starts with
};
const char* toString(Initialiser::Kind kind); // "zeros", "fill", ...
std::optional<Initialiser::Kind> parseInitialiserKind(std::string_view s);

struct BufferSpec {
    std::string name;
    DType dtype = DType::F32;
    std::string count;              // expression
    std::vector<std::string> shape; // optional 2-D/3-D display shape, expressions
    Initialiser init;
    Direction direction = Direction::InOut;
    bool plot = true;
    bool global = false; // listed under "globals": fills the module variable of this name
};

// One kernel argument in parameter order: a buffer by name or a typed scalar expression.
struct ArgSpec {
    std::string name;        // parameter name (informative; order decides)
    std::string buffer;      // non-empty: pass this buffer's device pointer
    DType type = DType::I32; // scalar type
    std::string value;       // scalar expression
    std::string offset;      // with a buffer: elements past its start (`d_in + RADIUS`); empty: 0
    // A null pointer (`{"buffer": null}`, a kernel's `int* partial = NULL`): passed as eight
    // zero bytes, so it is a scalar of type u64 and value 0 to everything that launches.
    bool null = false;
    bool isBuffer() const { return !buffer.empty(); }
    static ArgSpec nullPointer(std::string name)
    {
        ArgSpec a;
        a.name = std::move(name);
        a.type = DType::U64;
        a.value = "0";
        a.null = true;
        return a;
    }
};

struct LaunchSpecText {
    std::vector<std::string> grid = {"1", "1", "1"};
    std::vector<std::string> block = {"1", "1", "1"};
    std::string sharedBytes = "0";
};

struct RunSettings {
    int warmup = 1;
    int repeats = 10;
    std::size_t printfBufferBytes = 1 << 20;
    double timeLimitSeconds = 10.0;
    // A document of steps: a loop whose passes do not change runs as one graph on a GPU
    // after its first pass (docs/document-format.md, "Steps"); false runs every step alone.
    bool graph = true;
    // Flush the L2 cache before each timed run on a GPU: Auto does so unless the kernel
    // is tiny (docs/benchmarks.md, "How kernels are timed").
    L2Flush l2Flush = L2Flush::Auto;
};

struct CheckSpec {
    std::string buffer;
    std::string expect;    // per element: i, x, y, z, variables, other buffers by name (element i) and name(j)
    std::string aggregate; // empty, or sum/min/max/mean/count/any/all of `of` over the buffer, compared with expect
    std::string of;        // aggregate: the per-element expression (default: the buffer's element)
    double absTol = 1e-6;
    double relTol = 1e-5;
};

// One step of a document of several launches (version 2). A launch step names one of the
// document's kernels; copy, fill and swap act on the buffers where they live (the device);
// a repeat runs its inner steps a counted number of times, or until a condition on the
// buffers holds after a pass, at most `limit` passes.
struct StepSpec {
    enum class Kind { Launch, Copy, Fill, Swap, Repeat, RepeatUntil };
    Kind kind = Kind::Launch;
    std::string name; // optional, shown with the step's timings and in its errors
    // Launch
    std::string kernel;
    LaunchSpecText launch;
    std::vector<ArgSpec> args;
    bool argsAuto = false;
    // Copy: `count` elements (empty: all) of `from` at `fromOffset` to `to` at `toOffset`.
    // Fill: `to` gets `value` in `count` elements (empty: all) from `toOffset`.
    // Swap: `from` and `to` exchange names (their contents stay where they are).
    std::string from, to, fromOffset, toOffset, count, value;
    // Repeat: `times` passes; RepeatUntil: until `until` is true after a pass. `index`
    // (optional) names the pass number, 0 first, in the inner steps' expressions.
    std::string times, until, limit, index;
    std::vector<StepSpec> steps;
    std::vector<CheckSpec> checks; // after the step (after every pass of a repeat)
};
const char* toString(StepSpec::Kind kind); // "launch", "copy", ... as the file names them

// Initialiser data that came with a job from a remote client, by the file name
// the document gives: used instead of the disk, which may not be the client's.
using AttachedFiles = std::map<std::string, NdArray>;

struct Document {
    int version = 1;
    std::string title;
    std::string description; // Markdown, shown in the Notes panel
    std::string source;      // resolved source text
    // Non-empty when the source lives in a file beside the document. On a runner the source
    // travels inline and this keeps the client's name for it (docs/protocol.md, "source_name").
    std::string sourceFile;
    std::string kernel;               // kernel name or instantiation "scale<float,128>" (one launch)
    std::vector<std::string> kernels; // version 2: the kernels the steps launch
    CompileOptions options;
    std::vector<std::pair<std::string, std::string>> variables; // in order; later may use earlier
    std::vector<BufferSpec> buffers;
    std::vector<ArgSpec> args;
    bool argsAuto = false; // "args": "auto": each parameter bound to the buffer or variable of its name
    LaunchSpecText launch;
    RunSettings run;
    std::vector<StepSpec> steps;   // version 2: several launches; empty for one launch
    std::vector<CheckSpec> checks; // after the launch, or after the last step
    std::filesystem::path path;    // where it was loaded from (empty for unsaved)
    // How it was loaded, not part of the file: an untrusted document may name
    // files only inside its folder and compile only with allow-listed options.
    Trust trust = Trust::Untrusted;
    // Set on a runner serving a remote job: file initialisers read only from here.
    std::shared_ptr<const AttachedFiles> attachedFiles;
    std::filesystem::path baseDir() const;
    // The name the source is compiled, profiled and reported under: its file's, else "kernel.cu".
    std::string sourceName() const { return sourceFile.empty() ? "kernel.cu" : sourceFile; }

    const BufferSpec* findBuffer(const std::string& name) const;
    // A document of steps (version 2) rather than of one launch.
    bool isSequence() const { return !steps.empty(); }
    // What to compile: `kernels` for a document of steps, else the one `kernel`.
    std::vector<std::string> kernelNames() const;
};

} // namespace kw
