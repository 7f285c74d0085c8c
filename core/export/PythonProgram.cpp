#include "export/PythonProgram.hpp"

#include "doc/ArgumentPacker.hpp"
#include "doc/LaunchEvaluator.hpp"
#include "doc/ScalarPacker.hpp"
#include "doc/StepPaths.hpp"
#include "export/CheckCode.hpp"
#include "export/FieldCode.hpp"
#include "export/StepCodeWriter.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace kw::exporting {

namespace {

// The expression language's arithmetic, as doc/Expression computes it, in Python
// floats: IEEE doubles like C++'s, with NaN and infinities where Python would raise.
constexpr const char* kHelpers = R"PY(
# ---- the document's expression language, as the workbench evaluates it (doubles) ----
def _div(a, b):
    try:
        return a / b
    except ZeroDivisionError:
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)


def _fmod(a, b):
    try:
        return math.fmod(a, b)
    except ValueError:
        return math.nan


def _pow(a, b):
    try:
        return math.pow(a, b)
    except (ValueError, OverflowError, ZeroDivisionError):
        with np.errstate(all="ignore"):
            return float(np.power(np.float64(a), np.float64(b)))


def _whole(f):
    def g(a):
        if math.isnan(a) or math.isinf(a):
            return a
        return float(f(a))
    return g


_f_floor = _whole(math.floor)
_f_ceil = _whole(math.ceil)
_f_trunc = _whole(math.trunc)
_f_rint = _whole(lambda a: math.floor(a + 0.5))  # muparser's rint


def _shift(b):
    return 0 if math.isnan(b) else int(max(-4096.0, min(4096.0, _f_trunc(b))))


def _ldexp(a, n):
    try:
        return math.ldexp(a, n)
    except OverflowError:
        return math.copysign(math.inf, a)


def _shl(a, b):
    return _ldexp(_f_trunc(a), _shift(b))


def _shr(a, b):
    return _f_floor(_ldexp(_f_trunc(a), -_shift(b)))


def _total(f, at_zero=None):
    def g(a):
        if at_zero is not None and a == 0:
            return at_zero
        try:
            return f(a)
        except ValueError:
            return math.nan
        except OverflowError:
            return math.inf
    return g


_f_sin, _f_cos, _f_tan = _total(math.sin), _total(math.cos), _total(math.tan)
_f_asin, _f_acos, _f_atan = _total(math.asin), _total(math.acos), _total(math.atan)
_f_sinh, _f_cosh, _f_tanh = _total(math.sinh), _total(math.cosh), _total(math.tanh)
_f_asinh, _f_acosh, _f_atanh = _total(math.asinh), _total(math.acosh), _total(math.atanh)
_f_log, _f_log10 = _total(math.log, -math.inf), _total(math.log10, -math.inf)


def _f_log2(a):  # muparser's log2: log(a) / log(2)
    return _div(_f_log(a), math.log(2.0))
_f_exp, _f_sqrt, _f_abs = _total(math.exp), _total(math.sqrt), _total(math.fabs)


def _f_sign(a):
    return -1.0 if a < 0 else (1.0 if a > 0 else 0.0)


def _f_min(*v):
    r = v[0]
    for a in v[1:]:
        r = a if a < r else r
    return r


def _f_max(*v):
    r = v[0]
    for a in v[1:]:
        r = a if r < a else r
    return r


def _f_sum(*v):
    r = 0.0
    for a in v:
        r += a
    return r


def _f_avg(*v):
    return _f_sum(*v) / len(v)


def _f_cdiv(a, b):
    return _f_ceil(_div(a, b))


def _at(values, j, name):
    if not (j >= 0) or j != _f_floor(j) or j >= len(values):
        raise SystemExit("%s(%s) is outside the buffer (%d elements)" % (name, _num(j), len(values)))
    return values[int(j)]


# ---- numbers printed as the workbench prints them ----
def _num(v):
    r = repr(float(v))
    return r[:-2] if r.endswith(".0") else r


def _count(v, field):
    if not (v == _f_floor(v)) or v < 0:
        raise SystemExit("%s: %s is not a whole number" % (field, _num(v)))
    return int(v)


