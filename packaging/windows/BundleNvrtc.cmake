# Windows: NVRTC (nvrtc64_*.dll) and its builtins (nvrtc-builtins64_*.dll) go in the
# installer's NVIDIA folder, nvidia\ beside bin\ (the component "nvrtc", which can be
# left out), with the half-precision headers in nvidia\include and NVIDIA's licence;
# the programs look there right after their own folder (core/compile/WindowsNvrtcSearch).
# Both DLLs are on the CUDA Toolkit's list of redistributable files (EULA, Attachment A). They come from KW_NVRTC_DLL_DIR, by
# default the toolkit's bin folder (bin\x64 in CUDA 13, bin before). A cross build
# from Linux has no Windows toolkit: its installer carries no NVRTC, and says so.
set(kw_nvrtc_dirs "")
if(CUDAToolkit_BIN_DIR)
  list(APPEND kw_nvrtc_dirs "${CUDAToolkit_BIN_DIR}/x64" "${CUDAToolkit_BIN_DIR}")
endif()
set(KW_NVRTC_DLL_DIR "" CACHE PATH "Folder with nvrtc64_*.dll and nvrtc-builtins64_*.dll to bundle")
if(KW_NVRTC_DLL_DIR)
  set(kw_nvrtc_dirs "${KW_NVRTC_DLL_DIR}")
endif()

set(kw_nvrtc_dlls "")
foreach(dir IN LISTS kw_nvrtc_dirs)
  file(GLOB kw_nvrtc_main "${dir}/nvrtc64_*.dll")
  file(GLOB kw_nvrtc_builtins "${dir}/nvrtc-builtins64_*.dll")
  if(kw_nvrtc_main AND kw_nvrtc_builtins)
    set(kw_nvrtc_dlls ${kw_nvrtc_main} ${kw_nvrtc_builtins})
    break()
  endif()
endforeach()

if(kw_nvrtc_dlls)
  message(STATUS "Windows installer bundles NVRTC: ${kw_nvrtc_dlls}")
  install(FILES ${kw_nvrtc_dlls} DESTINATION nvidia COMPONENT nvrtc)
  list(GET CUDAToolkit_INCLUDE_DIRS 0 kw_cuda_include)
  foreach(h cuda_fp16.h cuda_fp16.hpp)
    if(EXISTS "${kw_cuda_include}/${h}")
      install(FILES "${kw_cuda_include}/${h}" DESTINATION nvidia/include COMPONENT nvrtc)
    endif()
  endforeach()
  file(GLOB kw_eula "${CUDAToolkit_BIN_DIR}/../EULA.txt")
  if(kw_eula)
    install(FILES ${kw_eula} DESTINATION nvidia RENAME NVIDIA-CUDA-EULA.txt COMPONENT nvrtc)
  endif()
  set(KW_NVRTC_COMPONENT ON)
  # Beside the built programs too, so the build tree compiles like the installed one.
  file(COPY ${kw_nvrtc_dlls} DESTINATION ${CMAKE_RUNTIME_OUTPUT_DIRECTORY})
elseif(KW_NVRTC_DLL_DIR)
  message(FATAL_ERROR "KW_NVRTC_DLL_DIR=${KW_NVRTC_DLL_DIR} has no nvrtc64_*.dll and nvrtc-builtins64_*.dll")
else()
  message(STATUS "Windows installer without NVRTC: no nvrtc64_*.dll found (set KW_NVRTC_DLL_DIR)")
endif()
