#pragma once
// What a bad-input case got back, reduced to a class and a message: `ok`,
// `compile-error`, `fault:KIND` or `error:CATEGORY` (see README.md).
#include <nlohmann/json.hpp>

#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace kw::test {

struct Classified {
    std::string cls, message;
    std::vector<std::string> warnings;
    bool printfTruncated = false;
};

// A run result, a compile result or a serve reply's `result`/`error`.
inline Classified classifyJson(const nlohmann::json& j)
{
    Classified c;
    if (j.contains("error") && j["error"].is_object()) { // a serve error reply
        c.cls = "error:" + j["error"].value("category", std::string("?"));
        c.message = j["error"].value("message", std::string());
        return c;
    }
    const nlohmann::json& r = j.contains("result") ? j["result"] : j;
    if (r.contains("warnings") && r["warnings"].is_array())
        for (const auto& w : r["warnings"])
            c.warnings.push_back(w.is_string() ? w.get<std::string>() : w.dump());
    if (r.contains("printf") && r["printf"].is_object())
        c.printfTruncated = r["printf"].value("truncated", false);
    auto diagnostics = [](const nlohmann::json& compile) {
        std::string all;
        for (const auto& d : compile.value("diagnostics", nlohmann::json::array()))
            all += d.value("message", std::string()) + "\n";
        return all + compile.value("log", std::string());
    };
    if (r.contains("compile") && r["compile"].is_object()) { // a run result
        if (r.contains("fault") && r["fault"].is_object()) { // also a job the watchdog ended
            c.cls = "fault:" + r["fault"].value("kind", std::string("?"));
            c.message = r["fault"].value("message", std::string());
        } else if (!r["compile"].value("ok", false)) {
            c.cls = "compile-error";
            c.message = diagnostics(r["compile"]);
        } else {
            c.cls = r.value("ok", false) ? "ok" : "check-failed";
        }
        return c;
    }
    if (r.contains("diagnostics")) { // a compile result
        c.cls = r.value("ok", false) ? "ok" : "compile-error";
        c.message = diagnostics(r);
        return c;
    }
    c.cls = "ok";
    return c;
}

// kwb-run's own output: JSON on stdout, or "kwb-run: CATEGORY error: MESSAGE" on stderr.
inline Classified classifyCli(int exitCode, const std::string& out, const std::string& err)
{
    static const std::regex errorLine(R"(kwb-run: ([a-z-]+) error: ([^\n]*))");
    std::smatch m;
    if (std::regex_search(err, m, errorLine)) {
        Classified c;
        c.cls = "error:" + m[1].str();
        c.message = m[2].str();
        return c;
    }
    const auto parsed = nlohmann::json::parse(out, nullptr, false);
    if (parsed.is_object())
        return classifyJson(parsed);
    Classified c;
    static const std::regex faultLine(R"(FAULT +([a-z_]+): ([^\n]*))");
    if (std::regex_search(out, m, faultLine)) {
        c.cls = "fault:" + m[1].str();
        c.message = m[2].str();
    } else {
        c.cls = exitCode == 0 ? "ok" : exitCode == 1 ? "compile-error" : "unclassified";
        c.message = out + err;
    }
    return c;
}

// The final replies of a serve conversation (events and binary frames skipped).
inline std::vector<std::pair<nlohmann::json, Classified>> serveReplies(const std::string& out)
{
    std::vector<std::pair<nlohmann::json, Classified>> replies;
    std::size_t at = 0;
    while (at < out.size()) {
        const std::size_t nl = out.find('\n', at);
        const std::string line = out.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
        at = nl == std::string::npos ? out.size() : nl + 1;
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_object()) {
            replies.push_back({nullptr, Classified{"not-json", line, {}, false}});
            continue;
        }
        if (j.contains("binary") && j["binary"].is_number_unsigned())
            at += j["binary"].get<std::size_t>();
        if (!j.contains("event"))
            replies.push_back({j, classifyJson(j)});
    }
    return replies;
}

} // namespace kw::test