def _scalar(dtype, v):
    """A scalar argument of the dtype from a double, as the workbench packs it."""
    if dtype == "bf16":
        bits = int(np.array([v], dtype=np.float32).view(np.uint32)[0])
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
        return np.uint16(bits)
    t = np.dtype(dtype).type
    if np.issubdtype(t, np.integer):
        return t(int(v))
    return t(v)


def _as_doubles(values, dtype):
    """A buffer's elements as doubles (bf16 travels as its 16 bits)."""
    if dtype == "bf16":
        return (values.astype(np.uint32) << 16).view(np.float32).astype(np.float64).tolist()
    return values.astype(np.float64).tolist()


def _linspace(start, stop, n):
    v = start + np.arange(n, dtype=np.float64) * ((stop - start) / (n - 1) if n > 1 else 0.0)
    if n > 1:
        v[-1] = stop
    return v


# ---- checks: the workbench's CheckEvaluator and its summary lines ----
AGGREGATES = ("sum", "min", "max", "mean", "count", "any", "all")


def _aggregate(kind, values):
    acc = {"min": math.inf, "max": -math.inf, "all": 1.0}.get(kind, 0.0)
    for v in values:
        if kind in ("sum", "mean"):
            acc += v
        elif kind == "min":
            acc = math.nan if math.isnan(v) or math.isnan(acc) else min(acc, v)
        elif kind == "max":
            acc = math.nan if math.isnan(v) or math.isnan(acc) else max(acc, v)
        elif kind == "count":
            acc += 1.0 if v != 0 else 0.0
        elif kind == "any":
            acc = 1.0 if acc != 0 or v != 0 else 0.0
        elif kind == "all":
            acc = 1.0 if acc != 0 and v != 0 else 0.0
    if kind == "mean":
        return acc / len(values) if values else math.nan
    return acc


def _within(r, abs_tol, rel_tol, got, expected):
    if math.isnan(expected) or math.isnan(got):
        return math.isnan(expected) and math.isnan(got)
    if math.isinf(expected) or math.isinf(got):
        return expected == got
    err = abs(got - expected)
    r["max_abs"] = max(r["max_abs"], err)
    if expected != 0:
        r["max_rel"] = max(r["max_rel"], err / abs(expected))
    return err <= abs_tol + rel_tol * abs(expected)


