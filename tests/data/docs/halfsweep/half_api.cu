// The device API of cuda_fp16.h and cuda_bf16.h, one kernel per family, each writing the
// bits of every result: run on the simulator and on a GPU, the outputs must be equal
// (tests/gpu/test_gpu_half_sweep.cpp). Bodies are __host__ __device__ so the headers'
// host emulation can be compared too.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstring>

__host__ __device__ void conv_bf16_body(int i, const float* in, unsigned short* out, float* back, int n) {
  if (i >= n) return;
  float x = in[i];
  __nv_bfloat16 a = __float2bfloat16(x);
  __nv_bfloat16 b = __float2bfloat16_rn(x);
  __nv_bfloat16 c = __float2bfloat16_rz(x);
  __nv_bfloat16 d = __float2bfloat16_rd(x);
  __nv_bfloat16 e = __float2bfloat16_ru(x);
  out[6*i+0] = __bfloat16_as_ushort(a);
  out[6*i+1] = __bfloat16_as_ushort(b);
  out[6*i+2] = __bfloat16_as_ushort(c);
  out[6*i+3] = __bfloat16_as_ushort(d);
  out[6*i+4] = __bfloat16_as_ushort(e);
  out[6*i+5] = __bfloat16_as_ushort(__double2bfloat16((double)x * 1.0000001));
  back[i] = __bfloat162float(b);
}

extern "C" __global__ void conv_bf16(const float* in, unsigned short* out, float* back, int n) { conv_bf16_body(blockIdx.x * blockDim.x + threadIdx.x, in, out, back, n); }

__host__ __device__ void conv_half_body(int i, const float* in, unsigned short* out, float* back, int n) {
  if (i >= n) return;
  float x = in[i];
  out[6*i+0] = __half_as_ushort(__float2half(x));
  out[6*i+1] = __half_as_ushort(__float2half_rn(x));
  out[6*i+2] = __half_as_ushort(__float2half_rz(x));
  out[6*i+3] = __half_as_ushort(__float2half_rd(x));
  out[6*i+4] = __half_as_ushort(__float2half_ru(x));
  out[6*i+5] = __half_as_ushort(__double2half((double)x * 1.0000001));
  back[i] = __half2float(__float2half_rn(x));
}

extern "C" __global__ void conv_half(const float* in, unsigned short* out, float* back, int n) { conv_half_body(blockIdx.x * blockDim.x + threadIdx.x, in, out, back, n); }

__host__ __device__ void conv_pairs_body(int i, const float* in, unsigned* out, int n) {
  if (i >= n) return;
  float x = in[i], y = in[(i+1)%n];
  __nv_bfloat162 b2 = __floats2bfloat162_rn(x, y);
  __nv_bfloat162 b3 = __float22bfloat162_rn(make_float2(y, x));
  half2 h2 = __floats2half2_rn(x, y);
  half2 h3 = __float22half2_rn(make_float2(y, x));
  __nv_bfloat162 b4 = __halves2bfloat162(__low2bfloat16(b2), __high2bfloat16(b3));
  float2 f = __bfloat1622float2(b4);
  float2 g = __half22float2(h3);
  out[8*i+0] = *(unsigned*)&b2;
  out[8*i+1] = *(unsigned*)&b3;
  out[8*i+2] = *(unsigned*)&h2;
  out[8*i+3] = *(unsigned*)&h3;
  { float t = f.x + f.y; memcpy(&out[8*i+4], &t, 4); }
  { float t = g.x - g.y; memcpy(&out[8*i+5], &t, 4); }
  __nv_bfloat162 b5 = __lowhigh2highlow(b4);
  out[8*i+6] = *(unsigned*)&b5;
  out[8*i+7] = __bfloat16_as_ushort(__int2bfloat16_rn(i*1000003)) | (__half_as_ushort(__int2half_rn(i*1000003)) << 16);
}

extern "C" __global__ void conv_pairs(const float* in, unsigned* out, int n) { conv_pairs_body(blockIdx.x * blockDim.x + threadIdx.x, in, out, n); }

