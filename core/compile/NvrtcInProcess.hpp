#pragma once
// NVRTC run in this process on a job: only the compile worker does this, behind its
// sandbox; everything else compiles through CompileWorkerProcess.
#include "compile/CompileResult.hpp"
#include "compile/NvrtcJob.hpp"

namespace kw {

class NvrtcLibrary;

// ok, log (ptxas's report joined with a newline), PTX, cubin when asked, and the
// lowered names. A compile error or a refused option is a result with ok == false;
// NVRTC failing otherwise throws kw::Error(Nvrtc).
CompileResult runNvrtcInProcess(const NvrtcLibrary& nvrtc, const NvrtcJob& job);

} // namespace kw
