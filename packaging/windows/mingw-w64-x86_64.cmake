# Cross-compiles kwcore, kwb-run, the core and simulator tests and (with a Qt built
# for MinGW) the window for 64-bit Windows with Debian's MinGW-w64
# (g++-mingw-w64-x86-64-posix: the posix thread model, which std::thread needs). Dependencies come from KW_MINGW_PREFIX, which
# packaging/windows/deps.sh fills. Test executables run under Wine.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(KW_MINGW_TRIPLET x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${KW_MINGW_TRIPLET}-gcc-posix)
set(CMAKE_CXX_COMPILER ${KW_MINGW_TRIPLET}-g++-posix)
set(CMAKE_RC_COMPILER ${KW_MINGW_TRIPLET}-windres)
set(CMAKE_OBJDUMP ${KW_MINGW_TRIPLET}-objdump)

if(NOT KW_MINGW_PREFIX)
  set(KW_MINGW_PREFIX "$ENV{KW_MINGW_PREFIX}")
endif()
if(NOT KW_MINGW_PREFIX)
  message(FATAL_ERROR "Set KW_MINGW_PREFIX to the folder packaging/windows/deps.sh filled")
endif()
# A list is allowed: build.sh names the dependencies' prefix and, for the window, the
# Qt for MinGW that build-qt.sh built.
# try_compile projects see the toolchain file again; hand them the prefix.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES KW_MINGW_PREFIX)

set(CMAKE_FIND_ROOT_PATH /usr/${KW_MINGW_TRIPLET} ${KW_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The C++ and thread runtimes go into each executable, so the programs run from any
# folder (and under Wine) with no MinGW DLLs beside them.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")

# gtest_discover_tests and add_test run the .exe files through Wine.
find_program(KW_WINE NAMES wine wine64)
if(KW_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${KW_WINE})
endif()
# Under Wine, drive Z: is the Linux root: the tests find their data there.
set(KW_TEST_PATH_PREFIX "Z:" CACHE STRING "")

# Types only (cuda.h, nvrtc.h): NVRTC and the driver are loaded at run time, so the
# build machine's toolkit headers serve; nothing of it is linked.
set(KW_CUDA_HEADERS_DIR /usr/local/cuda/include CACHE PATH "CUDA Toolkit include folder (headers only)")