__host__ __device__ void arith_bf16_body(int i, const unsigned short* a, const unsigned short* b, const unsigned short* c, unsigned short* out, int n) {
  if (i >= n) return;
  __nv_bfloat16 x = __ushort_as_bfloat16(a[i]), y = __ushort_as_bfloat16(b[i]), z = __ushort_as_bfloat16(c[i]);
  unsigned short* o = out + 16*i;
  o[0] = __bfloat16_as_ushort(__hadd(x, y));
  o[1] = __bfloat16_as_ushort(__hsub(x, y));
  o[2] = __bfloat16_as_ushort(__hmul(x, y));
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#ifdef __CUDA_ARCH__
  o[3] = __bfloat16_as_ushort(__hfma(x, y, z));
#endif
#endif
  o[4] = __bfloat16_as_ushort(__hmax(x, y));
  o[5] = __bfloat16_as_ushort(__hmin(x, y));
  o[6] = __bfloat16_as_ushort(__habs(x));
  o[7] = __bfloat16_as_ushort(__hneg(x));
  o[8] = __heq(x, y) | (__hlt(x, y) << 1) | (__hle(x,y) << 2) | (__hgt(x,y) << 3) | (__hge(x,y)<<4) | (__hne(x,y)<<5) | (__hisnan(x)<<6) | (__hequ(x,y)<<7) | (__hltu(x,y)<<8) | (__hisinf(x) << 9);
  o[9] = __bfloat16_as_ushort(__hdiv(x, y));
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#ifdef __CUDA_ARCH__
  o[10] = __bfloat16_as_ushort(__hfma_relu(x, y, z));
#endif
#endif
  o[11] = __bfloat16_as_ushort(__hmax_nan(x, y));
  o[12] = __bfloat16_as_ushort(__hmin_nan(x, y));
  o[13] = __bfloat16_as_ushort(__hadd_sat(x, y));
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#ifdef __CUDA_ARCH__
  o[14] = __bfloat16_as_ushort(__hfma_sat(x, y, z));
#endif
#endif
  o[15] = __bfloat16_as_ushort(__hmul_rn(x, y)) ^ __bfloat16_as_ushort(__hadd_rn(x, y));
}

extern "C" __global__ void arith_bf16(const unsigned short* a, const unsigned short* b, const unsigned short* c, unsigned short* out, int n) { arith_bf16_body(blockIdx.x * blockDim.x + threadIdx.x, a, b, c, out, n); }

__host__ __device__ void arith_bf162_body(int i, const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out, int n) {
  if (i >= n) return;
  __nv_bfloat162 x = *(const __nv_bfloat162*)&a[i], y = *(const __nv_bfloat162*)&b[i], z = *(const __nv_bfloat162*)&c[i];
  __nv_bfloat162 r[12];
  r[0] = __hadd2(x, y); r[1] = __hsub2(x, y); r[2] = __hmul2(x, y);
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#ifdef __CUDA_ARCH__
 r[3] = __hfma2(x, y, z);
#endif
#endif

  r[4] = __hmax2(x, y); r[5] = __hmin2(x, y); r[6] = __habs2(x); r[7] = __hneg2(x);
  r[8] = __heq2(x, y); r[9] = __hlt2(x, y);
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#ifdef __CUDA_ARCH__
 r[10] = __hfma2_relu(x, y, z);
#endif
#endif
 r[11] = __h2div(x, y);
  for (int k = 0; k < 12; ++k) out[16*i+k] = *(unsigned*)&r[k];
  out[16*i+12] = __hbeq2(x, y) | (__hblt2(x,y) << 1) | (__hbgt2(x,y) << 2);
  __nv_bfloat162 s = __hmax2_nan(x, y); out[16*i+13] = *(unsigned*)&s;
  s = __hadd2_sat(x, y); out[16*i+14] = *(unsigned*)&s;
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#ifdef __CUDA_ARCH__
  s = __hcmadd(x, y, z); out[16*i+15] = *(unsigned*)&s;
#endif
#endif
}

extern "C" __global__ void arith_bf162(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out, int n) { arith_bf162_body(blockIdx.x * blockDim.x + threadIdx.x, a, b, c, out, n); }

