#include "doc/BufferFactory.hpp"

#include "data/BinaryFile.hpp"
#include "data/CsvFile.hpp"
#include "data/NpyFile.hpp"
#include "data/RandomGenerator.hpp"
#include "doc/ElementIndex.hpp"
#include "util/ConfinedFolder.hpp"
#include "util/Error.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace kw {

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& why)
{
    throw Error(ErrorCategory::Document, field + ": " + why);
}

std::string lowerExtension(const std::filesystem::path& path)
{
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

// Writes gen(i) to every element. The common float types get a direct store;
// the others go through storeFromDouble's rounding and saturation.
template <typename Gen> void fillElements(HostBuffer& b, Gen&& gen)
{
    std::byte* p = b.data();
    const std::size_t n = b.count();
    switch (b.dtype()) {
    case DType::F32:
        for (std::size_t i = 0; i < n; ++i) {
            const float v = static_cast<float>(gen(i));
            std::memcpy(p + i * sizeof v, &v, sizeof v);
        }
        break;
    case DType::F64:
        for (std::size_t i = 0; i < n; ++i) {
            const double v = gen(i);
            std::memcpy(p + i * sizeof v, &v, sizeof v);
        }
        break;
    default: {
        const DType t = b.dtype();
        const std::size_t size = sizeOf(t);
        for (std::size_t i = 0; i < n; ++i)
            storeFromDouble(t, p + i * size, gen(i));
    }
    }
}

// Largest count a buffer may have: far beyond any device, small enough for size_t math.
constexpr std::int64_t kMaxCount = std::int64_t(1) << 40;

} // namespace

BufferFactory::BufferFactory(const VariableScope& scope, std::filesystem::path baseDir, Trust trust,
                             std::shared_ptr<const AttachedFiles> attached)
    : scope_(scope)
    , baseDir_(std::move(baseDir))
    , trust_(trust)
    , attached_(std::move(attached))
{
}

std::filesystem::path BufferFactory::resolve(const std::string& file, const std::string& field) const
{
    const std::filesystem::path p(file);
    if (trust_ == Trust::Trusted)
        return p.is_absolute() || baseDir_.empty() ? p : baseDir_ / p;
    const auto r = ConfinedFolder(baseDir_).resolveFile(p);
    if (r.status == ConfinedFolder::Status::Outside)
        throw Error(ErrorCategory::Untrusted, field + ": \"" + file + "\" " + ConfinedFolder::explain(r.status));
    if (r.status == ConfinedFolder::Status::NotRegular)
        fail(field, "\"" + file + "\" " + ConfinedFolder::explain(r.status));
    if (r.status == ConfinedFolder::Status::Missing) // never looked up in the working folder
        fail(field,
             "file \"" + file + "\" not found "
                 + (baseDir_.empty() ? "(an unsaved document has no folder to look in)" : "in the document's folder"));
    return r.path;
}

std::vector<std::size_t> BufferFactory::shape(const BufferSpec& spec, const std::string& field) const
{
    const std::int64_t count = scope_.evaluateInteger(spec.count, field + ".count");
    if (count < 0)
        fail(field + ".count", "\"" + spec.count + "\" is negative (" + std::to_string(count) + ")");
    if (count == 0)
        fail(field + ".count", "\"" + spec.count + "\" is zero; a buffer needs at least one element");
    if (count > kMaxCount)
        fail(field + ".count", "\"" + spec.count + "\" is too large (" + std::to_string(count) + ")");
    if (spec.shape.empty())
        return {std::size_t(count)};
    if (spec.shape.size() > 3)
        fail(field + ".shape", "has " + std::to_string(spec.shape.size()) + " dimensions; at most 3 are allowed");

    std::vector<std::size_t> dims;
    std::int64_t product = 1;
    std::string text;
    for (std::size_t d = 0; d < spec.shape.size(); ++d) {
        const std::string dimField = field + ".shape[" + std::to_string(d) + "]";
        const std::int64_t n = scope_.evaluateInteger(spec.shape[d], dimField);
        if (n < 1)
            fail(dimField, "\"" + spec.shape[d] + "\" must be a positive integer (" + std::to_string(n) + ")");
        if (n > kMaxCount)
            fail(dimField, "\"" + spec.shape[d] + "\" is too large (" + std::to_string(n) + ")");
        if (__builtin_mul_overflow(product, n, &product) || product > kMaxCount)
            fail(field + ".shape", "is too large");
        dims.push_back(std::size_t(n));
        text += (d ? " x " : "") + std::to_string(n);
    }
    if (product != count)
        fail(field + ".shape",
             text + " = " + std::to_string(product) + " elements, but the count is " + std::to_string(count));
    return dims;
}

