#include "compile/CompileRequestJson.hpp"

#include "util/Error.hpp"

namespace kw {

using nlohmann::json;

json toJson(const CompileRequest& r)
{
    const CompileOptions& o = r.options;
    json defines = json::array();
    for (const auto& [name, value] : o.defines)
        defines.push_back({name, value});
    return {{"source", r.source},
            {"source_name", r.sourceName},
            {"base_dir", r.baseDir.string()},
            {"name_expressions", r.nameExpressions},
            {"options",
             {{"defines", defines},
              {"include_dirs", o.includeDirs},
              {"std", o.std},
              {"arch", o.arch},
              {"line_info", o.lineInfo},
              {"device_debug", o.deviceDebug},
              {"fast_math", o.fastMath},
              {"tag_printf", o.tagPrintf},
              {"extra", o.extra}}}};
}

CompileRequest compileRequestFromJson(const json& j)
{
    try {
        CompileRequest r;
        r.source = j.at("source").get<std::string>();
        r.sourceName = j.at("source_name").get<std::string>();
        r.baseDir = j.at("base_dir").get<std::string>();
        r.nameExpressions = j.at("name_expressions").get<std::vector<std::string>>();
        const json& o = j.at("options");
        for (const auto& d : o.at("defines"))
            r.options.defines.emplace_back(d.at(0).get<std::string>(), d.at(1).get<std::string>());
        r.options.includeDirs = o.at("include_dirs").get<std::vector<std::string>>();
        r.options.std = o.at("std").get<std::string>();
        r.options.arch = o.at("arch").get<std::string>();
        r.options.lineInfo = o.at("line_info").get<bool>();
        r.options.deviceDebug = o.at("device_debug").get<bool>();
        r.options.fastMath = o.at("fast_math").get<bool>();
        r.options.tagPrintf = o.at("tag_printf").get<bool>();
        r.options.extra = o.at("extra").get<std::vector<std::string>>();
        return r;
    } catch (const json::exception& e) {
        throw Error(ErrorCategory::Protocol, std::string("compile request: ") + e.what());
    }
}

} // namespace kw
