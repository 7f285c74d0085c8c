/* A stand-in for NVIDIA's nvrtc64_130_0.dll, for wine-proof.sh only: it exports the
 * functions the programs bind, says it is version 13.0 and compiles nothing, so that
 * `kwb-run --version` shows which folder of the search order a library was taken from
 * (NVIDIA's DLLs cannot be carried here). Built with -DKW_BUILTINS it is the empty
 * nvrtc-builtins64_130.dll that must lie beside it. Not installed, not shipped. */
#define KW_EXPORT __declspec(dllexport)

#ifdef KW_BUILTINS
KW_EXPORT int kwStandInBuiltins(void) { return 0; }
#else
typedef int nvrtcResult;
typedef void* nvrtcProgram;
enum { kSuccess = 0, kInternalError = 11 };

KW_EXPORT const char* nvrtcGetErrorString(nvrtcResult r)
{
    return r == kSuccess ? "NVRTC_SUCCESS" : "stand-in NVRTC: compiles nothing";
}
KW_EXPORT nvrtcResult nvrtcVersion(int* major, int* minor)
{
    *major = 13;
    *minor = 0;
    return kSuccess;
}
KW_EXPORT nvrtcResult nvrtcGetNumSupportedArchs(int* n)
{
    *n = 1;
    return kSuccess;
}
KW_EXPORT nvrtcResult nvrtcGetSupportedArchs(int* archs)
{
    archs[0] = 75;
    return kSuccess;
}
#define KW_REFUSE(name) \
    KW_EXPORT nvrtcResult name() { return kInternalError; }
KW_REFUSE(nvrtcCreateProgram)
KW_REFUSE(nvrtcDestroyProgram)
KW_REFUSE(nvrtcCompileProgram)
KW_REFUSE(nvrtcGetPTXSize)
KW_REFUSE(nvrtcGetPTX)
KW_REFUSE(nvrtcGetCUBINSize)
KW_REFUSE(nvrtcGetCUBIN)
KW_REFUSE(nvrtcGetProgramLogSize)
KW_REFUSE(nvrtcGetProgramLog)
KW_REFUSE(nvrtcAddNameExpression)
KW_REFUSE(nvrtcGetLoweredName)
#endif
