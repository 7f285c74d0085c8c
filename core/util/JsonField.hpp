#pragma once
// Members of JSON that came from elsewhere (a runner's replies), read without believing
// their types: a member of another type, or a number its C++ type cannot hold, is
// kw::Error(Protocol) naming the member. Never a nlohmann::json exception, nor the
// conversion nlohmann::json leaves undefined (a double too large for an int).
#include "util/Error.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace kw {

class JsonField {
public:
    // `j` as T: bool, an integer type, double, std::string, or a std::vector or a
    // std::map<std::string, ...> of those. `what` names it in the error.
    template <typename T> static T as(const nlohmann::json& j, std::string_view what)
    {
        if constexpr (std::is_same_v<T, bool>) {
            if (!j.is_boolean())
                wrongType(j, what, "true or false");
            return j.get<bool>();
        } else if constexpr (std::is_integral_v<T>) {
            if (j.is_number_unsigned() && std::in_range<T>(j.get<std::uint64_t>()))
                return static_cast<T>(j.get<std::uint64_t>());
            if (j.is_number_integer() && !j.is_number_unsigned() && std::in_range<T>(j.get<std::int64_t>()))
                return static_cast<T>(j.get<std::int64_t>());
            wrongType(j, what,
                      "an integer from " + std::to_string(std::numeric_limits<T>::min()) + " to "
                          + std::to_string(std::numeric_limits<T>::max()));
        } else if constexpr (std::is_same_v<T, double>) {
            if (!j.is_number())
                wrongType(j, what, "a number");
            return j.get<double>();
        } else if constexpr (std::is_same_v<T, std::string>) {
            if (!j.is_string())
                wrongType(j, what, "a string");
            return j.get<std::string>();
        } else if constexpr (IsVector<T>::value) {
            if (!j.is_array())
                wrongType(j, what, "an array");
            T out;
            for (const nlohmann::json& e : j)
                out.push_back(as<typename T::value_type>(e, what));
            return out;
        } else {
            static_assert(IsStringMap<T>::value, "JsonField reads bool, numbers, strings, vectors and maps");
            if (!j.is_object())
                wrongType(j, what, "an object");
            T out;
            for (const auto& [key, e] : j.items())
                out.emplace(key, as<typename T::mapped_type>(e, what));
            return out;
        }
    }

    // Member `key` of `j` as T; `fallback` when it is absent or null (or `j` is no object).
    template <typename T> static T get(const nlohmann::json& j, const char* key, T fallback)
    {
        const auto it = j.find(key);
        if (it == j.end() || it->is_null())
            return fallback;
        return as<T>(*it, key);
    }

private:
    template <typename T> struct IsVector : std::false_type {
    };
    template <typename E, typename A> struct IsVector<std::vector<E, A>> : std::true_type {
    };
    template <typename T> struct IsStringMap : std::false_type {
    };
    template <typename V, typename C, typename A> struct IsStringMap<std::map<std::string, V, C, A>> : std::true_type {
    };

    [[noreturn]] static void wrongType(const nlohmann::json& j, std::string_view what, const std::string& expected)
    {
        // A number is quoted (it is short); anything else only by its type, never its contents.
        std::string message = "\""; // in steps: GCC 12 warns falsely (-Wrestrict) on "x" + a + b
        message += what;
        message += "\" must be " + expected + ", not " + (j.is_number() ? j.dump() : std::string(j.type_name()));
        throw Error(ErrorCategory::Protocol, message);
    }
};

} // namespace kw
