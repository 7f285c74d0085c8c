#include "export/InitialiserTranslation.hpp"

#include "doc/VariableScope.hpp"
#include "util/Error.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace kw::exporting {

namespace {

// The range of whole numbers an integer dtype holds exactly as a double.
bool fitsExactly(DType t, double v)
{
    if (!std::isfinite(v) || v != std::floor(v))
        return false;
    switch (t) {
    case DType::I8: return v >= -128 && v <= 127;
    case DType::U8: return v >= 0 && v <= 255;
    case DType::I16: return v >= -32768 && v <= 32767;
    case DType::U16: return v >= 0 && v <= 65535;
    case DType::I32: return v >= -2147483648.0 && v <= 2147483647.0;
    case DType::U32: return v >= 0 && v <= 4294967295.0;
    case DType::I64: return std::fabs(v) <= 9007199254740992.0;
    case DType::U64: return v >= 0 && v <= 9007199254740992.0;
    default: return true;
    }
}

double element(const InitialValues& f, std::size_t i, std::size_t count)
{
    switch (f.form) {
    case InitialValues::Form::Fill: return f.a;
    case InitialValues::Form::Arange: return f.a + double(i) * f.b;
    case InitialValues::Form::Linspace: {
        if (count > 1 && i + 1 == count)
            return f.b;
        const double step = count > 1 ? (f.b - f.a) / double(count - 1) : 0.0;
        return f.a + double(i) * step;
    }
    default: return 0;
    }
}

} // namespace

HostBuffer InitialiserTranslation::compute(const InitialValues& f, DType dtype, std::size_t count)
{
    HostBuffer out(dtype, count);
    if (f.form == InitialValues::Form::Zeros || f.form == InitialValues::Form::Baked)
        return out;
    for (std::size_t i = 0; i < count; ++i) {
        const double v = element(f, i, count);
        if (dtype == DType::F32) {
            const float x = static_cast<float>(v);
            std::memcpy(out.data() + 4 * i, &x, 4);
        } else if (dtype == DType::F64) {
            std::memcpy(out.data() + 8 * i, &v, 8);
        } else {
            out.set(i, v); // a whole number in range (checked by choose): converted exactly
        }
    }
    return out;
}

InitialValues InitialiserTranslation::choose(const BufferSpec& spec, const HostBuffer& values,
                                             const VariableScope& scope)
{
    InitialValues f;
    const Initialiser& init = spec.init;
    using K = Initialiser::Kind;
    const bool half = spec.dtype == DType::F16 || spec.dtype == DType::BF16;
    switch (init.kind) {
    case K::Zeros: f.form = InitialValues::Form::Zeros; break;
    case K::Fill:
        f.form = InitialValues::Form::Fill;
        f.a = scope.evaluate(init.value, "init.value");
        break;
    case K::Arange:
        f.form = InitialValues::Form::Arange;
        f.a = scope.evaluate(init.start, "init.start");
        f.b = scope.evaluate(init.step, "init.step");
        break;
    case K::Linspace:
        f.form = InitialValues::Form::Linspace;
        f.a = scope.evaluate(init.start, "init.start");
        f.b = scope.evaluate(init.stop, "init.stop");
        break;
    case K::Uniform:
    case K::Normal: f.reason = "random numbers of the workbench's own generator"; return f;
    case K::Expression: f.reason = "an expression initialiser, evaluated by the workbench"; return f;
    case K::File: f.reason = "data from the file " + init.file + ", converted to " + toString(spec.dtype); return f;
    case K::Copy: f.reason = "a copy of " + init.from + "'s initial contents"; return f;
    }
    if (half && f.form != InitialValues::Form::Zeros) {
        f = {};
        f.reason = std::string(toString(spec.dtype)) + " values, whose rounding is the workbench's";
        return f;
    }
    if (f.form != InitialValues::Form::Zeros && !isFloating(spec.dtype))
        for (std::size_t i = 0; i < values.count(); ++i)
            if (!fitsExactly(spec.dtype, element(f, i, values.count()))) {
                f = {};
                f.reason = "values that are not whole numbers of the dtype, rounded as the workbench rounds";
                return f;
            }
    if (compute(f, spec.dtype, values.count()).bytes() != values.bytes()) {
        f = {};
        f.reason = "the formula would not give the document's exact values";
    }
    return f;
}

} // namespace kw::exporting
