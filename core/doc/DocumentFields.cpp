#include "doc/DocumentFields.hpp"

#include "doc/CheckAggregate.hpp"
#include "doc/Expression.hpp"
#include "util/Error.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

namespace kw::fields {

[[noreturn]] void fail(const std::string& field, const std::string& why)
{
    throw Error(ErrorCategory::Document, field + ": " + why);
}

const char* kindName(const Json& j)
{
    switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::binary: return "binary data";
    case Json::value_t::discarded: return "nothing";
    default: return "a number";
    }
}

std::string join(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

void requireObject(const Json& j, const std::string& field, std::initializer_list<const char*> allowed)
{
    if (!j.is_object())
        fail(field.empty() ? "document" : field, std::string("expected an object, got ") + kindName(j));
    for (const auto& [key, value] : j.items()) {
        bool known = false;
        for (const char* a : allowed)
            known = known || key == a;
        if (!known) {
            std::string list;
            for (const char* a : allowed)
                list += (list.empty() ? "" : ", ") + std::string(a);
            fail(join(field, key), "unknown key (allowed: " + list + ")");
        }
    }
}

std::string getString(const Json& j, const std::string& field)
{
    if (!j.is_string())
        fail(field, std::string("expected a string, got ") + kindName(j));
    return j.get<std::string>();
}

std::string getExpression(const Json& j, const std::string& field)
{
    if (j.is_string())
        return j.get<std::string>();
    if (j.is_number_unsigned()) // before is_number_integer, which is true for unsigned too
        return std::to_string(j.get<unsigned long long>());
    if (j.is_number_integer())
        return std::to_string(j.get<long long>());
    if (j.is_number_float())
        return numberText(j.get<double>());
    fail(field, std::string("expected an expression (a string or a number), got ") + kindName(j));
}

double getNumber(const Json& j, const std::string& field)
{
    if (!j.is_number())
        fail(field, std::string("expected a number, got ") + kindName(j));
    return j.get<double>();
}

long long getInteger(const Json& j, const std::string& field)
{
    if (j.is_number_unsigned() && j.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<long long>::max()))
        fail(field, std::to_string(j.get<std::uint64_t>()) + " is too large");
    if (j.is_number_integer() || j.is_number_unsigned())
        return j.get<long long>();
    if (j.is_number_float()) {
        const double v = j.get<double>();
        if (v == std::floor(v) && std::fabs(v) < 9e18)
            return static_cast<long long>(v);
        fail(field, numberText(v) + " is not an integer");
    }
    fail(field, std::string("expected an integer, got ") + kindName(j));
}

bool getBool(const Json& j, const std::string& field)
{
    if (!j.is_boolean())
        fail(field, std::string("expected true or false, got ") + kindName(j));
    return j.get<bool>();
}

std::vector<std::string> getStringList(const Json& j, const std::string& field)
{
    if (!j.is_array())
        fail(field, std::string("expected an array of strings, got ") + kindName(j));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < j.size(); ++i)
        out.push_back(getString(j[i], field + "[" + std::to_string(i) + "]"));
    return out;
}

DType getDType(const Json& j, const std::string& field)
{
    const std::string s = getString(j, field);
    if (auto t = parseDType(s))
        return *t;
    fail(field, "\"" + s + "\" is not a dtype (i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64)");
}

ArgSpec readArg(const Json& j, const std::string& field)
{
    requireObject(j, field, {"name", "buffer", "offset", "type", "value"});
    ArgSpec a;
    if (j.contains("name"))
        a.name = getString(j["name"], field + ".name");
    const std::string f = a.name.empty() ? field : field + " (" + a.name + ")";
    if (j.contains("buffer")) {
        if (j.contains("type") || j.contains("value"))
            fail(f, "give either \"buffer\" or \"type\" and \"value\", not both");
        if (j["buffer"].is_null()) {
            if (j.contains("offset"))
                fail(f + ".offset", "goes with a buffer: a null pointer has no offset");
            return ArgSpec::nullPointer(a.name);
        }
        a.buffer = getString(j["buffer"], f + ".buffer");
        if (a.buffer.empty())
            fail(f + ".buffer", "is empty");
        if (j.contains("offset"))
            a.offset = getExpression(j["offset"], f + ".offset");
        return a;
    }
    if (j.contains("offset"))
        fail(f + ".offset", "goes with \"buffer\": a scalar has no offset");
    if (!j.contains("type"))
        fail(f, "needs \"buffer\", or \"type\" and \"value\"");
    a.type = getDType(j["type"], f + ".type");
    if (!j.contains("value"))
        fail(f + ".value", "missing");
    a.value = getExpression(j["value"], f + ".value");
    return a;
}

