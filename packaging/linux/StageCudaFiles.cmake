# The CUDA files the packages carry, chosen once here and copied into the build
# tree's packaging stage (tests compile against the same selection).
#
# NVIDIA's CUDA EULA, Attachment A, lists what may be redistributed. Of what a
# kernel compiled with NVRTC uses, that is:
#   "NVIDIA Runtime Compilation Library and Header": libnvrtc.so, libnvrtc-builtins.so
#   "CUDA Half Precision Headers": cuda_fp16.h, cuda_fp16.hpp
# (nvrtc.h and cuda_occupancy.h are listed too but are host headers nothing needs
# at run time.) cuda_bf16.h, cuda_fp8.h, cooperative_groups.h, curand_kernel.h
# and the other toolkit headers are not listed; the compiler's note names what to
# install for them (core/compile/UnbundledHeaderNote.cpp).
#
# From CCCL (open source), the libcu++ headers cuda/ and nv/ (<cuda/std/...>,
# Apache-2.0 WITH LLVM-exception), less four files under NVIDIA's own licence.
# CUB and Thrust are left out: their files mix BSD-3-Clause, Apache-2.0 and
# Boost licences, and kernels compiled with NVRTC rarely use them.
#
# All of it goes in NVIDIA's folder, lib/kernel-workbench/nvidia (the package
# kernel-workbench-nvrtc): NVRTC and its builtins, the headers under include/.
#
# In: CUDA_INCLUDE, CUDA_LIBDIR, STAGE. Sets KW_STAGED_NVRTC (file names) in the caller.

set(stage_lib ${STAGE}/lib/kernel-workbench/nvidia)
set(stage_include ${stage_lib}/include)
file(MAKE_DIRECTORY ${stage_include} ${stage_lib})

set(KW_STAGED_NVRTC "")
set(nvrtc ${CUDA_LIBDIR}/libnvrtc.so.13)
file(GLOB builtins ${CUDA_LIBDIR}/libnvrtc-builtins.so.13.[0-9]*)
if(EXISTS ${nvrtc} AND builtins)
  foreach(lib ${nvrtc} ${builtins})
    # Copied as the loader will name them, unmodified (EULA 2.3).
    get_filename_component(name ${lib} NAME)
    file(REAL_PATH ${lib} real)
    file(COPY_FILE ${real} ${stage_lib}/${name} ONLY_IF_DIFFERENT)
    list(APPEND KW_STAGED_NVRTC ${name})
  endforeach()
else()
  message(WARNING "NVRTC 13 (libnvrtc.so.13, libnvrtc-builtins.so.13.*) not found in ${CUDA_LIBDIR}: "
                  "the packages will not carry a compiler")
endif()

foreach(h cuda_fp16.h cuda_fp16.hpp)
  if(EXISTS ${CUDA_INCLUDE}/${h})
    file(COPY_FILE ${CUDA_INCLUDE}/${h} ${stage_include}/${h} ONLY_IF_DIFFERENT)
  else()
    message(WARNING "${CUDA_INCLUDE}/${h} not found: the packages will not carry it")
  endif()
endforeach()

if(IS_DIRECTORY ${CUDA_INCLUDE}/cccl/cuda)
  file(COPY ${CUDA_INCLUDE}/cccl/cuda ${CUDA_INCLUDE}/cccl/nv DESTINATION ${stage_include}/cccl
    REGEX "/cccl/cuda/(annotated_ptr|pipeline|std/detail/__access_property|std/detail/__annotated_ptr)$" EXCLUDE)
else()
  message(WARNING "${CUDA_INCLUDE}/cccl/cuda not found (CUDA 13 layout): the packages will not carry <cuda/std/...>")
endif()