__host__ __device__ void arith_half_body(int i, const unsigned short* a, const unsigned short* b, const unsigned short* c, unsigned short* out, int n) {
  if (i >= n) return;
  __half x = __ushort_as_half(a[i]), y = __ushort_as_half(b[i]), z = __ushort_as_half(c[i]);
  unsigned short* o = out + 16*i;
  o[0] = __half_as_ushort(__hadd(x, y));
  o[1] = __half_as_ushort(__hsub(x, y));
  o[2] = __half_as_ushort(__hmul(x, y));
#ifdef __CUDA_ARCH__
  o[3] = __half_as_ushort(__hfma(x, y, z));
#endif
  o[4] = __half_as_ushort(__hmax(x, y));
  o[5] = __half_as_ushort(__hmin(x, y));
  o[6] = __half_as_ushort(__habs(x));
  o[7] = __half_as_ushort(__hneg(x));
  o[8] = __heq(x, y) | (__hlt(x, y) << 1) | (__hle(x,y) << 2) | (__hgt(x,y) << 3) | (__hge(x,y)<<4) | (__hne(x,y)<<5) | (__hisnan(x)<<6) | (__hequ(x,y)<<7) | (__hltu(x,y)<<8) | (__hisinf(x) << 9);
  o[9] = __half_as_ushort(__hdiv(x, y));
#ifdef __CUDA_ARCH__
  o[10] = __half_as_ushort(__hfma_relu(x, y, z));
#endif
  o[11] = __half_as_ushort(__hmax_nan(x, y));
  o[12] = __half_as_ushort(__hmin_nan(x, y));
  o[13] = __half_as_ushort(__hadd_sat(x, y));
#ifdef __CUDA_ARCH__
  o[14] = __half_as_ushort(__hfma_sat(x, y, z));
#endif
  o[15] = __half_as_ushort(__hmul_rn(x, y)) ^ __half_as_ushort(__hadd_rn(x, y));
}

extern "C" __global__ void arith_half(const unsigned short* a, const unsigned short* b, const unsigned short* c, unsigned short* out, int n) { arith_half_body(blockIdx.x * blockDim.x + threadIdx.x, a, b, c, out, n); }

__host__ __device__ void arith_half2_body(int i, const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out, int n) {
  if (i >= n) return;
  half2 x = *(const half2*)&a[i], y = *(const half2*)&b[i], z = *(const half2*)&c[i];
  half2 r[12];
  r[0] = __hadd2(x, y); r[1] = __hsub2(x, y); r[2] = __hmul2(x, y);
#ifdef __CUDA_ARCH__
 r[3] = __hfma2(x, y, z);
#endif
  r[4] = __hmax2(x, y); r[5] = __hmin2(x, y); r[6] = __habs2(x); r[7] = __hneg2(x);
  r[8] = __heq2(x, y); r[9] = __hlt2(x, y); r[11] = __h2div(x, y);
#ifdef __CUDA_ARCH__
 r[10] = __hfma2_relu(x, y, z);
#endif
  for (int k = 0; k < 12; ++k) out[16*i+k] = *(unsigned*)&r[k];
  out[16*i+12] = __hbeq2(x, y) | (__hblt2(x,y) << 1) | (__hbgt2(x,y) << 2);
  half2 s = __hmax2_nan(x, y); out[16*i+13] = *(unsigned*)&s;
  s = __hadd2_sat(x, y); out[16*i+14] = *(unsigned*)&s;
#ifdef __CUDA_ARCH__
  s = __hcmadd(x, y, z); out[16*i+15] = *(unsigned*)&s;
#endif
}

extern "C" __global__ void arith_half2(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out, int n) { arith_half2_body(blockIdx.x * blockDim.x + threadIdx.x, a, b, c, out, n); }

