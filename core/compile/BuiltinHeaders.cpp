#include "compile/BuiltinHeaders.hpp"

#include <algorithm>

namespace kw {

namespace {

const char* const kClimits = R"(#pragma once
#ifndef CHAR_BIT
#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#define SHRT_MIN (-SHRT_MAX - 1)
#define SHRT_MAX 0x7fff
#define USHRT_MAX 0xffff
#define INT_MIN (-INT_MAX - 1)
#define INT_MAX 0x7fffffff
#define UINT_MAX 0xffffffff
#define LONG_MIN (-LONG_MAX - 1)
#ifdef __LP64__
#define LONG_MAX LLONG_MAX
#define ULONG_MAX ULLONG_MAX
#else
#define LONG_MAX INT_MAX
#define ULONG_MAX UINT_MAX
#endif
#define LLONG_MIN (-LLONG_MAX - 1)
#define LLONG_MAX 0x7fffffffffffffffLL
#define ULLONG_MAX 0xffffffffffffffffUL
#endif
)";

const char* const kCfloat = R"(#pragma once
#ifndef FLT_MAX
#define FLT_RADIX 2
#define FLT_MANT_DIG 24
#define FLT_DIG 6
#define FLT_MIN 1.17549435082228750796873653722224568e-38F
#define FLT_MAX 3.40282346638528859811704183484516925e+38F
#define FLT_EPSILON 1.19209289550781250000000000000000000e-7F
#define FLT_MIN_EXP (-125)
#define FLT_MIN_10_EXP (-37)
#define FLT_MAX_EXP 128
#define FLT_MAX_10_EXP 38
#define FLT_TRUE_MIN 1.40129846432481707092372958328991613e-45F
#define DBL_MANT_DIG 53
#define DBL_DIG 15
#define DBL_MIN 2.22507385850720138309023271733240406e-308
#define DBL_MAX 1.79769313486231570814527423731704357e+308
#define DBL_EPSILON 2.22044604925031308084726333618164062e-16
#define DBL_MIN_EXP (-1021)
#define DBL_MIN_10_EXP (-307)
#define DBL_MAX_EXP 1024
#define DBL_MAX_10_EXP 308
#define DBL_TRUE_MIN 4.94065645841246544176568792868221372e-324
#define DECIMAL_DIG 17
#endif
)";

// The same types as CCCL's <cuda/std/cstdint> under NVRTC.
const char* const kStdint = R"(#pragma once
#include <climits>
typedef signed char int8_t;
typedef signed short int16_t;
typedef signed int int32_t;
typedef signed long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef int8_t int_fast8_t;
typedef int16_t int_fast16_t;
typedef int32_t int_fast32_t;
typedef int64_t int_fast64_t;
typedef uint8_t uint_fast8_t;
typedef uint16_t uint_fast16_t;
typedef uint32_t uint_fast32_t;
typedef uint64_t uint_fast64_t;
typedef int8_t int_least8_t;
typedef int16_t int_least16_t;
typedef int32_t int_least32_t;
typedef int64_t int_least64_t;
typedef uint8_t uint_least8_t;
typedef uint16_t uint_least16_t;
typedef uint32_t uint_least32_t;
typedef uint64_t uint_least64_t;
typedef int64_t intptr_t;
typedef uint64_t uintptr_t;
typedef int64_t intmax_t;
typedef uint64_t uintmax_t;
#ifndef INT8_MIN
#define INT8_MIN SCHAR_MIN
#define INT16_MIN SHRT_MIN
#define INT32_MIN INT_MIN
#define INT64_MIN LLONG_MIN
#define INT8_MAX SCHAR_MAX
#define INT16_MAX SHRT_MAX
#define INT32_MAX INT_MAX
#define INT64_MAX LLONG_MAX
#define UINT8_MAX UCHAR_MAX
#define UINT16_MAX USHRT_MAX
#define UINT32_MAX UINT_MAX
#define UINT64_MAX ULLONG_MAX
#define INTPTR_MIN INT64_MIN
#define INTPTR_MAX INT64_MAX
#define UINTPTR_MAX UINT64_MAX
#define INTMAX_MIN INT64_MIN
#define INTMAX_MAX INT64_MAX
#define UINTMAX_MAX UINT64_MAX
#define PTRDIFF_MIN INT64_MIN
#define PTRDIFF_MAX INT64_MAX
#define SIZE_MAX UINT64_MAX
#define INT8_C(X) ((::int_least8_t)(X))
#define INT16_C(X) ((::int_least16_t)(X))
#define INT32_C(X) ((::int_least32_t)(X))
#define INT64_C(X) ((::int_least64_t)(X))
#define UINT8_C(X) ((::uint_least8_t)(X))
#define UINT16_C(X) ((::uint_least16_t)(X))
#define UINT32_C(X) ((::uint_least32_t)(X))
#define UINT64_C(X) ((::uint_least64_t)(X))
#define INTMAX_C(X) ((::intmax_t)(X))
#define UINTMAX_C(X) ((::uintmax_t)(X))
#endif
)";

