#include "export/CppRuntime.hpp"

namespace kw::exporting {

namespace {

constexpr const char* kText = R"CPP(#include <cuda.h>
#include <nvrtc.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#ifndef KWB_EXPORT_DIR
#define KWB_EXPORT_DIR "."
#endif

namespace {

using Bytes = std::vector<unsigned char>;
using Doubles = std::map<std::string, std::vector<double>>;

struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

[[maybe_unused]] void check_cu(CUresult r, const char* what)
{
    if (r == CUDA_SUCCESS)
        return;
    const char* name = nullptr;
    const char* text = nullptr;
    cuGetErrorName(r, &name);
    cuGetErrorString(r, &text);
    throw Failure(std::string(what) + ": " + (name ? name : "?") + " (" + (text ? text : "") + ")");
}
#define CU(call) check_cu((call), #call)

[[maybe_unused]] void check_nvrtc(nvrtcResult r, const char* what)
{
    if (r != NVRTC_SUCCESS)
        throw Failure(std::string(what) + ": " + nvrtcGetErrorString(r));
}

[[maybe_unused]] std::string read_text(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Failure("cannot read " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// ---- .npy: version 1.0, little-endian, C order ----
struct Npy {
    std::string descr;
    std::vector<std::size_t> shape;
    Bytes data;
};

[[maybe_unused]] Npy read_npy(const std::string& path)
{
    const std::string all = read_text(path);
    if (all.size() < 10 || all.compare(0, 6, "\x93NUMPY") != 0)
        throw Failure(path + ": not a .npy file");
    const int major = static_cast<unsigned char>(all[6]);
    std::size_t headerLength = 0, at = 0;
    if (major == 1) {
        headerLength = static_cast<unsigned char>(all[8]) | (std::size_t(static_cast<unsigned char>(all[9])) << 8);
        at = 10;
    } else {
        for (int i = 0; i < 4; ++i)
            headerLength |= std::size_t(static_cast<unsigned char>(all[8 + std::size_t(i)])) << (8 * i);
        at = 12;
    }
    const std::string header = all.substr(at, headerLength);
    Npy npy;
    const std::size_t d = header.find("'descr':");
    const std::size_t q1 = header.find('\'', d + 8), q2 = header.find('\'', q1 + 1);
    npy.descr = header.substr(q1 + 1, q2 - q1 - 1);
    const std::size_t s = header.find('(', header.find("'shape':")), e = header.find(')', s);
    std::stringstream dims(header.substr(s + 1, e - s - 1));
    for (std::string part; std::getline(dims, part, ',');)
        if (part.find_first_of("0123456789") != std::string::npos)
            npy.shape.push_back(std::stoull(part));
    npy.data.assign(all.begin() + std::ptrdiff_t(at + headerLength), all.end());
    return npy;
}

[[maybe_unused]] void write_npy(const std::string& path, const std::string& descr, const std::vector<std::size_t>& shape,
               const Bytes& data)
{
    std::string dims;
    for (std::size_t d : shape)
        dims += std::to_string(d) + ", ";
    if (shape.size() > 1)
        dims.resize(dims.size() - 2);
    std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
    const std::size_t total = 10 + header.size() + 1;
    header += std::string((64 - total % 64) % 64, ' ') + "\n";
    std::ofstream out(path, std::ios::binary);
    out.write("\x93NUMPY\x01\x00", 8);
    const char length[2] = {char(header.size() & 0xff), char(header.size() >> 8)};
    out.write(length, 2);
    out << header;
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
    if (!out)
        throw Failure("cannot write " + path);
}

// ---- element conversions (bf16 travels as its 16 bits, as in the workbench's .npy files) ----
[[maybe_unused]] double element_as_double(const std::string& dtype, const unsigned char* p)
{
    auto load = [p](auto v) {
        std::memcpy(&v, p, sizeof v);
        return v;
    };
    if (dtype == "i1") return double(load(std::int8_t()));
    if (dtype == "u1") return double(load(std::uint8_t()));
    if (dtype == "i2") return double(load(std::int16_t()));
    if (dtype == "u2") return double(load(std::uint16_t()));
    if (dtype == "i4") return double(load(std::int32_t()));
    if (dtype == "u4") return double(load(std::uint32_t()));
    if (dtype == "i8") return double(load(std::int64_t()));
    if (dtype == "u8") return double(load(std::uint64_t()));
    if (dtype == "f4") return double(load(float()));
    if (dtype == "f8") return load(double());
    if (dtype == "bf16") {
        const std::uint32_t bits = std::uint32_t(load(std::uint16_t())) << 16;
        float f;
        std::memcpy(&f, &bits, 4);
        return double(f);
    }
    if (dtype == "f2") {
        const std::uint16_t h = load(std::uint16_t());
        const int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
        const double sign = (h & 0x8000) ? -1.0 : 1.0;
        if (exponent == 0)
            return sign * std::ldexp(double(mantissa), -24);
        if (exponent == 31)
            return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * std::numeric_limits<double>::infinity();
        return sign * std::ldexp(double(mantissa + 1024), exponent - 25);
    }
    throw Failure("unknown dtype " + dtype);
}

[[maybe_unused]] std::size_t dtype_size(const std::string& dtype)
{
    if (dtype == "bf16")
        return 2;
    return std::size_t(dtype[1] - '0');
}

[[maybe_unused]] std::vector<double> as_doubles(const std::string& dtype, const Bytes& bytes)
{
    const std::size_t size = dtype_size(dtype);
    std::vector<double> v(bytes.size() / size);
    for (std::size_t k = 0; k < v.size(); ++k)
        v[k] = element_as_double(dtype, bytes.data() + k * size);
    return v;
}

// A scalar of the dtype from a double, as the workbench packs it.
[[maybe_unused]] Bytes pack(const std::string& dtype, double v)
{
    Bytes out(dtype_size(dtype));
    auto store = [&out](auto x) { std::memcpy(out.data(), &x, sizeof x); };
    if (dtype == "i1") store(std::int8_t(v));
    else if (dtype == "u1") store(std::uint8_t(v));
    else if (dtype == "i2") store(std::int16_t(v));
    else if (dtype == "u2") store(std::uint16_t(v));
    else if (dtype == "i4") store(std::int32_t(v));
    else if (dtype == "u4") store(std::uint32_t(v));
    else if (dtype == "i8") store(std::int64_t(v));
    else if (dtype == "u8") store(std::uint64_t(v));
    else if (dtype == "f4") store(float(v));
    else if (dtype == "f8") store(v);
    else if (dtype == "bf16") {
        const float f = float(v);
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        store(std::uint16_t((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16));
    } else
        throw Failure("a computed scalar of dtype " + dtype + " is not supported here");
    return out;
}

// ---- the document's expression language, as the workbench evaluates it (doubles) ----
[[maybe_unused]] int kw_shift_count(double b) { return std::isnan(b) ? 0 : int(std::clamp(std::trunc(b), -4096.0, 4096.0)); }
[[maybe_unused]] double kw_shl(double a, double b) { return std::ldexp(std::trunc(a), kw_shift_count(b)); }
[[maybe_unused]] double kw_shr(double a, double b) { return std::floor(std::ldexp(std::trunc(a), -kw_shift_count(b))); }
[[maybe_unused]] double kw_sign(double a) { return a < 0 ? -1.0 : (a > 0 ? 1.0 : 0.0); }
[[maybe_unused]] double kw_log2(double a) { return std::log(a) / std::log(2.0); }
[[maybe_unused]] double kw_rint(double a) { return std::floor(a + 0.5); }
[[maybe_unused]] double kw_cdiv(double a, double b) { return std::ceil(a / b); }
template <typename... T> [[maybe_unused]] double kw_min(double a, T... rest)
{
    for (double b : {double(rest)...})
        a = std::min(a, b);
    return a;
}
template <typename... T> [[maybe_unused]] double kw_max(double a, T... rest)
{
    for (double b : {double(rest)...})
        a = std::max(a, b);
    return a;
}
template <typename... T> [[maybe_unused]] double kw_sum(T... v)
{
    double s = 0;
    for (double b : {double(v)...})
        s += b;
    return s;
}
template <typename... T> [[maybe_unused]] double kw_avg(T... v) { return kw_sum(v...) / double(sizeof...(v)); }

// Numbers printed as the workbench prints them: the shortest text that reads back.
[[maybe_unused]] std::string kw_num(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v < 0 ? "-inf" : "inf";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    const std::string sci(buf, r.ptr);
    const std::size_t e = sci.find('e');
    const int exponent = std::stoi(sci.substr(e + 1));
    if (exponent < -4 || exponent >= 16)
        return sci;
    const auto f = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
    return std::string(buf, f.ptr);
}

[[maybe_unused]] std::string kw_g3(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

[[maybe_unused]] double kw_at(const std::vector<double>& values, double j, const char* name)
{
    if (!(j >= 0) || j != std::floor(j) || j >= double(values.size()))
        throw Failure(std::string(name) + "(" + kw_num(j) + ") is outside the buffer (" +
                      std::to_string(values.size()) + " elements)");
    return values[std::size_t(j)];
}

[[maybe_unused]] std::size_t kw_count(double v, const char* field)
{
    if (!(v >= 0) || v != std::floor(v))
        throw Failure(std::string(field) + ": " + kw_num(v) + " is not a whole number");
    return std::size_t(v);
}

// ---- checks: the workbench's CheckEvaluator and its summary lines ----
struct Mismatch {
    std::size_t index;
    double got, expected;
};

struct CheckResult {
    std::string buffer, expect;
    bool passed = false;
    std::size_t checked = 0, mismatches = 0;
    double maxAbs = 0, maxRel = 0;
    std::vector<Mismatch> first;
};

using PerElement = std::function<double(std::size_t k, double i, double x, double y, double z)>;

[[maybe_unused]] bool within(CheckResult& r, double absTol, double relTol, double got, double expected)
{
    if (std::isnan(expected) || std::isnan(got))
        return std::isnan(expected) && std::isnan(got);
    if (std::isinf(expected) || std::isinf(got))
        return expected == got;
    const double err = std::fabs(got - expected);
    r.maxAbs = std::max(r.maxAbs, err);
    if (expected != 0)
        r.maxRel = std::max(r.maxRel, err / std::fabs(expected));
    return err <= absTol + relTol * std::fabs(expected);
}

[[maybe_unused]] double aggregate(const std::string& kind, const std::vector<double>& values)
{
    double acc = kind == "min" ? std::numeric_limits<double>::infinity()
                               : kind == "max" ? -std::numeric_limits<double>::infinity() : kind == "all" ? 1.0 : 0.0;
    for (double v : values) {
        if (kind == "sum" || kind == "mean")
            acc += v;
        else if (kind == "min")
            acc = std::isnan(v) || std::isnan(acc) ? std::numeric_limits<double>::quiet_NaN() : std::min(acc, v);
        else if (kind == "max")
            acc = std::isnan(v) || std::isnan(acc) ? std::numeric_limits<double>::quiet_NaN() : std::max(acc, v);
        else if (kind == "count")
            acc += v != 0 ? 1 : 0;
        else if (kind == "any")
            acc = acc != 0 || v != 0 ? 1 : 0;
        else if (kind == "all")
            acc = acc != 0 && v != 0 ? 1 : 0;
    }
    if (kind == "mean")
        return values.empty() ? std::numeric_limits<double>::quiet_NaN() : acc / double(values.size());
    return acc;
}

[[maybe_unused]] CheckResult run_check(const std::string& buffer, const std::string& shown, const std::string& kind,
                      const std::vector<double>& got, const std::vector<std::size_t>& shape, const PerElement& of,
                      const PerElement& expect, double absTol, double relTol)
{
    CheckResult r;
    r.buffer = buffer;
    r.expect = shown;
    r.checked = got.size();
    const std::size_t w = shape.empty() ? 1 : std::max<std::size_t>(shape.back(), 1);
    const std::size_t h = shape.size() >= 2 ? std::max<std::size_t>(shape[shape.size() - 2], 1) : 1;
    const auto at = [&](const PerElement& f, std::size_t k) {
        return f(k, double(k), double(k % w), double((k / w) % h), double(k / (w * h)));
    };
    if (!kind.empty()) {
        std::vector<double> values(got.size());
        for (std::size_t k = 0; k < got.size(); ++k)
            values[k] = at(of, k);
        const double value = aggregate(kind, values);
        const double expected = expect(0, 0, 0, 0, 0);
        if (!within(r, absTol, relTol, value, expected)) {
            r.first.push_back({0, value, expected});
            r.mismatches = 1;
        }
    } else {
        for (std::size_t k = 0; k < got.size(); ++k) {
            const double expected = at(expect, k);
            if (!within(r, absTol, relTol, got[k], expected)) {
                if (r.first.size() < 10)
                    r.first.push_back({k, got[k], expected});
                ++r.mismatches;
            }
        }
    }
    r.passed = r.mismatches == 0;
    return r;
}

[[maybe_unused]] std::string check_lines(const std::vector<CheckResult>& results, const std::string& indent)
{
    std::string text;
    for (const auto& c : results) {
        text += indent + "check    " + c.buffer + " = " + c.expect + ": " + (c.passed ? "passed" : "FAILED") + " (" +
                std::to_string(c.mismatches) + " of " + std::to_string(c.checked) +
                " elements differ, max abs error " + kw_g3(c.maxAbs) + ", max rel error " + kw_g3(c.maxRel) + ")\n";
        for (const auto& m : c.first)
            text += indent + "           [" + std::to_string(m.index) + "] got " + kw_num(m.got) + " expected " +
                    kw_num(m.expected) + "\n";
    }
    return text;
}

// TimingStats: min, median (interpolated between the middle two), mean.
[[maybe_unused]] void timing_stats(std::vector<double> s, double& low, double& median, double& mean)
{
    std::sort(s.begin(), s.end());
    low = median = mean = 0;
    if (s.empty())
        return;
    const double pos = 0.5 * double(s.size() - 1);
    const std::size_t lo = std::size_t(std::floor(pos)), hi = std::min(lo + 1, s.size() - 1);
    low = s.front();
    median = s[lo] + (pos - double(lo)) * (s[hi] - s[lo]);
    double sum = 0;
    for (double v : s)
        sum += v;
    mean = sum / double(s.size());
}

// ---- the document's buffers on the device ----
struct Buffer {
    std::string name, dtype; // dtype: "f4", "i4", ... and "bf16"
    std::string descr;       // as .npy names it ("<f4"; bf16 as "<u2")
    std::size_t count = 0;
    std::vector<std::size_t> shape;
    std::string direction;
    bool global = false;
    Bytes host; // the contents before the run
};

struct Arg {
    Bytes bytes;
};

struct StepRecord {
    std::size_t runs = 0;
    double ms = 0;
    unsigned grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
    bool checked = false;
    std::vector<CheckResult> checks;
};

// The document's part defines these: a cubin compiled on export (--cubin), else empty.
const Bytes& embeddedCubin();
int embeddedArch();
const std::map<std::string, std::string>& embeddedNames();

class Device {
public:
    Device(const std::string& folder, const std::string& sourceName, std::vector<std::string> options,
           const std::vector<std::string>& kernels)
    {
        CU(cuInit(0));
        CU(cuDeviceGet(&device_, 0));
        CU(cuDevicePrimaryCtxRetain(&context_, device_));
        CU(cuCtxSetCurrent(context_));
        char name[256] = {};
        CU(cuDeviceGetName(name, sizeof name, device_));
        name_ = name;
        int major = 0, minor = 0;
        CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device_));
        CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device_));
        Bytes image;
        if (embeddedCubin().empty()) {
            image = compile(folder, sourceName, options, kernels, major, minor);
        } else { // built with --cubin: the binary compiled on export, for one architecture
            if (embeddedArch() != major * 10 + minor)
                throw Failure("the embedded cubin is for sm_" + std::to_string(embeddedArch()) + " and this GPU is sm_" +
                              std::to_string(major * 10 + minor) + ": export without --cubin to compile here");
            image = embeddedCubin();
            lowered_ = embeddedNames();
        }
        CU(cuModuleLoadData(&module_, image.data()));
        for (const auto& k : kernels) {
            CUfunction f = nullptr;
            CU(cuModuleGetFunction(&f, module_, lowered_[k].c_str()));
            functions_[k] = f;
        }
    }
    ~Device()
    {
        for (CUdeviceptr p : allocations_)
            cuMemFree(p);
        if (module_)
            cuModuleUnload(module_);
        cuDevicePrimaryCtxRelease(device_);
    }
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    const std::string& name() const { return name_; }
    CUdeviceptr alloc(std::size_t bytes)
    {
        CUdeviceptr p = 0;
        CU(cuMemAlloc(&p, std::max<std::size_t>(bytes, 1)));
        allocations_.push_back(p);
        return p;
    }
    CUdeviceptr global(const std::string& name, std::size_t bytes) const
    {
        CUdeviceptr p = 0;
        std::size_t size = 0;
        CU(cuModuleGetGlobal(&p, &size, module_, name.c_str()));
        if (size != bytes)
            throw Failure("global '" + name + "': the variable is " + std::to_string(size) +
                          " bytes but the document gives " + std::to_string(bytes) + " bytes");
        return p;
    }
    double launch(const std::string& kernel, const unsigned grid[3], const unsigned block[3], unsigned shared,
                  std::vector<Arg>& args)
    {
        std::vector<void*> params;
        for (auto& a : args)
            params.push_back(a.bytes.data());
        CUevent start = nullptr, stop = nullptr;
        CU(cuEventCreate(&start, CU_EVENT_DEFAULT));
        CU(cuEventCreate(&stop, CU_EVENT_DEFAULT));
        CU(cuEventRecord(start, nullptr));
        CU(cuLaunchKernel(functions_.at(kernel), grid[0], grid[1], grid[2], block[0], block[1], block[2], shared,
                          nullptr, params.data(), nullptr));
        CU(cuEventRecord(stop, nullptr));
        CU(cuEventSynchronize(stop));
        float ms = 0;
        CU(cuEventElapsedTime(&ms, start, stop));
        cuEventDestroy(start);
        cuEventDestroy(stop);
        return double(ms);
    }

private:
    // NVRTC compiles the source for this GPU (or the document's arch) and gives the kernels' names.
    Bytes compile(const std::string& folder, const std::string& sourceName, std::vector<std::string> options,
                  const std::vector<std::string>& kernels, int major, int minor)
    {
        bool hasArch = false;
        for (const auto& o : options)
            hasArch = hasArch || o.rfind("-arch=", 0) == 0;
#ifdef KWB_CUDA_INCLUDE_DIR
        // The toolkit's device headers (<cuda_fp16.h>, CCCL), as the workbench passes them.
        options.push_back(std::string("-I") + KWB_CUDA_INCLUDE_DIR);
        if (std::filesystem::is_directory(std::string(KWB_CUDA_INCLUDE_DIR) + "/cccl"))
            options.push_back(std::string("-I") + KWB_CUDA_INCLUDE_DIR + "/cccl");
#endif
        if (!hasArch) // the GPU's own binary where NVRTC knows the GPU, else PTX the driver translates
            options.push_back((nvrtcKnows(major * 10 + minor) ? "-arch=sm_" : "-arch=compute_") +
                              std::to_string(major * 10 + minor));
        const std::string source = read_text(folder + "/" + sourceName);
        nvrtcProgram program = nullptr;
        check_nvrtc(nvrtcCreateProgram(&program, source.c_str(), sourceName.c_str(), 0, nullptr, nullptr),
                    "nvrtcCreateProgram");
        for (const auto& k : kernels)
            check_nvrtc(nvrtcAddNameExpression(program, k.c_str()), "nvrtcAddNameExpression");
        std::vector<const char*> argv;
        for (const auto& o : options)
            argv.push_back(o.c_str());
        const nvrtcResult compiled = nvrtcCompileProgram(program, int(argv.size()), argv.data());
        std::size_t logSize = 0;
        nvrtcGetProgramLogSize(program, &logSize);
        std::string log(logSize, '\0');
        nvrtcGetProgramLog(program, log.data());
        if (compiled != NVRTC_SUCCESS)
            throw Failure("the source did not compile:\n" + log);
        std::size_t size = 0;
        Bytes image;
        bool cubin = false;
        for (const auto& o : options)
            cubin = cubin || o.rfind("-arch=sm_", 0) == 0;
        if (cubin) {
            check_nvrtc(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
            image.resize(size);
            check_nvrtc(nvrtcGetCUBIN(program, reinterpret_cast<char*>(image.data())), "nvrtcGetCUBIN");
        } else {
            check_nvrtc(nvrtcGetPTXSize(program, &size), "nvrtcGetPTXSize");
            image.resize(size);
            check_nvrtc(nvrtcGetPTX(program, reinterpret_cast<char*>(image.data())), "nvrtcGetPTX");
        }
        for (const auto& k : kernels) {
            const char* lowered = nullptr;
            check_nvrtc(nvrtcGetLoweredName(program, k.c_str(), &lowered), "nvrtcGetLoweredName");
            lowered_[k] = lowered;
        }
        nvrtcDestroyProgram(&program);
        return image;
    }

    static bool nvrtcKnows(int arch)
    {
        int n = 0;
        if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS)
            return false;
        std::vector<int> archs(std::size_t(n > 0 ? n : 0));
        if (n > 0 && nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS)
            return false;
        return std::find(archs.begin(), archs.end(), arch) != archs.end();
    }

    CUdevice device_ = 0;
    CUcontext context_ = nullptr;
    CUmodule module_ = nullptr;
    std::string name_;
    std::map<std::string, std::string> lowered_;
    std::map<std::string, CUfunction> functions_;
    std::vector<CUdeviceptr> allocations_;
};

// The run of the document: its buffers by name (a swap exchanges names), launches,
// copies and fills, and the buffers read back.
class Run {
public:
    Run(Device& dev, std::vector<Buffer>& buffers)
        : dev_(dev)
        , buffers_(buffers)
    {
        for (auto& b : buffers_) {
            ptr_[b.name] = dev_.alloc(b.host.size());
            index_[b.name] = &b;
            upload(b.name);
        }
    }
    const Buffer& buffer(const std::string& name) const { return *index_.at(name); }
    Arg buf(const std::string& name, std::size_t offsetElements = 0) const
    {
        const CUdeviceptr p = ptr_.at(name) + offsetElements * dtype_size(buffer(name).dtype);
        Arg a;
        a.bytes.resize(sizeof p);
        std::memcpy(a.bytes.data(), &p, sizeof p);
        return a;
    }
    void upload(const std::string& name)
    {
        const Buffer& b = buffer(name);
        if (!b.host.empty())
            CU(cuMemcpyHtoD(ptr_.at(name), b.host.data(), b.host.size()));
    }
    Bytes read(const std::string& name) const
    {
        Bytes out(buffer(name).host.size());
        if (!out.empty())
            CU(cuMemcpyDtoH(out.data(), ptr_.at(name), out.size()));
        return out;
    }
    double elem(const std::string& name, double j) const
    {
        return kw_at(as_doubles(buffer(name).dtype, read(name)), j, name.c_str());
    }
    void restore()
    {
        for (const auto& b : buffers_)
            upload(b.name);
    }
    void setGlobals()
    {
        for (const auto& b : buffers_)
            if (b.global && !b.host.empty())
                CU(cuMemcpyDtoD(dev_.global(b.name, b.host.size()), ptr_.at(b.name), b.host.size()));
    }
    void getGlobals()
    {
        for (const auto& b : buffers_)
            if (b.global && b.direction != "in" && !b.host.empty())
                CU(cuMemcpyDtoD(ptr_.at(b.name), dev_.global(b.name, b.host.size()), b.host.size()));
    }
    StepRecord& step(const std::string& path) { return steps_[path]; }
    double launch(const std::string& path, const std::string& kernel, std::array<std::size_t, 3> grid,
                  std::array<std::size_t, 3> block, std::size_t shared, std::vector<Arg> args)
    {
        StepRecord& s = step(path);
        for (int d = 0; d < 3; ++d) {
            s.grid[d] = unsigned(grid[std::size_t(d)]);
            s.block[d] = unsigned(block[std::size_t(d)]);
        }
        setGlobals();
        const double ms = dev_.launch(kernel, s.grid, s.block, unsigned(shared), args);
        getGlobals();
        ++s.runs;
        s.ms += ms;
        kernelMs += ms;
        return ms;
    }
    void copy(const std::string& path, const std::string& from, const std::string& to, std::size_t fromOffset,
              std::size_t toOffset, std::size_t count)
    {
        const std::size_t size = dtype_size(buffer(from).dtype);
        if (count)
            CU(cuMemcpyDtoD(ptr_.at(to) + toOffset * size, ptr_.at(from) + fromOffset * size, count * size));
        ++step(path).runs;
    }
    void fill(const std::string& path, const std::string& name, const Bytes& element, std::size_t offset,
              std::size_t count)
    {
        Bytes values(count * element.size());
        for (std::size_t k = 0; k < count; ++k)
            std::memcpy(values.data() + k * element.size(), element.data(), element.size());
        if (count)
            CU(cuMemcpyHtoD(ptr_.at(name) + offset * element.size(), values.data(), values.size()));
        ++step(path).runs;
    }
    void swap(const std::string& path, const std::string& a, const std::string& b)
    {
        std::swap(ptr_.at(a), ptr_.at(b));
        ++step(path).runs;
    }
    // Every buffer as the checks see it: read back, or as uploaded for an input.
    Doubles after() const
    {
        Doubles out;
        for (const auto& b : buffers_)
            out[b.name] = as_doubles(b.dtype, b.direction != "in" ? read(b.name) : b.host);
        return out;
    }
    Doubles before() const
    {
        Doubles out;
        for (const auto& b : buffers_)
            out[b.name] = as_doubles(b.dtype, b.host);
        return out;
    }
    void keepChecks(const std::string& path, std::vector<CheckResult> results)
    {
        StepRecord& s = step(path);
        bool allPassed = true;
        for (const auto& c : s.checks)
            allPassed = allPassed && c.passed;
        if (!s.checked || allPassed)
            s.checks = std::move(results);
        s.checked = true;
    }
    void writeOutputs(const std::string& folder) const
    {
        std::filesystem::create_directories(folder);
        for (const auto& b : buffers_)
            if (b.direction != "in")
                write_npy(folder + "/" + b.name + ".npy", b.descr, b.shape, read(b.name));
    }

