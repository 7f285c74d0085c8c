#pragma once
// A run under a checking tool outside this process: on a `cuda` device, --check runs
// the document in a child kwb-run under compute-sanitizer (serve/SanitizedRun) and
// brings its result and the tool's findings back. RunEngine hands such a run here;
// the implementation lives above this layer, where processes and result codecs are.
#include "doc/Document.hpp"
#include "launch/CheckTool.hpp"
#include "launch/RunResult.hpp"
#include "run/RunEngine.hpp"

namespace kw {

class ExternalCheck {
public:
    virtual ~ExternalCheck() = default;
    // The whole run of `doc` on `device` under `tool`: a result with `check` and
    // `findings` filled, compile errors and faults as in RunEngine::run. A tool that
    // is missing, a child that crashed or ran out of time throws kw::Error.
    virtual RunResult run(const Document& doc, const DeviceInfo& device, CheckTool tool, const RunOverrides& overrides)
        = 0;
};

} // namespace kw