std::vector<std::string> readDims(const Json& j, const std::string& field)
{
    std::vector<std::string> dims;
    if (j.is_array()) {
        if (j.empty() || j.size() > 3)
            fail(field, "needs 1 to 3 expressions, has " + std::to_string(j.size()));
        for (std::size_t d = 0; d < j.size(); ++d)
            dims.push_back(getExpression(j[d], field + "[" + std::to_string(d) + "]"));
    } else {
        dims.push_back(getExpression(j, field));
    }
    while (dims.size() < 3)
        dims.push_back("1");
    return dims;
}

CheckSpec readCheck(const Json& j, const std::string& field)
{
    requireObject(j, field, {"buffer", "expect", "abs_tol", "rel_tol", "aggregate", "of"});
    CheckSpec c;
    if (!j.contains("buffer"))
        fail(field + ".buffer", "missing");
    c.buffer = getString(j["buffer"], field + ".buffer");
    // any/all compare with true unless told otherwise.
    if (!j.contains("expect")
        && !(j.contains("aggregate") && j["aggregate"].is_string()
             && (j["aggregate"] == "any" || j["aggregate"] == "all")))
        fail(field + ".expect", "missing");
    c.expect = j.contains("expect") ? getExpression(j["expect"], field + ".expect") : "1";
    if (j.contains("abs_tol"))
        c.absTol = getNumber(j["abs_tol"], field + ".abs_tol");
    if (j.contains("rel_tol"))
        c.relTol = getNumber(j["rel_tol"], field + ".rel_tol");
    if (j.contains("aggregate")) {
        c.aggregate = getString(j["aggregate"], field + ".aggregate");
        if (!isAggregate(c.aggregate))
            fail(field + ".aggregate", "\"" + c.aggregate + "\" is not one of sum, min, max, mean, count, any, all");
    }
    if (j.contains("of")) {
        if (c.aggregate.empty())
            fail(field + ".of", "needs \"aggregate\"");
        c.of = getExpression(j["of"], field + ".of");
    }
    return c;
}

Json expressionJson(const std::string& text)
{
    if (!text.empty()) {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end == text.c_str() + text.size() && numberText(v) == text) {
            if (v == static_cast<double>(static_cast<long long>(v)))
                return static_cast<long long>(v);
            return v;
        }
    }
    return text;
}

Json dimsJson(const std::vector<std::string>& d)
{
    std::size_t n = d.size();
    while (n > 1 && d[n - 1] == "1")
        --n;
    Json a = Json::array();
    for (std::size_t i = 0; i < n; ++i)
        a.push_back(expressionJson(d[i]));
    return a;
}

Json argJson(const ArgSpec& a)
{
    Json ja = Json::object();
    if (!a.name.empty())
        ja["name"] = a.name;
    if (a.null) {
        ja["buffer"] = nullptr;
    } else if (a.isBuffer()) {
        ja["buffer"] = a.buffer;
        if (!a.offset.empty())
            ja["offset"] = expressionJson(a.offset);
    } else {
        ja["type"] = kw::toString(a.type);
        ja["value"] = expressionJson(a.value);
    }
    return ja;
}

Json checkJson(const CheckSpec& c)
{
    Json jc = Json::object();
    jc["buffer"] = c.buffer;
    if (!c.aggregate.empty())
        jc["aggregate"] = c.aggregate;
    if (!c.of.empty())
        jc["of"] = expressionJson(c.of);
    jc["expect"] = expressionJson(c.expect);
    jc["abs_tol"] = c.absTol;
    jc["rel_tol"] = c.relTol;
    return jc;
}

} // namespace kw::fields