    double kernelMs = 0;

private:
    Device& dev_;
    std::vector<Buffer>& buffers_;
    std::map<std::string, CUdeviceptr> ptr_;
    std::map<std::string, Buffer*> index_;
    std::map<std::string, StepRecord> steps_;
};

[[maybe_unused]] Bytes fill_bytes(const std::string& dtype, std::size_t count, double value)
{
    const Bytes e = pack(dtype, value);
    Bytes out;
    for (std::size_t k = 0; k < count; ++k)
        out.insert(out.end(), e.begin(), e.end());
    return out;
}

[[maybe_unused]] Bytes arange_bytes(const std::string& dtype, std::size_t count, double start, double step)
{
    Bytes out;
    for (std::size_t k = 0; k < count; ++k) {
        const Bytes e = pack(dtype, start + double(k) * step);
        out.insert(out.end(), e.begin(), e.end());
    }
    return out;
}

[[maybe_unused]] Bytes linspace_bytes(const std::string& dtype, std::size_t count, double start, double stop)
{
    const double step = count > 1 ? (stop - start) / double(count - 1) : 0.0;
    Bytes out;
    for (std::size_t k = 0; k < count; ++k) {
        const Bytes e = pack(dtype, count > 1 && k + 1 == count ? stop : start + double(k) * step);
        out.insert(out.end(), e.begin(), e.end());
    }
    return out;
}

[[maybe_unused]] Bytes baked(const std::string& folder, const std::string& file, std::size_t bytes)
{
    Npy npy = read_npy(folder + "/" + file);
    if (npy.data.size() != bytes)
        throw Failure(file + ": " + std::to_string(npy.data.size()) + " bytes, expected " + std::to_string(bytes));
    return npy.data;
}

} // namespace
)CPP";

} // namespace

const char* CppRuntime::text() { return kText; }

} // namespace kw::exporting