NdArray BufferFactory::create(const BufferSpec& spec, const std::string& field) const
{
    NdArray array;
    array.shape = shape(spec, field);
    const std::size_t count = NdArray::elementCount(array.shape);
    const Initialiser& init = spec.init;
    if (init.kind == Initialiser::Kind::File) { // the file's data becomes the buffer: nothing allocated before
        array.data = fromFile(spec.dtype, count, init, field + ".init.path");
        return array;
    }
    // The kinds below that write every element start unwritten; the others (zeros, a
    // copy) start zeroed, as the zeros kind relies on.
    const bool writesAll = init.kind == Initialiser::Kind::Fill || init.kind == Initialiser::Kind::Arange
        || init.kind == Initialiser::Kind::Linspace || init.kind == Initialiser::Kind::Uniform
        || init.kind == Initialiser::Kind::Normal || init.kind == Initialiser::Kind::Expression;
    array.data = writesAll ? HostBuffer::uninitialised(spec.dtype, count) : HostBuffer(spec.dtype, count);
    HostBuffer& b = array.data;
    const std::string initField = field + ".init";
    switch (init.kind) {
    case Initialiser::Kind::Zeros: break; // HostBuffer starts zeroed; zero bits are 0 in every dtype
    case Initialiser::Kind::Fill: {
        const double v = scope_.evaluate(init.value, initField + ".value");
        fillElements(b, [v](std::size_t) { return v; });
        break;
    }
    case Initialiser::Kind::Arange: {
        const double start = scope_.evaluate(init.start, initField + ".start");
        const double step = scope_.evaluate(init.step, initField + ".step");
        fillElements(b, [=](std::size_t i) { return start + double(i) * step; });
        break;
    }
    case Initialiser::Kind::Linspace: {
        const double start = scope_.evaluate(init.start, initField + ".start");
        const double stop = scope_.evaluate(init.stop, initField + ".stop");
        const double step = count > 1 ? (stop - start) / double(count - 1) : 0.0;
        fillElements(b, [=](std::size_t i) { return i + 1 == count && count > 1 ? stop : start + double(i) * step; });
        break;
    }
    case Initialiser::Kind::Uniform: {
        RandomGenerator rng(init.seed);
        const double low = init.low, range = init.high - init.low;
        fillElements(b, [&](std::size_t) { return low + range * rng.uniform(); });
        break;
    }
    case Initialiser::Kind::Normal: {
        RandomGenerator rng(init.seed);
        const double mean = init.mean, stddev = init.stddev;
        fillElements(b, [&](std::size_t) { return mean + stddev * rng.normal(); });
        break;
    }
    case Initialiser::Kind::Expression: fillExpression(array, init, initField + ".expr"); break;
    case Initialiser::Kind::File: break; // above
    case Initialiser::Kind::Copy: break; // PreparedRun copies the other buffer's initial contents in
    }
    return array;
}

void BufferFactory::fillExpression(NdArray& array, const Initialiser& init, const std::string& field) const
{
    // One parser for all elements, the indices bound by pointer: 2^20 elements in tens of ms.
    ElementIndex index;
    Expression e(init.expression, field);
    scope_.defineIn(e);
    index.bindIn(e, [&](const std::string& n) { return scope_.contains(n); });
    e.compile();
    const std::vector<std::size_t>& s = array.shape;
    const std::size_t w = s.back();
    const std::size_t h = s.size() >= 2 ? s[s.size() - 2] : 1;
    fillElements(array.data, [&](std::size_t k) {
        deadline_.checkEvery(k, field);
        index.moveTo(k, w, h);
        return e.evaluate();
    });
}

namespace {

struct SizeCaps {
    std::uintmax_t npy, csv, raw;
};

NdArray readWithCaps(const std::filesystem::path& path, DType dtype, const SizeCaps& caps)
{
    const std::string ext = lowerExtension(path);
    if (ext == ".npy") {
        NdArray a = NpyFile::read(path, caps.npy);
        a.data = convertTo(std::move(a.data), dtype);
        return a;
    }
    if (ext == ".csv" || ext == ".txt")
        return CsvFile::read(path, dtype, caps.csv);
    NdArray a;
    a.data = BinaryFile::read(path, dtype, caps.raw);
    a.shape = {a.data.count()};
    return a;
}

} // namespace

