#include "compile/NvrtcInProcess.hpp"

#include "compile/BuiltinHeaders.hpp"
#include "compile/NvrtcLibrary.hpp"
#include "compile/PtxSourceName.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace kw {

namespace {

// Destroys the NVRTC program on every path out.
class Program {
public:
    Program(const NvrtcLibrary& nv, const NvrtcJob& job)
        : nv_(nv)
    {
        std::vector<const char*> texts, names;
        for (const auto& h : BuiltinHeaders::all()) {
            texts.push_back(h.text.c_str());
            names.push_back(h.name.c_str());
        }
        for (const auto& h : job.headers) {
            texts.push_back(h.text.c_str());
            names.push_back(h.name.c_str());
        }
        nv_.check(nv_.createProgram(&prog_, job.source.c_str(), job.sourceName.c_str(), static_cast<int>(texts.size()),
                                    texts.data(), names.data()),
                  "nvrtcCreateProgram");
    }
    ~Program()
    {
        if (prog_)
            nv_.destroyProgram(&prog_);
    }
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;
    nvrtcProgram get() const { return prog_; }

private:
    const NvrtcLibrary& nv_;
    nvrtcProgram prog_ = nullptr;
};

// One of NVRTC's outputs (PTX, CUBIN), by its size and then its bytes.
template <typename Bytes, typename SizeFn, typename GetFn>
Bytes output(const NvrtcLibrary& nv, nvrtcProgram prog, SizeFn size, GetFn get, const char* what)
{
    std::size_t n = 0;
    nv.check(size(prog, &n), (std::string(what) + "Size").c_str());
    Bytes out(n, '\0');
    if (n > 0)
        nv.check(get(prog, out.data()), what);
    return out;
}

} // namespace

CompileResult runNvrtcInProcess(const NvrtcLibrary& nv, const NvrtcJob& job)
{
    // Grows NVRTC's PCH heap once the program is gone (declared first, destroyed last).
    struct PchHeapGrowth {
        const NvrtcLibrary& nv;
        std::size_t bytes = 0;
        ~PchHeapGrowth()
        {
            if (bytes > 0)
                nv.setPCHHeapSize(bytes);
        }
    } growth{nv};
    Program prog(nv, job);
    for (const auto& n : job.names)
        nv.check(nv.addNameExpression(prog.get(), n.c_str()), "nvrtcAddNameExpression");
    std::vector<std::string> args = job.args;
    const bool pch = !job.pchDir.empty() && nv.hasPch();
    if (pch) {
        // NVRTC's messages say whether a PCH was made or used (PchLog takes them out of
        // the log); its reasons for not using one are noise to the user.
        for (const char* a : {"-pch", "-pch-verbose=false", "-pch-messages=true"})
            args.emplace_back(a);
        args.push_back("-pch-dir=" + job.pchDir);
    }
    std::vector<const char*> argv;
    for (const auto& a : args)
        argv.push_back(a.c_str());
    const nvrtcResult rc = nv.compileProgram(prog.get(), static_cast<int>(argv.size()), argv.data());
    if (pch && nv.getPCHCreateStatus(prog.get()) == NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED) {
        // The headers did not fit NVRTC's PCH heap: grow it (up to 2 GiB), so the next
        // compile of this source makes its PCH.
        std::size_t need = 0;
        if (nv.getPCHHeapSizeRequired(prog.get(), &need) == NVRTC_SUCCESS && need <= (std::size_t(2) << 30))
            growth.bytes = need;
    }

    CompileResult r;
    std::size_t logSize = 0;
    nv.check(nv.getProgramLogSize(prog.get(), &logSize), "nvrtcGetProgramLogSize");
    r.log.assign(logSize, '\0');
    if (logSize > 0)
        nv.check(nv.getProgramLog(prog.get(), r.log.data()), "nvrtcGetProgramLog");
    while (!r.log.empty() && r.log.back() == '\0')
        r.log.pop_back();
    // NVRTC joins ptxas's report and its errors with a NUL between them.
    std::replace(r.log.begin(), r.log.end(), '\0', '\n');
    if (rc == NVRTC_ERROR_COMPILATION || rc == NVRTC_ERROR_INVALID_OPTION)
        return r; // a user-code or user-option error: a value, not an exception
    nv.check(rc, "nvrtcCompileProgram");
    r.ok = true;

    r.ptx = output<std::string>(nv, prog.get(), nv.getPTXSize, nv.getPTX, "nvrtcGetPTX");
    while (!r.ptx.empty() && r.ptx.back() == '\0')
        r.ptx.pop_back();
    r.ptx = PtxSourceName::restore(std::move(r.ptx), PtxSourceName::compiledPath(job.sourceName), job.sourceName);
    if (job.wantCubin)
        r.cubin = output<std::vector<char>>(nv, prog.get(), nv.getCUBINSize, nv.getCUBIN, "nvrtcGetCUBIN");
    for (const auto& n : job.names) {
        const char* lowered = nullptr;
        nv.check(nv.getLoweredName(prog.get(), n.c_str(), &lowered), "nvrtcGetLoweredName");
        if (lowered)
            r.loweredNames[n] = lowered;
    }
    return r;
}

} // namespace kw
