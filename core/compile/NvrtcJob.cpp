#include "compile/NvrtcJob.hpp"

#include "util/Error.hpp"

namespace kw {

using nlohmann::json;

json toJson(const NvrtcJob& job)
{
    json headers = json::array();
    for (const InMemoryHeader& h : job.headers)
        headers.push_back({{"name", h.name}, {"text", h.text}});
    return {{"source", job.source},     {"source_name", job.sourceName},
            {"headers", headers},       {"args", job.args},
            {"names", job.names},       {"want_cubin", job.wantCubin},
            {"confined", job.confined}, {"time_limit_ms", job.timeLimit.count()},
            {"pch_dir", job.pchDir}};
}

NvrtcJob nvrtcJobFromJson(const json& j)
{
    try {
        NvrtcJob job;
        job.source = j.at("source").get<std::string>();
        job.sourceName = j.at("source_name").get<std::string>();
        for (const json& h : j.at("headers"))
            job.headers.push_back({h.at("name").get<std::string>(), h.at("text").get<std::string>()});
        job.args = j.at("args").get<std::vector<std::string>>();
        job.names = j.at("names").get<std::vector<std::string>>();
        job.wantCubin = j.at("want_cubin").get<bool>();
        job.confined = j.at("confined").get<bool>();
        job.timeLimit = std::chrono::milliseconds(j.at("time_limit_ms").get<long long>());
        job.pchDir = j.value("pch_dir", std::string());
        return job;
    } catch (const json::exception& e) {
        throw Error(ErrorCategory::Protocol, std::string("compile job: ") + e.what());
    }
}

} // namespace kw