const char* const kCstdint = R"(#pragma once
#include <stdint.h>
namespace std {
using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;
using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t;
using ::int_fast8_t; using ::int_fast16_t; using ::int_fast32_t; using ::int_fast64_t;
using ::uint_fast8_t; using ::uint_fast16_t; using ::uint_fast32_t; using ::uint_fast64_t;
using ::int_least8_t; using ::int_least16_t; using ::int_least32_t; using ::int_least64_t;
using ::uint_least8_t; using ::uint_least16_t; using ::uint_least32_t; using ::uint_least64_t;
using ::intptr_t; using ::uintptr_t; using ::intmax_t; using ::uintmax_t;
}
)";

// size_t and ptrdiff_t are predefined by NVRTC.
// stddef.h and cstddef share this text: the guard keeps std::byte from being defined twice.
const char* const kCstddef = R"(#pragma once
#ifndef KW_BUILTIN_CSTDDEF
#define KW_BUILTIN_CSTDDEF
#ifndef NULL
#define NULL 0
#endif
#ifndef offsetof
#define offsetof(type, member) ((::size_t)&reinterpret_cast<const volatile char&>(((type*)0)->member))
#endif
namespace std {
using ::size_t;
using ::ptrdiff_t;
#if __cplusplus >= 201103L
typedef decltype(nullptr) nullptr_t;
#endif
#if __cplusplus >= 201703L
enum class byte : unsigned char {};
#endif
}
#endif
)";

// printf is a device built-in.
const char* const kCstdio = R"(#pragma once
#include <cstddef>
namespace std { using ::printf; }
)";

// malloc, free and abs for integers are device built-ins.
const char* const kCstdlib = R"(#pragma once
#include <cstddef>
#ifndef RAND_MAX
#define RAND_MAX 2147483647
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#endif
namespace std { using ::malloc; using ::free; using ::abs; using ::labs; using ::llabs; }
)";

// No include guard: NDEBUG may change between inclusions, as with the C header.
const char* const kAssert = R"(#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, sizeof(char)))
#endif
)";

