#include "compile/NvrtcInProcess.hpp"

#include "compile/BuiltinHeaders.hpp"
#include "compile/NvrtcLibrary.hpp"

#include <algorithm>
#include <string>
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
    Program prog(nv, job);
    for (const auto& n : job.names)
        nv.check(nv.addNameExpression(prog.get(), n.c_str()), "nvrtcAddNameExpression");
    std::vector<const char*> argv;
    for (const auto& a : job.args)
        argv.push_back(a.c_str());
    const nvrtcResult rc = nv.compileProgram(prog.get(), static_cast<int>(argv.size()), argv.data());

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
