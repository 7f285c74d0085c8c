#pragma once
// The JSON forms of what a run produces (docs/protocol.md, "Results"): result.json,
// kwb-run --json and the serve protocol's replies. Buffer contents are not included;
// they travel as .npy files or binary frames.
#include "launch/RunResult.hpp"
#include "run/DevicesReport.hpp"

#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace kw {

nlohmann::json toJson(const CompileResult& r, bool includePtx = false);
nlohmann::json toJson(const RunResult& r);
// With the kernel's source text, whose lines the profile's findings quote.
nlohmann::json toJson(const RunResult& r, const std::string& source);
// "profile": {"totals", "lines", "extras", "samples", "figures", "findings"} (docs/protocol.md).
nlohmann::json toJson(const KernelProfile& p, const std::string& source = {});
KernelProfile kernelProfileFromJson(const nlohmann::json& j); // figures and findings are derived, not read
nlohmann::json toJson(const DeviceInfo& d);
nlohmann::json toJson(const std::vector<DeviceInfo>& devices); // [DEVICE...]
// {"devices": [DEVICE...], "driver": null or why there is no driver}: the serve
// `devices` reply and `kwb-run devices --json`.
nlohmann::json toJson(const DevicesReport& report);
// The readers below take JSON from elsewhere (a runner, a child process): a member of the
// wrong type or an unknown name throws kw::Error(Protocol), never a nlohmann::json exception.
CompileResult compileResultFromJson(const nlohmann::json& j);
RunResult runResultFromJson(const nlohmann::json& j); // buffers get metadata only
DeviceInfo deviceInfoFromJson(const nlohmann::json& j);

} // namespace kw
