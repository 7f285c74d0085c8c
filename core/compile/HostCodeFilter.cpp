#include "compile/HostCodeFilter.hpp"

#include "compile/DeclarationBlanker.hpp"
#include "compile/IncludeDirective.hpp"
#include "compile/SourceLexer.hpp"

#include <algorithm>
#include <set>

namespace kw {

namespace {

constexpr std::string_view kHostHeaders[] = {
    "iostream",
    "iomanip",
    "fstream",
    "sstream",
    "ostream",
    "istream",
    "vector",
    "string",
    "map",
    "set",
    "unordered_map",
    "unordered_set",
    "list",
    "deque",
    "queue",
    "stack",
    "algorithm",
    "numeric",
    "chrono",
    "memory",
    "thread",
    "mutex",
    "random",
    "functional",
    "iterator",
    "exception",
    "stdexcept",
    "ctime",
    "time.h",
    "sys/time.h",
    "unistd.h",
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "cuda.h",
    "cuda_profiler_api.h",
    "device_launch_parameters.h",
    "windows.h",
    "sys/utsname.h",
    "omp.h",
    "cublas_v2.h",
    "curand.h",
    "cufft.h",
    "nvrtc.h",
    "helper_cuda.h",
    "helper_functions.h",
    "helper_string.h",
    "helper_timer.h",
    "helper_image.h",
    // The CUDA libraries' host APIs: installed beside the device headers, so found.
    "cublas.h",
    "cublas_api.h",
    "cublasLt.h",
    "cublasXt.h",
    "cusparse.h",
    "cusolverDn.h",
    "cusolverSp.h",
    "cufftXt.h",
    "curand_mtgp32_host.h",
    "nvml.h",
    "nccl.h",
    "cudnn.h",
    "nvToolsExt.h",
    "nvtx3/nvToolsExt.h",
    "nvtx3/nvtx3.hpp",
    "nvtx3/nvToolsExtCuda.h",
    "nvtx3/nvToolsExtCudaRt.h",
    "cuda_gl_interop.h",
    "mpi.h",
};

// Host headers whose device part is compiled in their place (BuiltinHeaders holds the
// parts; `what` says what each one brings).
struct DevicePart {
    std::string_view header, part, what;
};
constexpr std::string_view kCublasPart = "kwb_device_part_cublas.h",
                           kCublasWhat = "cuComplex.h, cuda_fp16.h and cuda_bf16.h";
constexpr std::string_view kCufftPart = "kwb_device_part_cufft.h",
                           kCufftWhat = "cuComplex.h and the cufftComplex types";
constexpr DevicePart kDeviceParts[] = {
    {"cublas_v2.h", kCublasPart, kCublasWhat},
    {"cublas_api.h", kCublasPart, kCublasWhat},
    {"cublas.h", kCublasPart, kCublasWhat},
    {"cublasLt.h", kCublasPart, kCublasWhat},
    {"cublasXt.h", kCublasPart, kCublasWhat},
    {"cusolverDn.h", kCublasPart, kCublasWhat},
    {"cusparse.h", kCublasPart, kCublasWhat},
    {"cufft.h", kCufftPart, kCufftWhat},
    {"cufftXt.h", kCufftPart, kCufftWhat},
    {"nccl.h", "kwb_device_part_half_types.h", "cuda_fp16.h and cuda_bf16.h"},
    // The driver API's header includes <stdint.h>: uint8_t and the rest in device code.
    {"cuda.h", "stdint.h", "stdint.h's fixed-width types"},
};

const DevicePart* devicePartOf(std::string_view header)
{
    for (const auto& p : kDeviceParts)
        if (p.header == header)
            return &p;
    return nullptr;
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view directiveWord(std::string_view d)
{
    std::size_t i = 1;
    while (i < d.size() && (d[i] == ' ' || d[i] == '\t'))
        ++i;
    std::size_t j = i;
    while (j < d.size() && (std::isalpha(static_cast<unsigned char>(d[j])) || d[j] == '_'))
        ++j;
    return d.substr(i, j - i);
}

class Filter {
public:
    explicit Filter(std::string_view source)
        : src_(source)
        , toks_(lexSource(source))
    {
        out_.text = std::string(source);
    }

    DeviceSource run()
    {
        collectDeviceMacros();
        std::size_t declStart = 0;
        for (std::size_t i = 0; i < toks_.size(); ++i) {
            const SourceToken& t = toks_[i];
            if (t.kind == SourceToken::Kind::Directive) {
                if (const IncludeDirective inc = IncludeDirective::read(t.text);
                    inc.word == IncludeDirective::Word::Include) {
                    const std::string& name = inc.name;
                    if (const DevicePart* part = devicePartOf(name))
                        replaceInclude(i, *part);
                    else if (HostCodeFilter::isHostHeader(name))
                        blank(i, i, "#include " + std::string(name));
                }
                if (declStart == i)
                    declStart = i + 1;
                continue;
            }
            if (isPunct(t, "{")) {
                if (opensScope(declStart, i)) {
                    declStart = i + 1;
                    continue;
                }
                const std::size_t close = matching(i);
                if (isFunction(declStart, i)) {
                    if (!isDevice(declStart, i))
                        blank(declStart, close, describeFunction(declStart, i));
                    declStart = close + 1;
                }
                i = close; // an aggregate or class body: the declaration goes on to its ';'
                continue;
            }
            if (isPunct(t, "}")) { // the end of a namespace or extern "C" block
                declStart = i + 1;
                continue;
            }
            if (isPunct(t, ";")) {
                if (declStart < i && isHostDeclaration(declStart, i))
                    blank(declStart, i, describeDeclaration(declStart, i));
                declStart = i + 1;
            }
        }
        applyReplacements();
        return std::move(out_);
    }

private:
    static bool isPunct(const SourceToken& t, std::string_view p)
    {
        return t.kind == SourceToken::Kind::Punct && t.text == p;
    }
    bool ident(std::size_t i, std::string_view name) const
    {
        return toks_[i].kind == SourceToken::Kind::Identifier && toks_[i].text == name;
    }

    // #define NAME ... __device__ ...: NAME marks device code too.
    void collectDeviceMacros()
    {
        deviceWords_ = {"__global__", "__device__"};
        for (const auto& t : toks_) {
            if (t.kind != SourceToken::Kind::Directive || directiveWord(t.text) != "define")
                continue;
            const std::string_view d = t.text;
            std::size_t i = d.find("define") + 6;
            while (i < d.size() && (d[i] == ' ' || d[i] == '\t'))
                ++i;
            std::size_t j = i;
            while (j < d.size() && (std::isalnum(static_cast<unsigned char>(d[j])) || d[j] == '_'))
                ++j;
            const std::string_view rest = d.substr(j);
            if (j > i
                && (rest.find("__device__") != std::string_view::npos
                    || rest.find("__global__") != std::string_view::npos))
                deviceWords_.insert(std::string(d.substr(i, j - i)));
        }
    }

    // namespace X {  /  extern "C" {  /  namespace {
    bool opensScope(std::size_t from, std::size_t brace) const
    {
        if (from >= brace)
            return false;
        // `inline namespace X {`, not `inline __device__ int f() {`: treating a function's
        // body as a scope would judge its statements as declarations and blank device code.
        if (ident(from, "namespace") || (ident(from, "inline") && from + 1 < brace && ident(from + 1, "namespace")))
            return true;
        return ident(from, "extern") && brace == from + 2 && toks_[from + 1].kind == SourceToken::Kind::String;
    }

    std::size_t matching(std::size_t open) const
    {
        int depth = 0;
        for (std::size_t i = open; i < toks_.size(); ++i) {
            if (isPunct(toks_[i], "{"))
                ++depth;
            else if (isPunct(toks_[i], "}") && --depth == 0)
                return i;
        }
        return toks_.size() - 1;
    }

    // The `>` that closes the template parameter list opening at `open` (a `<`).
    std::size_t templateListEnd(std::size_t open, std::size_t end) const
    {
        int depth = 0;
        for (std::size_t i = open; i < end; ++i) {
            if (isPunct(toks_[i], "<"))
                ++depth;
            else if (isPunct(toks_[i], ">"))
                --depth;
            else if (isPunct(toks_[i], ">>"))
                depth -= 2;
            if (depth <= 0)
                return i;
        }
        return end;
    }

    // A body after a parameter list: "...) {", "...) const {", "...) : a(1) {", "...) -> T {".
    // A template's default arguments (`template <int N = 16>`) are not an initialiser.
    bool isFunction(std::size_t from, std::size_t brace) const
    {
        bool sawParen = false;
        for (std::size_t i = from; i < brace; ++i) {
            if (ident(i, "template") && i + 1 < brace && isPunct(toks_[i + 1], "<")) {
                i = templateListEnd(i + 1, brace);
                continue;
            }
            const bool assignment = isPunct(toks_[i], "=") && !(i > from && ident(i - 1, "operator"));
            if (!sawParen
                && (assignment || ident(i, "struct") || ident(i, "class") || ident(i, "union") || ident(i, "enum")))
                return false;
            if (isPunct(toks_[i], "("))
                sawParen = true;
        }
        return sawParen;
    }

    bool isDevice(std::size_t from, std::size_t to) const
    {
        for (std::size_t i = from; i < to; ++i)
            if (toks_[i].kind == SourceToken::Kind::Identifier && deviceWords_.count(std::string(toks_[i].text)))
                return true;
        return false;
    }

    // The function's name: the identifier before its parameter list, or before the
    // template arguments there (`launch<int>(`).
    std::string functionName(std::size_t from, std::size_t end) const
    {
        for (std::size_t i = from; i + 1 < end; ++i) {
            if (!isPunct(toks_[i + 1], "("))
                continue;
            if (toks_[i].kind == SourceToken::Kind::Identifier)
                return std::string(toks_[i].text);
            if (!isPunct(toks_[i], ">"))
                continue;
            int depth = 0; // of the `<...>` nested inside the arguments
            for (std::size_t j = i; j-- > from;) {
                if (isPunct(toks_[j], ">"))
                    ++depth;
                else if (isPunct(toks_[j], "<") && depth-- == 0) {
                    if (j > from && toks_[j - 1].kind == SourceToken::Kind::Identifier)
                        return std::string(toks_[j - 1].text);
                    break;
                }
            }
        }
        return "?";
    }

    // "function main", or "explicit specialisation of launch" (`template <> void launch<int>(...) {...}`).
    std::string describeFunction(std::size_t from, std::size_t brace) const
    {
        const bool specialisation = ident(from, "template") && from + 2 < brace && isPunct(toks_[from + 1], "<")
            && isPunct(toks_[from + 2], ">");
        return (specialisation ? "explicit specialisation of " : "function ") + functionName(from, brace);
    }

    // "explicit instantiation of launch" (`extern template void launch<double>(double*, int);`), else "declaration".
    std::string describeDeclaration(std::size_t from, std::size_t semi) const
    {
        if (ident(from, "extern") && from + 1 < semi && ident(from + 1, "template"))
            return "explicit instantiation of " + functionName(from, semi);
        return "declaration";
    }

    // A prototype without a device qualifier, a declaration that needs the CUDA runtime
    // or the C++ library (cudaEvent_t start; using namespace std;), or a namespace-scope
    // variable without a memory space (NVRTC refuses host variables).
    bool isHostDeclaration(std::size_t from, std::size_t semi) const
    {
        if (isDevice(from, semi))
            return false;
        for (const char* keep :
             {"typedef", "template", "namespace", "static_assert", "struct", "class", "union", "enum"})
            if (ident(from, keep) || (ident(from, "using") && !(from + 2 < semi && ident(from + 2, "std"))))
                return false;
        for (std::size_t i = from; i < semi; ++i) {
            const SourceToken& t = toks_[i];
            if (t.kind != SourceToken::Kind::Identifier)
                continue;
            if (t.text == "std"
                || (startsWith(t.text, "cuda") && t.text.size() > 4
                    && std::isupper(static_cast<unsigned char>(t.text[4]))))
                return true;
            if (t.text == "__constant__" || t.text == "__shared__" || t.text == "__managed__")
                return false;
        }
        for (std::size_t i = from; i < semi; ++i)
            if (ident(i, "struct") || ident(i, "class") || ident(i, "union") || ident(i, "enum")
                || ident(i, "constexpr"))
                return false; // a type, or a constant device code may read
        // A function prototype: name ( ... ) ; with no '=' before the parenthesis.
        for (std::size_t i = from; i + 1 < semi; ++i) {
            if (isPunct(toks_[i], "=") || isPunct(toks_[i], "{"))
                break;
            if (toks_[i].kind == SourceToken::Kind::Identifier && isPunct(toks_[i + 1], "(") && i > from
                && !ident(i, "__launch_bounds__") && !ident(i, "__align__") && !ident(i, "alignas"))
                return true;
        }
        // A variable: const non-pointer ones are constants NVRTC accepts; others are host data.
        bool isConst = false, isPointer = false;
        for (std::size_t i = from; i < semi && !isPunct(toks_[i], "="); ++i) {
            isConst = isConst || ident(i, "const");
            isPointer = isPointer || isPunct(toks_[i], "*") || isPunct(toks_[i], "&");
        }
        return !(isConst && !isPointer);
    }

    // The directive becomes an #include of the header's device part, on its own line,
    // which holds nothing else; later lines keep their offsets relative to each other.
    void replaceInclude(std::size_t i, const DevicePart& part)
    {
        const std::string include = "#include <" + std::string(part.part) + ">";
        replacements_.push_back({toks_[i].offset, toks_[i].text.size(), include});
        out_.removed.push_back(HostCodeRange{toks_[i].line, toks_[i].line,
                                             "#include " + std::string(part.header) + " (its device part, "
                                                 + std::string(part.what) + ", is compiled)"});
    }

    void applyReplacements()
    {
        for (auto r = replacements_.rbegin(); r != replacements_.rend(); ++r)
            out_.text.replace(r->offset, r->length, r->text);
    }

    void blank(std::size_t first, std::size_t last, const std::string& what)
    {
        DeclarationBlanker::blank(out_.text, toks_, first, last);
        int lastLine = toks_[last].line;
        for (char c : toks_[last].text)
            lastLine += c == '\n';
        out_.removed.push_back(HostCodeRange{toks_[first].line, lastLine, what});
    }

    struct Replacement {
        std::size_t offset, length;
        std::string text;
    };
    std::vector<Replacement> replacements_; // applied last, so token offsets stay valid

    std::string_view src_;
    std::vector<SourceToken> toks_;
    std::set<std::string> deviceWords_;
    DeviceSource out_;
};

} // namespace

bool HostCodeFilter::isHostHeader(std::string_view name)
{
    return std::find(std::begin(kHostHeaders), std::end(kHostHeaders), name) != std::end(kHostHeaders);
}

DeviceSource HostCodeFilter::deviceOnly(std::string_view source) { return Filter(source).run(); }

} // namespace kw