// The math functions are device built-ins in the global namespace.
const char* const kMath = R"(#pragma once
#ifndef M_PI
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#endif
#ifndef INFINITY
// Constants rather than macros: <cuda/std/cmath> defines INFINITY and NAN as macros
// of its own for NVRTC, and a macro here would make that an incompatible redefinition.
// Constants rather than macros: <cuda/std/cmath> defines INFINITY and NAN as macros
// of its own for NVRTC, and a macro here would make that an incompatible redefinition.
// NAN is the quiet NaN that glibc's and libcu++'s give.
#if __cplusplus >= 201103L
static constexpr float INFINITY = __builtin_bit_cast(float, 0x7f800000u);
static constexpr float NAN = __builtin_bit_cast(float, 0x7fc00000u);
#else
#define INFINITY (__builtin_bit_cast(float, 0x7f800000u))
#define NAN (__builtin_bit_cast(float, 0x7fc00000u))
#endif
#define HUGE_VALF (__builtin_bit_cast(float, 0x7f800000u))
#define HUGE_VAL (__builtin_bit_cast(double, 0x7ff0000000000000ull))
#endif
#ifndef FP_NAN
#define FP_NAN 0
#define FP_INFINITE 1
#define FP_ZERO 2
#define FP_SUBNORMAL 3
#define FP_NORMAL 4
#endif
#ifndef MAXFLOAT
#define MAXFLOAT 3.40282347e+38F
#endif
)";

const char* const kCmath = R"(#pragma once
#include <math.h>
namespace std {
using ::sqrt; using ::cbrt; using ::hypot; using ::fabs; using ::abs; using ::fma; using ::fmod;
using ::remainder; using ::remquo; using ::fmax; using ::fmin; using ::fdim; using ::nan;
using ::exp; using ::exp2; using ::expm1; using ::log; using ::log10; using ::log2; using ::log1p;
using ::pow; using ::sin; using ::cos; using ::tan; using ::asin; using ::acos; using ::atan; using ::atan2;
using ::sinh; using ::cosh; using ::tanh; using ::asinh; using ::acosh; using ::atanh;
using ::erf; using ::erfc; using ::tgamma; using ::lgamma;
using ::ceil; using ::floor; using ::trunc; using ::round; using ::lround; using ::llround;
using ::nearbyint; using ::rint; using ::lrint; using ::llrint;
using ::frexp; using ::ldexp; using ::modf; using ::scalbn; using ::ilogb; using ::logb;
using ::nextafter; using ::copysign;
using ::isnan; using ::isinf; using ::isfinite; using ::signbit;
}
)";

// memcpy and memset are device built-ins; the other functions are small device
// definitions with the C library's meaning (no locale, no errno).
const char* const kString = R"(#pragma once
#include <stddef.h>
static __device__ __forceinline__ size_t strlen(const char* s)
{ size_t n = 0; while (s[n]) ++n; return n; }
static __device__ __forceinline__ int strcmp(const char* a, const char* b)
{ while (*a && *a == *b) { ++a; ++b; } return (int)(unsigned char)*a - (int)(unsigned char)*b; }
static __device__ __forceinline__ int strncmp(const char* a, const char* b, size_t n)
{ for (; n; --n, ++a, ++b) { if (*a != *b || !*a) return (int)(unsigned char)*a - (int)(unsigned char)*b; } return 0; }
static __device__ __forceinline__ char* strcpy(char* d, const char* s)
{ char* r = d; while ((*d++ = *s++)) {} return r; }
static __device__ __forceinline__ char* strncpy(char* d, const char* s, size_t n)
{ size_t i = 0; for (; i < n && s[i]; ++i) d[i] = s[i]; for (; i < n; ++i) d[i] = 0; return d; }
static __device__ __forceinline__ char* strcat(char* d, const char* s)
{ strcpy(d + strlen(d), s); return d; }
static __device__ __forceinline__ const char* strchr(const char* s, int c)
{ for (;; ++s) { if (*s == (char)c) return s; if (!*s) return 0; } }
static __device__ __forceinline__ int memcmp(const void* a, const void* b, size_t n)
{ const unsigned char* p = (const unsigned char*)a; const unsigned char* q = (const unsigned char*)b;
  for (; n; --n, ++p, ++q) if (*p != *q) return (int)*p - (int)*q; return 0; }
static __device__ __forceinline__ void* memmove(void* d, const void* s, size_t n)
{ unsigned char* p = (unsigned char*)d; const unsigned char* q = (const unsigned char*)s;
  if (p < q) { for (size_t i = 0; i < n; ++i) p[i] = q[i]; } else { while (n--) p[n] = q[n]; } return d; }