def _positions(k, shape):
    w = shape[-1] if shape else 1
    h = shape[-2] if len(shape) >= 2 else 1
    return float(k), float(k % w), float((k // w) % h), float(k // (w * h))


def run_check(check, B, I, shapes):
    """One check as CheckEvaluator evaluates it: a dict of its verdict and mismatches."""
    buffer, expect_text, aggregate, of, expect, abs_tol, rel_tol = check
    got_values = B[buffer]
    count = len(got_values)
    shape = shapes[buffer]
    r = {"buffer": buffer, "expect": expect_text, "checked": count, "mismatches": 0,
         "max_abs": 0.0, "max_rel": 0.0, "first": []}
    if aggregate:
        values = []
        for k in range(count):
            i, x, y, z = _positions(k, shape)
            values.append(of(k, i, x, y, z, B, I))
        got = _aggregate(aggregate, values)
        expected = expect(0, 0.0, 0.0, 0.0, 0.0, B, I)
        if not _within(r, abs_tol, rel_tol, got, expected):
            r["first"].append((0, got, expected))
            r["mismatches"] = 1
    else:
        for k in range(count):
            i, x, y, z = _positions(k, shape)
            expected = expect(k, i, x, y, z, B, I)
            got = got_values[k]
            if not _within(r, abs_tol, rel_tol, got, expected):
                if len(r["first"]) < 10:
                    r["first"].append((k, got, expected))
                r["mismatches"] += 1
    r["passed"] = r["mismatches"] == 0
    return r


def check_lines(results, indent=""):
    text = ""
    for c in results:
        text += "%scheck    %s = %s: %s (%d of %d elements differ, max abs error %.3g, max rel error %.3g)\n" % (
            indent, c["buffer"], c["expect"], "passed" if c["passed"] else "FAILED", c["mismatches"], c["checked"],
            c["max_abs"], c["max_rel"])
        for index, got, expected in c["first"]:
            text += "%s           [%d] got %s expected %s\n" % (indent, index, _num(got), _num(expected))
    return text


def timing_stats(samples):
    """TimingStats: min, median (interpolated), mean."""
    s = sorted(samples)
    if not s:
        return 0.0, 0.0, 0.0
    pos = 0.5 * (len(s) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(s) - 1)
    return s[0], s[lo] + (pos - lo) * (s[hi] - s[lo]), sum(s) / len(s)
)PY";

// The run of the document on the device, shared by both Python targets: the buffers by
// name (a swap exchanges names), launches, copies and fills, reading buffers back.
constexpr const char* kRun = R"PY(

class Run:
    def __init__(self, dev, host):
        self.dev = dev
        self.host = host
        self.ptr = {}
        self.kernel_ms = 0.0
        self.steps = {}
        for name, dtype, count, shape, direction, is_global in BUFFERS:
            self.ptr[name] = dev.alloc(host[name].nbytes)
            dev.upload(self.ptr[name], host[name])

    def buf(self, name, offset_elements=0):
        return np.uint64(self.ptr[name] + offset_elements * self.host[name].itemsize)

    def read(self, name):
        values = np.empty_like(self.host[name])
        self.dev.download(self.ptr[name], values)
        return values

    def elem(self, name, j):
        values = _as_doubles(self.read(name), DTYPES[name])
        return _at(values, j, name)

    def restore(self):
        for name, dtype, count, shape, direction, is_global in BUFFERS:
            self.dev.upload(self.ptr[name], self.host[name])
        self.set_globals()

    def set_globals(self):
        for name, dtype, count, shape, direction, is_global in BUFFERS:
            if is_global:
                self.dev.copy(self.dev.global_ptr(name, self.host[name].nbytes), self.ptr[name], self.host[name].nbytes)

    def get_globals(self):
        for name, dtype, count, shape, direction, is_global in BUFFERS:
            if is_global and direction != "in":
                self.dev.copy(self.ptr[name], self.dev.global_ptr(name, self.host[name].nbytes), self.host[name].nbytes)

    def step(self, path):
        return self.steps.setdefault(path, {"runs": 0, "ms": 0.0, "grid": None, "block": None, "checks": None})

    def launch(self, path, kernel, grid, block, shared, args):
        start, stop = self.dev.event(), self.dev.event()
        self.set_globals()
        self.dev.record(start)
        self.dev.launch(self.dev.kernel(kernel), grid, block, shared, args)
        self.dev.record(stop)
        ms = self.dev.elapsed_ms(start, stop)
        self.get_globals()
        s = self.step(path)
        s["runs"] += 1
        s["ms"] += ms
        s["grid"], s["block"] = grid, block
        self.kernel_ms += ms
        return ms

    def copy(self, path, source, target, from_offset, to_offset, count):
        size = self.host[source].itemsize
        self.dev.copy(self.ptr[target] + to_offset * size, self.ptr[source] + from_offset * size, count * size)
        self.step(path)["runs"] += 1

    def fill(self, path, name, element, offset, count):
        if count > 0:
            values = np.full(count, element, dtype=self.host[name].dtype)
            self.dev.upload(self.ptr[name] + offset * values.itemsize, values)
        self.step(path)["runs"] += 1

    def swap(self, path, a, b):
        self.ptr[a], self.ptr[b] = self.ptr[b], self.ptr[a]
        self.step(path)["runs"] += 1

    def after(self):
        """Every buffer as the checks see it: read back, or as uploaded for an input."""
        B = {}
        for name, dtype, count, shape, direction, is_global in BUFFERS:
            values = self.read(name) if direction != "in" else self.host[name]
            B[name] = _as_doubles(values, DTYPES[name])
        return B

    def check(self, path, checks):
        B = self.after()
        results = [run_check(c, B, INITIAL, SHAPES) for c in checks]
        s = self.step(path)
        if s["checks"] is None or all(c["passed"] for c in s["checks"]):
            s["checks"] = results
        return results

    def write_outputs(self, folder):
        os.makedirs(folder, exist_ok=True)
        for name, dtype, count, shape, direction, is_global in BUFFERS:
            if direction != "in":
                np.save(os.path.join(folder, name + ".npy"), self.read(name).reshape(shape))
)PY";

