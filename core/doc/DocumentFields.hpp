#pragma once
// The JSON form of a document's fields, for DocumentReader and DocumentWriter and the
// parts of a document they share (steps, arguments, checks): each reader fails with
// kw::Error(Document) naming the field and why; each writer gives what its reader reads
// back to the same value.
#include "doc/Document.hpp"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <vector>

namespace kw::fields {

using Json = nlohmann::ordered_json;

[[noreturn]] void fail(const std::string& field, const std::string& why);
// "an object", "a string", ... for messages.
const char* kindName(const Json& j);
// "path.key", or "key" at the top.
std::string join(const std::string& path, const std::string& key);
// An object whose keys are all among `allowed`.
void requireObject(const Json& j, const std::string& field, std::initializer_list<const char*> allowed);

std::string getString(const Json& j, const std::string& field);
// Expressions are strings or plain numbers.
std::string getExpression(const Json& j, const std::string& field);
double getNumber(const Json& j, const std::string& field);
long long getInteger(const Json& j, const std::string& field);
bool getBool(const Json& j, const std::string& field);
std::vector<std::string> getStringList(const Json& j, const std::string& field);
DType getDType(const Json& j, const std::string& field);

ArgSpec readArg(const Json& j, const std::string& field);
// One expression or an array of 1 to 3, filled up to three with "1".
std::vector<std::string> readDims(const Json& j, const std::string& field);
CheckSpec readCheck(const Json& j, const std::string& field);

template <typename T, typename F> std::vector<T> readList(const Json& j, const std::string& field, F readOne)
{
    if (!j.is_array())
        fail(field, std::string("expected an array, got ") + kindName(j));
    std::vector<T> out;
    for (std::size_t i = 0; i < j.size(); ++i)
        out.push_back(readOne(j[i], field + "[" + std::to_string(i) + "]"));
    return out;
}

// An expression that is just a number is written as a JSON number.
Json expressionJson(const std::string& text);
// Trailing 1s are implied.
Json dimsJson(const std::vector<std::string>& dims);
Json argJson(const ArgSpec& arg);
Json checkJson(const CheckSpec& check);

} // namespace kw::fields