static __device__ __forceinline__ const void* memchr(const void* s, int c, size_t n)
{ const unsigned char* p = (const unsigned char*)s; for (; n; --n, ++p) if (*p == (unsigned char)c) return p; return 0; }
)";

const char* const kCstring = R"(#pragma once
#include <string.h>
namespace std {
using ::memcpy; using ::memset; using ::memcmp; using ::memmove; using ::memchr;
using ::strlen; using ::strcmp; using ::strncmp; using ::strcpy; using ::strncpy; using ::strcat; using ::strchr;
}
)";

// What nvcc's implicit `#include "cuda_runtime.h"` gives device code in every .cu file,
// checked against nvcc 13: the <math.h> macros and functions (std:: ones too), <limits.h>,
// <stdlib.h> and <string.h>; not <float.h>, <stdint.h>'s fixed-width types or assert.
const char* const kNvccEnvironment = R"(#pragma once
#include <cmath>
#include <climits>
#include <cstdlib>
#include <cstring>
// glibc's <sys/types.h>, which nvcc's <stdlib.h> brings on Linux.
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
)";

// What device code may use of a CUDA library's host header: under nvcc, <cublas_v2.h>
// brings cuComplex.h, cuda_fp16.h and cuda_bf16.h, and <cufft.h> its complex types. A
// host header that the filter leaves out is compiled as this part (HostCodeFilter).
// Each toolkit header only where this installation has it.
const char* const kCublasDevicePart = R"(#pragma once
#if __has_include(<cuComplex.h>)
#include <cuComplex.h>
#endif
#include <cuda_fp16.h>
#if __has_include(<cuda_bf16.h>)
#include <cuda_bf16.h>
#endif
)";
const char* const kCufftDevicePart = R"(#pragma once
#if __has_include(<cuComplex.h>)
#include <cuComplex.h>
typedef float cufftReal;
typedef double cufftDoubleReal;
typedef cuComplex cufftComplex;
typedef cuDoubleComplex cufftDoubleComplex;
#endif
)";
const char* const kHalfTypesDevicePart = R"(#pragma once
#include <cuda_fp16.h>
#if __has_include(<cuda_bf16.h>)
#include <cuda_bf16.h>
#endif
)";

std::vector<BuiltinHeaders::Header> makeAll()
{
    return {
        {"climits", kClimits},
        {"limits.h", kClimits},
        {"cfloat", kCfloat},
        {"float.h", kCfloat},
        {"stdint.h", kStdint},
        {"cstdint", kCstdint},
        {"cstddef", kCstddef},
        {"stddef.h", kCstddef},
        {"cstdio", kCstdio},
        {"stdio.h", kCstdio},
        {"cstdlib", kCstdlib},
        {"stdlib.h", kCstdlib},
        {"cassert", kAssert},
        {"assert.h", kAssert},
        {"math.h", kMath},
        {"cmath", kCmath},
        {"string.h", kString},
        {"cstring", kCstring},
        {BuiltinHeaders::kNvccEnvironment, kNvccEnvironment},
        {"kwb_device_part_cublas.h", kCublasDevicePart},
        {"kwb_device_part_cufft.h", kCufftDevicePart},
        {"kwb_device_part_half_types.h", kHalfTypesDevicePart},
    };
}

} // namespace

const std::vector<BuiltinHeaders::Header>& BuiltinHeaders::all()
{
    static const std::vector<Header> headers = makeAll();
    return headers;
}

bool BuiltinHeaders::has(const std::string& name)
{
    const auto& headers = all();
    return std::any_of(headers.begin(), headers.end(), [&](const Header& h) { return h.name == name; });
}

const std::string& BuiltinHeaders::fingerprint()
{
    static const std::string fp = [] {
        std::string s;
        for (const auto& h : all())
            s += h.name + '\n' + h.text + '\0';
        return s;
    }();
    return fp;
}

} // namespace kw