std::string pyString(const std::string& s) { return StepCodeWriter::quoted(s); }

std::string pyShape(const std::vector<std::size_t>& shape)
{
    std::string s = "(";
    for (std::size_t d : shape)
        s += std::to_string(d) + ", ";
    if (shape.size() > 1)
        s.resize(s.size() - 2);
    return s + ")";
}

std::string hex(const std::vector<std::byte>& bytes)
{
    std::string s;
    for (std::byte b : bytes)
        s += fmt::format("{:02x}", unsigned(b));
    return s;
}

// A scalar's exact bytes as a NumPy scalar of its dtype (bf16: its bits as uint16).
std::string scalarFromBytes(DType type, const std::vector<std::byte>& bytes)
{
    return fmt::format("np.frombuffer(bytes.fromhex(\"{}\"), dtype=\"{}\")[0]", hex(bytes), npyDescr(type));
}

std::string dtypeName(DType t) { return t == DType::BF16 ? "bf16" : npyDescr(t); }

// The steps as Python statements on the program's `run`.
class StepWriter : public StepCodeWriter {
public:
    StepWriter(const ExportPlan& plan, std::string& out)
        : StepCodeWriter(plan, Language::Python, {"#", "", "(", ")", "[", "]", "_count"}, out)
    {
    }

    static std::string checkTuple(const ExportPlan& plan, const CheckSpec& c, const std::string& field,
                                  const std::map<std::string, std::string>& loops)
    {
        const CheckCode code(plan, Language::Python, loops);
        const CheckExpression expect = code.translate(c.expect.empty() ? "1" : c.expect, field + ".expect");
        std::string of = "None";
        std::string shown = c.expect;
        if (!c.aggregate.empty()) {
            const std::string ofText = c.of.empty() ? c.buffer : c.of;
            of = "lambda k, i, x, y, z, B, I: " + code.translate(ofText, field + ".of").code;
            shown = c.aggregate + "(" + ofText + ") == " + c.expect;
        }
        return fmt::format("({}, {}, {}, {}, lambda k, i, x, y, z, B, I: {}, {}, {})", pyString(c.buffer),
                           pyString(shown), c.aggregate.empty() ? "None" : pyString(c.aggregate), of, expect.code,
                           ExpressionTranslation::literal(Language::Python, c.absTol),
                           ExpressionTranslation::literal(Language::Python, c.relTol));
    }

private:
    std::string scalarLiteral(DType type, const std::vector<std::byte>& bytes) const override
    {
        return scalarFromBytes(type, bytes);
    }
    std::string scalarPacked(DType type, const std::string& code) const override
    {
        return fmt::format("_scalar(\"{}\", {})", dtypeName(type), code);
    }
    std::string argument(const std::string& scalarCode) const override { return scalarCode; }

    void repeat(const StepSpec& s, const std::string& field, const std::string& path, int depth) override
    {
        const bool until = s.kind == StepSpec::Kind::RepeatUntil;
        const std::string var
            = s.index.empty() ? fmt::format("pass_{}", depth) : "pass_" + ExportPlan::identifier(s.index);
        const std::string passes = until ? count(s.limit, field + ".limit") : count(s.times, field + ".repeat");
        const std::string before = fmt::format("before_{}", depth);
        line(depth, fmt::format("{} = run.kernel_ms", before));
        if (until)
            line(depth, "held = False");
        line(depth, fmt::format("for {} in range({}):", var, passes));
        fields_.enterLoop(s.index, var);
        loops_[s.index] = var;
        list(s.steps, field + ".steps", path, depth + 1);
        line(depth + 1, fmt::format("run.step({})[\"runs\"] += 1", pyString(path)));
        if (until) {
            line(depth + 1, fmt::format("if {} != 0:", fields_.code(s.until, field + ".repeat_until")));
            line(depth + 2, "held = True");
            line(depth + 2, "break");
        }
        line(depth, fmt::format("run.step({})[\"ms\"] += run.kernel_ms - {}", pyString(path), before));
        if (!until)
            return;
        line(depth, "if not held:");
        line(depth + 1,
             fmt::format("STOPPED.append(\"step {} ({}): the condition still did not hold after %d "
                         "passes, the step's limit; the buffers are as the last pass left them\" % ({}))",
                         path, "repeat until " + s.until, passes));
    }

