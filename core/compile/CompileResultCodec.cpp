#include "compile/CompileResultCodec.hpp"

#include <cstdint>
#include <cstring>

namespace kw {

namespace {

class Writer {
public:
    void u64(std::uint64_t v)
    {
        char b[8];
        for (int i = 0; i < 8; ++i)
            b[i] = static_cast<char>((v >> (8 * i)) & 0xff);
        out.append(b, 8);
    }
    void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
    void f64(double v)
    {
        std::uint64_t bits;
        std::memcpy(&bits, &v, 8);
        u64(bits);
    }
    void str(std::string_view s)
    {
        u64(s.size());
        out.append(s);
    }
    void strings(const std::vector<std::string>& v)
    {
        u64(v.size());
        for (const auto& s : v)
            str(s);
    }
    std::string out;
};

class Reader {
public:
    explicit Reader(std::string_view in)
        : in_(in)
    {
    }
    bool ok() const { return ok_; }
    bool atEnd() const { return pos_ == in_.size(); }

    std::uint64_t u64()
    {
        if (in_.size() - pos_ < 8) {
            ok_ = false;
            return 0;
        }
        std::uint64_t v = 0;
        for (int i = 0; i < 8; ++i)
            v |= std::uint64_t(static_cast<unsigned char>(in_[pos_ + i])) << (8 * i);
        pos_ += 8;
        return v;
    }
    std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
    double f64()
    {
        std::uint64_t bits = u64();
        double v;
        std::memcpy(&v, &bits, 8);
        return v;
    }
    std::string str()
    {
        std::uint64_t n = u64();
        if (!ok_ || n > in_.size() - pos_) {
            ok_ = false;
            return {};
        }
        std::string s(in_.substr(pos_, n));
        pos_ += n;
        return s;
    }
    // A count that cannot exceed what is left (each element takes at least 8 bytes).
    std::uint64_t count()
    {
        std::uint64_t n = u64();
        if (n > (in_.size() - pos_) / 8 + 1)
            ok_ = false;
        return ok_ ? n : 0;
    }
    std::vector<std::string> strings()
    {
        std::vector<std::string> v(count());
        for (auto& s : v)
            s = str();
        return v;
    }

private:
    std::string_view in_;
    std::size_t pos_ = 0;
    bool ok_ = true;
};

} // namespace

std::string encodeCompileResult(const CompileResult& r)
{
    Writer w;
    w.u64(r.ok);
    w.str(r.log);
    w.u64(r.diagnostics.size());
    for (const auto& d : r.diagnostics) {
        w.str(d.file);
        w.i64(d.line);
        w.i64(d.column);
        w.u64(static_cast<std::uint64_t>(d.severity));
        w.str(d.message);
        w.str(d.code);
        w.strings(d.notes);
    }
    w.str(r.ptx);
    w.str(std::string_view(r.cubin.data(), r.cubin.size()));
    w.str(r.arch);
    w.u64(r.loweredNames.size());
    for (const auto& [k, v] : r.loweredNames) {
        w.str(k);
        w.str(v);
    }
    w.u64(r.kernels.size());
    for (const auto& k : r.kernels) {
        w.str(k.name);
        w.strings(k.templateParams);
        w.i64(k.line);
        w.str(k.file);
        w.u64(k.params.size());
        for (const auto& p : k.params) {
            w.str(p.name);
            w.str(p.type);
            w.str(p.baseType);
            w.u64((p.isPointer ? 1u : 0u) | (p.isConst ? 2u : 0u) | (p.isRestrict ? 4u : 0u));
            w.i64(p.pointerDepth);
        }
    }
    w.u64(r.entries.size());
    for (const auto& e : r.entries) {
        w.str(e.name);
        w.u64(e.params.size());
        for (const auto& p : e.params) {
            w.u64(p.size);
            w.u64(p.align);
            w.u64(p.isPointerSized);
        }
    }
    w.strings(r.includedFiles);
    w.u64(r.hostCode.size());
    for (const auto& h : r.hostCode) {
        w.i64(h.firstLine);
        w.i64(h.lastLine);
        w.str(h.what);
    }
    w.f64(r.compileMs);
    return std::move(w.out);
}

bool decodeCompileResult(std::string_view bytes, CompileResult& out)
{
    Reader rd(bytes);
    CompileResult r;
    r.ok = rd.u64() != 0;
    r.log = rd.str();
    r.diagnostics.resize(rd.count());
    for (auto& d : r.diagnostics) {
        d.file = rd.str();
        d.line = static_cast<int>(rd.i64());
        d.column = static_cast<int>(rd.i64());
        std::uint64_t sev = rd.u64();
        if (sev > static_cast<std::uint64_t>(Severity::Note))
            return false;
        d.severity = static_cast<Severity>(sev);
        d.message = rd.str();
        d.code = rd.str();
        d.notes = rd.strings();
    }
    r.ptx = rd.str();
    std::string cubin = rd.str();
    r.cubin.assign(cubin.begin(), cubin.end());
    r.arch = rd.str();
    for (std::uint64_t i = 0, n = rd.count(); i < n && rd.ok(); ++i) {
        std::string k = rd.str();
        r.loweredNames[k] = rd.str();
    }
    r.kernels.resize(rd.count());
    for (auto& k : r.kernels) {
        k.name = rd.str();
        k.templateParams = rd.strings();
        k.line = static_cast<int>(rd.i64());
        k.file = rd.str();
        k.params.resize(rd.count());
        for (auto& p : k.params) {
            p.name = rd.str();
            p.type = rd.str();
            p.baseType = rd.str();
            std::uint64_t flags = rd.u64();
            p.isPointer = flags & 1u;
            p.isConst = flags & 2u;
            p.isRestrict = flags & 4u;
            p.pointerDepth = static_cast<int>(rd.i64());
        }
    }
    r.entries.resize(rd.count());
    for (auto& e : r.entries) {
        e.name = rd.str();
        e.params.resize(rd.count());
        for (auto& p : e.params) {
            p.size = rd.u64();
            p.align = rd.u64();
            p.isPointerSized = rd.u64() != 0;
        }
    }
    r.includedFiles = rd.strings();
    r.hostCode.resize(rd.count());
    for (auto& h : r.hostCode) {
        h.firstLine = static_cast<int>(rd.i64());
        h.lastLine = static_cast<int>(rd.i64());
        h.what = rd.str();
    }
    r.compileMs = rd.f64();
    if (!rd.ok() || !rd.atEnd())
        return false;
    out = std::move(r);
    return true;
}

} // namespace kw