NdArray BufferFactory::readFile(const std::filesystem::path& path, DType dtype, std::size_t count)
{
    // A file far larger than the buffer it fills is refused by its size, before reading
    // (counts are at most 2^40, so these products do not overflow).
    const std::uintmax_t elements = count;
    return readWithCaps(path, dtype,
                        {elements * 16 + (1 << 20), // any dtype, and the header
                         elements * 64 + (1 << 20), // generous text per number
                         elements * sizeOf(dtype)});
}

NdArray BufferFactory::readFile(const std::filesystem::path& path, DType dtype)
{
    return readWithCaps(path, dtype, {UINTMAX_MAX, UINTMAX_MAX, UINTMAX_MAX});
}

const NdArray* BufferFactory::attachment(const Initialiser& init, const std::string& field) const
{
    if (init.file.empty())
        fail(field, "no file given");
    if (!attached_)
        return nullptr;
    // A remote job: the client read the file; this machine's disk is not its disk.
    if (trust_ != Trust::Trusted && !ConfinedFolder::staysInside(init.file))
        throw Error(ErrorCategory::Untrusted,
                    field + ": \"" + init.file + "\" " + ConfinedFolder::explain(ConfinedFolder::Status::Outside));
    auto it = attached_->find(init.file);
    if (it == attached_->end())
        fail(field, "file \"" + init.file + "\" did not come with the job (the client could not read it)");
    return &it->second;
}

void BufferFactory::checkCount(const Initialiser& init, std::size_t held, std::size_t count, const std::string& field)
{
    if (held != count)
        fail(field,
             "\"" + init.file + "\" holds " + std::to_string(held) + " elements, but the buffer has "
                 + std::to_string(count));
}

HostBuffer BufferFactory::fromFile(DType dtype, std::size_t count, const Initialiser& init,
                                   const std::string& field) const
{
    if (const NdArray* a = attachment(init, field)) {
        checkCount(init, a->data.count(), count, field);
        return convertTo(a->data, dtype);
    }
    HostBuffer loaded = readLocal(init.file, dtype, count, field).data;
    checkCount(init, loaded.count(), count, field);
    return loaded;
}

void BufferFactory::checkFile(const BufferSpec& spec, const std::string& field) const
{
    const std::size_t count = NdArray::elementCount(shape(spec, field));
    const std::string pathField = field + ".init.path";
    if (const NdArray* a = attachment(spec.init, pathField)) {
        // Conversion keeps the count: the attached data is judged where it lies.
        checkCount(spec.init, a->data.count(), count, pathField);
        return;
    }
    checkCount(spec.init, countLocal(spec.init.file, spec.dtype, count, pathField), count, pathField);
}

std::filesystem::path BufferFactory::localFile(const std::string& file, const std::string& field) const
{
    const std::filesystem::path path = resolve(file, field);
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        fail(field, "\"" + file + "\" is not a regular file");
    if (!std::filesystem::is_regular_file(status))
        fail(field, "file \"" + file + "\" not found (looked for " + path.string() + ")");
    return path;
}

NdArray BufferFactory::readLocal(const std::string& file, DType dtype, std::size_t count,
                                 const std::string& field) const
{
    const std::filesystem::path path = localFile(file, field);
    try {
        return readFile(path, dtype, count);
    } catch (const Error& e) {
        fail(field, e.what());
    }
}

std::size_t BufferFactory::countLocal(const std::string& file, DType dtype, std::size_t count,
                                      const std::string& field) const
{
    const std::filesystem::path path = localFile(file, field);
    if (lowerExtension(path) == ".npy" || lowerExtension(path) == ".csv" || lowerExtension(path) == ".txt")
        return readLocal(file, dtype, count, field).data.count(); // their elements are known once parsed
    try {
        // A raw file's count is its size: judged without reading it (the cap of readFile's).
        return BinaryFile::elementCount(path, dtype, std::uintmax_t(count) * sizeOf(dtype));
    } catch (const Error& e) {
        fail(field, e.what());
    }
}

} // namespace kw