    void checks(const std::vector<CheckSpec>& list, const std::string& field, const std::string& path,
                int depth) override
    {
        line(depth, fmt::format("run.check({}, [", pyString(path)));
        for (std::size_t i = 0; i < list.size(); ++i)
            line(depth + 1, checkTuple(plan_, list[i], fmt::format("{}.checks[{}]", field, i), loops_) + ",");
        line(depth, "])");
    }
};

} // namespace

const char* PythonProgram::helpers() { return kHelpers; }

std::string PythonProgram::bakedFile(const ExportBuffer& b) { return "data/" + b.name + ".npy"; }

std::string PythonProgram::text(const ExportPlan& plan, const PythonDevice& device)
{
    const Document& doc = plan.document();
    std::string s;
    s += "#!/usr/bin/env python3\n";
    s += fmt::format("# {}\n", doc.title.empty() ? std::string("Kernel Workbench document") : doc.title);
    s += fmt::format("# Exported from the Kernel Workbench document {} for {}: it compiles {}, runs the document's\n",
                     doc.path.filename().string().empty() ? std::string("(unsaved)") : doc.path.filename().string(),
                     device.target == "cupy" ? "CuPy" : "PyCUDA", device.sourceFile);
    s += "# launches with the same inputs, prints the same checks and timings, and writes every output\n";
    s += "# buffer as out/NAME.npy (or --out DIR). README.md says what each file is.\n";
    s += "import argparse\nimport math\nimport os\nimport sys\nimport time\n\nimport numpy as np\n";
    s += device.imports + "\n";
    s += "HERE = os.path.dirname(os.path.abspath(__file__))\n";
    s += fmt::format("SOURCE = os.path.join(HERE, {})\n", pyString(device.sourceFile));
    s += "OPTIONS = [\n";
    for (const auto& o : device.options)
        s += "    " + (o.rfind('=', 0) == 0 ? o.substr(1) : pyString(o)) + ",\n"; // "=": Python code
    s += "]\n";
    s += "KERNEL_NAMES = " + device.kernelsLiteral + "\n\n";
    s += device.deviceClass;
    s += kHelpers;

    // Buffers: name, dtype, count, shape, direction, global.
    s += "\n\n# The document's buffers: name, dtype (bf16 travels as its 16 bits), count, shape, direction, "
         "module variable\nBUFFERS = [\n";
    for (const auto& b : plan.buffers())
        s += fmt::format("    ({}, {}, {}, {}, {}, {}),\n", pyString(b.name), pyString(npyDescr(b.dtype)), b.count,
                         pyShape(b.shape), pyString(toString(b.direction)), b.global ? "True" : "False");
    s += "]\nDTYPES = {\n";
    for (const auto& b : plan.buffers())
        s += fmt::format("    {}: {},\n", pyString(b.name), pyString(dtypeName(b.dtype)));
    s += "}\nSHAPES = {name: shape for name, dtype, count, shape, direction, is_global in BUFFERS}\n";
    s += "STOPPED = []\n\n\ndef initial_values():\n    \"\"\"Every buffer's contents before the run, exactly as the "
         "document gives them.\"\"\"\n    v = {}\n";
    for (const auto& b : plan.buffers()) {
        const std::string dt = pyString(npyDescr(b.dtype));
        const std::string name = pyString(b.name);
        const InitialValues& f = b.init;
        const auto lit = [](double v) { return ExpressionTranslation::literal(Language::Python, v); };
        switch (f.form) {
        case InitialValues::Form::Baked:
            s += fmt::format("    # baked: {}\n", f.reason);
            s += fmt::format(
                "    v[{}] = np.ascontiguousarray(np.load(os.path.join(HERE, {})).reshape(-1), dtype={})\n", name,
                pyString(bakedFile(b)), dt);
            break;
        case InitialValues::Form::Zeros:
            s += fmt::format("    v[{}] = np.zeros({}, dtype={})\n", name, b.count, dt);
            break;
        case InitialValues::Form::Fill:
            s += fmt::format("    v[{}] = np.full({}, {}, dtype=np.float64).astype({})\n", name, b.count, lit(f.a), dt);
            break;
        case InitialValues::Form::Arange:
            s += fmt::format("    v[{}] = ({} + np.arange({}, dtype=np.float64) * {}).astype({})\n", name, lit(f.a),
                             b.count, lit(f.b), dt);
            break;
        case InitialValues::Form::Linspace:
            s += fmt::format("    v[{}] = _linspace({}, {}, {}).astype({})\n", name, lit(f.a), lit(f.b), b.count, dt);
            break;
        }
    }
    s += "    return v\n\n\nHOST = initial_values()\n";
    s += plan.checksUseInitialData()
        ? "INITIAL = {name: _as_doubles(values, DTYPES[name]) for name, values in HOST.items()}\n"
        : "INITIAL = {}  # no check reads a buffer's contents before the run\n";
    s += kRun;

    // The document's checks after the run.
    s += "\n\nCHECKS = [\n";
    for (std::size_t i = 0; i < doc.checks.size(); ++i)
        s += "    " + StepWriter::checkTuple(plan, doc.checks[i], fmt::format("checks[{}]", i), {}) + ",\n";
    s += "]\n\n\n";

    s += "def check_outputs(folder):\n";
    s += "    \"\"\"The document's checks on output buffers written elsewhere, without a GPU.\"\"\"\n";
    s += "    B = {}\n";
    s += "    for name, dtype, count, shape, direction, is_global in BUFFERS:\n";
    s += "        values = HOST[name] if direction == \"in\" else np.load(os.path.join(folder, name + "
         "\".npy\")).reshape(-1)\n";
    s += "        B[name] = _as_doubles(values, DTYPES[name])\n";
    s += "    results = [run_check(c, B, INITIAL, SHAPES) for c in CHECKS]\n";
    s += "    sys.stdout.write(check_lines(results))\n";
    s += "    return 0 if all(c[\"passed\"] for c in results) else 4\n\n\n";
    s += "def main():\n";
    s += "    parser = argparse.ArgumentParser(description=__doc__)\n";
    s += "    parser.add_argument(\"--out\", default=os.path.join(HERE, \"out\"), help=\"folder for NAME.npy\")\n";
    s += "    parser.add_argument(\"--check-outputs\", metavar=\"DIR\",\n"
         "                        help=\"only the checks, on NAME.npy files written elsewhere (kwb-run run --out "
         "DIR)\")\n";
    s += "    options = parser.parse_args()\n";
    s += "    if options.check_outputs:\n        return check_outputs(options.check_outputs)\n";
    s += "    t0 = time.perf_counter()\n";
    s += "    dev = Device(SOURCE, OPTIONS, KERNEL_NAMES)\n";
    s += "    compile_ms = (time.perf_counter() - t0) * 1e3\n";
    s += "    run = Run(dev, HOST)\n";
    s += "    print(\"device   %s (cuda:0)\" % dev.name())\n";
    if (!doc.isSequence()) {
        const PreparedRun& p = plan.prepared();
        std::string args;
        for (std::size_t a = 0; a < p.args.size(); ++a) {
            const LaunchArg& arg = p.args[a];
            std::string code;
            if (arg.isBuffer) {
                const ExportBuffer& b = plan.buffers()[arg.buffer];
                code = fmt::format("run.buf({}, {})", pyString(b.name), arg.offsetBytes / sizeOf(b.dtype));
            } else {
                code = scalarFromBytes(doc.args[a].type, arg.bytes);
            }
            args += (args.empty() ? "" : ", ") + code;
        }
        const LaunchConfig& c = p.config;
        s += fmt::format("    grid, block, shared = ({}, {}, {}), ({}, {}, {}), {}\n", c.grid.x, c.grid.y, c.grid.z,
                         c.block.x, c.block.y, c.block.z, c.sharedBytes);
        s += fmt::format("    args = [{}]\n", args);
        s += "    print(\"launch   grid %dx%dx%d block %dx%dx%d shared %d B\" % (grid + block + (shared,)))\n";
        s += fmt::format("    first_ms = run.launch(\"1\", {}, grid, block, shared, args)\n", pyString(doc.kernel));
        s += "    run.write_outputs(options.out)\n";
        s += "    B = run.after()\n";
        s += fmt::format("    warmup, repeats = {}, {}\n", doc.run.warmup, doc.run.repeats);
        s += "    times = []\n";
        s += "    for rep in range(warmup + repeats):\n";
        s += "        run.restore()  # the inputs as they were, outside the timed region\n";
        s += fmt::format("        ms = run.launch(\"1\", {}, grid, block, shared, args)\n", pyString(doc.kernel));
        s += "        if rep >= warmup:\n            times.append(ms)\n";
        s += "    if not times:\n        times = [first_ms]\n";
        s += "    low, median, mean = timing_stats(times)\n";
        s += "    print(\"kernel   median %.4f ms  min %.4f ms  mean %.4f ms  (%d repeats)\" % (median, low, mean, "
             "len(times)))\n";
        s += "    print(\"times    compile %.1f ms\" % compile_ms)\n";
    } else {
        StepWriter writer(plan, s);
        writer.list(doc.steps, "steps", "", 1);
        s += "    run.write_outputs(options.out)\n";
        s += "    B = run.after()\n";
        s += "    STEPS = [\n";
        for (const auto& [path, st] : StepPaths::list(doc.steps))
            s += fmt::format("        ({}, {}, {}),\n", pyString(path), pyString(StepCodeWriter::label(*st)),
                             pyString(toString(st->kind)));
        s += "    ]\n";
        s += "    launches = [run.step(p) for p, name, kind in STEPS if kind == \"launch\"]\n";
        s += "    total = sum(st[\"ms\"] for st in launches)\n";
        s += "    print(\"steps    %d steps, kernels %.4f ms in all\" % (len(STEPS), total))\n";
        s += "    for path, name, kind in STEPS:\n";
        s += "        st = run.step(path)\n";
        s += "        depth = path.count(\".\")\n";
        s += "        label = \"  \" * depth + path + \" \" + name\n";
        s += "        if st[\"runs\"] == 0:\n            what = \"not run\"\n";
        s += "        elif kind == \"launch\":\n";
        s += "            what = \"grid %dx%dx%d block %dx%dx%d  %.4f ms\" % (st[\"grid\"] + st[\"block\"] + "
             "(st[\"ms\"],))\n";
        s += "            if st[\"runs\"] > 1:\n                what += \" in %d runs\" % st[\"runs\"]\n";
        s += "            if total > 0:\n                what += \" (%.0f %%)\" % (100 * st[\"ms\"] / total)\n";
        s += "        elif kind in (\"repeat\", \"repeat_until\"):\n";
        s += "            what = \"%d pass%s, %.4f ms\" % (st[\"runs\"], \"\" if st[\"runs\"] == 1 else \"es\", "
             "st[\"ms\"])\n";
        s += "        else:\n            what = \"done\" if st[\"runs\"] == 1 else \"%d times\" % st[\"runs\"]\n";
        s += "        print(\"  %-32s %s\" % (label, what))\n";
        s += "        sys.stdout.write(check_lines(st[\"checks\"] or [], \" \" * (4 + 2 * depth)))\n";
        s += "    for line in STOPPED:\n        print(\"STOPPED  \" + line)\n";
        s += "    print(\"times    compile %.1f ms\" % compile_ms)\n";
    }
    s += "    results = [run_check(c, B, INITIAL, SHAPES) for c in CHECKS]\n";
    s += "    sys.stdout.write(check_lines(results))\n";
    s += "    failed = not all(c[\"passed\"] for c in results)\n";
    s += "    failed = failed or any(not c[\"passed\"] for st in run.steps.values() for c in (st[\"checks\"] or []))\n";
    s += "    return 4 if failed else 0\n\n\nif __name__ == \"__main__\":\n    sys.exit(main())\n";
    return s;
}

} // namespace kw::exporting