extern "C" __global__ void math_fns(const unsigned short* a, unsigned short* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = __ushort_as_half(a[i]);
  __nv_bfloat16 y = __ushort_as_bfloat16(a[i]);
  unsigned short* o = out + 16*i;
  o[0] = __half_as_ushort(hexp(x)); o[1] = __half_as_ushort(hsqrt(x)); o[2] = __half_as_ushort(hrsqrt(x));
  o[3] = __half_as_ushort(hrcp(x)); o[4] = __half_as_ushort(hlog(x)); o[5] = __half_as_ushort(hsin(x));
  o[6] = __half_as_ushort(htanh_approx(x)); o[7] = __half_as_ushort(hfloor(x));
  o[8] = __bfloat16_as_ushort(hexp(y)); o[9] = __bfloat16_as_ushort(hsqrt(y)); o[10] = __bfloat16_as_ushort(hrcp(y));
  o[11] = __bfloat16_as_ushort(hlog2(y)); o[12] = __bfloat16_as_ushort(hcos(y)); o[13] = __bfloat16_as_ushort(htrunc(y));
  o[14] = __bfloat16_as_ushort(hceil(y)); o[15] = __bfloat16_as_ushort(hrint(y));
}

extern "C" __global__ void atomics(__half2* h2, __nv_bfloat162* b2, __half* h, __nv_bfloat16* b, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  atomicAdd(h2, __floats2half2_rn(x, -x * 0.5f));
  atomicAdd(b2, __floats2bfloat162_rn(x, -x * 0.5f));
  atomicAdd(h, __float2half(x));
  atomicAdd(b, __float2bfloat16(x));
}

extern "C" __global__ void shuffles(const unsigned* in, unsigned* out) {
  int i = threadIdx.x;
  half2 h = *(const half2*)&in[i];
  __nv_bfloat162 b = *(const __nv_bfloat162*)&in[i];
  __half hh = __low2half(h);
  __nv_bfloat16 bb = __high2bfloat16(b);
  half2 r0 = __shfl_sync(0xffffffff, h, (i + 3) & 31);
  __nv_bfloat162 r1 = __shfl_xor_sync(0xffffffff, b, 5);
  __half r2 = __shfl_down_sync(0xffffffff, hh, 2);
  __nv_bfloat16 r3 = __shfl_up_sync(0xffffffff, bb, 1);
  out[4*i+0] = *(unsigned*)&r0; out[4*i+1] = *(unsigned*)&r1;
  out[4*i+2] = __half_as_ushort(r2); out[4*i+3] = __bfloat16_as_ushort(r3);
}

__host__ __device__ void int_convs_body(int i, const float* in, int* out, int n) {
  if (i >= n) return;
  __half x = __float2half(in[i]);
  __nv_bfloat16 y = __float2bfloat16(in[i]);
#ifdef __CUDA_ARCH__
  out[16*i+0] = __half2int_rn(x); out[16*i+1] = __half2int_rz(x); out[16*i+2] = __half2int_rd(x); out[16*i+3] = __half2int_ru(x);
#endif
#ifdef __CUDA_ARCH__
  out[16*i+4] = __bfloat162int_rn(y); out[16*i+5] = __bfloat162int_rz(y); out[16*i+6] = __bfloat162int_rd(y); out[16*i+7] = __bfloat162int_ru(y);
#endif
#ifdef __CUDA_ARCH__
  out[16*i+8] = __half_as_ushort(__int2half_rz(i*7777777)); out[16*i+9] = __bfloat16_as_ushort(__int2bfloat16_rd(i*7777777));
#endif
#ifdef __CUDA_ARCH__
  out[16*i+10] = __bfloat16_as_ushort(__uint2bfloat16_ru(i*7777777u)); out[16*i+11] = __half_as_ushort(__ll2half_rn(i*77777777777ll));
#endif
#ifdef __CUDA_ARCH__
  out[16*i+12] = __bfloat16_as_ushort(__ll2bfloat16_rz(i*77777777777ll)); out[16*i+13] = __half2short_rn(x);
#endif
#ifdef __CUDA_ARCH__
  out[16*i+14] = __bfloat162short_rz(y); out[16*i+15] = __half2uint_ru(x) + __bfloat162uint_rd(y);
#endif
}
extern "C" __global__ void int_convs(const float* in, int* out, int n) { int_convs_body(blockIdx.x * blockDim.x + threadIdx.x, in, out, n); }

