#include "CudaLexer.hpp"

#include <QColor>
#include <QFont>

namespace kw {

CudaLexer::CudaLexer(QObject* parent)
    : QsciLexerCPP(parent)
{
    setFoldCompact(false);
    setFoldComments(true);
    setColor(QColor("#7a1fa2"), KeywordSet2);
    QFont bold = defaultFont(KeywordSet2);
    bold.setBold(true);
    setFont(bold, KeywordSet2);
}

const char* CudaLexer::keywords(int set) const
{
    if (set == 1)
        return "alignas alignof and asm auto bool break case catch char char16_t char32_t "
               "class const constexpr const_cast continue decltype default delete do double "
               "dynamic_cast else enum explicit extern false float for friend goto if inline "
               "int long mutable namespace new noexcept not nullptr operator or private "
               "protected public register reinterpret_cast return short signed sizeof static "
               "static_assert static_cast struct switch template this throw true try typedef "
               "typeid typename union unsigned using virtual void volatile wchar_t while "
               "__global__ __device__ __host__ __shared__ __constant__ __managed__ "
               "__restrict__ __noinline__ __forceinline__ __launch_bounds__ __grid_constant__";
    if (set == 2)
        return "threadIdx blockIdx blockDim gridDim warpSize dim3 "
               "__syncthreads __syncthreads_count __syncthreads_and __syncthreads_or __syncwarp "
               "__threadfence __threadfence_block __threadfence_system __activemask "
               "__ballot_sync __all_sync __any_sync __uni_sync __shfl_sync __shfl_up_sync "
               "__shfl_down_sync __shfl_xor_sync __match_any_sync __match_all_sync "
               "__reduce_add_sync __reduce_min_sync __reduce_max_sync __ldg __popc __popcll "
               "__clz __ffs __brev __byte_perm __mul24 __umul24 __mulhi __fdividef __expf "
               "__logf __sinf __cosf __powf __saturatef __fmaf_rn __float2int_rn "
               "__int2float_rn __float2half __half2float __hadd __hmul __half __half2 "
               "__nv_bfloat16 atomicAdd atomicSub atomicExch atomicMin atomicMax atomicInc "
               "atomicDec atomicCAS atomicAnd atomicOr atomicXor printf assert __trap clock "
               "clock64 float2 float3 float4 int2 int3 int4 uint2 uint3 uint4 size_t "
               "int8_t uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t";
    return QsciLexerCPP::keywords(set);
}

} // namespace kw
