# Linux: what the .deb and the portable archive carry besides the programs.
#
# Two components, two Debian packages (packaging/CMakeLists.txt):
#   workbench -> kernel-workbench        the programs, samples, docs, desktop files
#   nvrtc     -> kernel-workbench-nvrtc  NVIDIA's files, in a folder of their own
# Layout (relative to the prefix, /usr for the .deb, the unpacked folder for the archive):
#   bin/                                   kernel-workbench, kwb-run
#   lib/kernel-workbench/                  (the archive: every other library the programs need)
#   lib/kernel-workbench/nvidia/           NVRTC, its builtins, include/ (cuda_fp16.h(pp),
#                                          cccl/{cuda,nv})                        [nvrtc]
#   share/kernel-workbench/samples/        sample documents (read-only in the workbench)
#   share/doc/kernel-workbench/            copyright, LICENSE, changelog
#   share/doc/kernel-workbench-nvrtc/      copyright, NVIDIA's EULA, changelog     [nvrtc]
# lib/kernel-workbench is spelled out rather than taken from GNUInstallDirs: the
# programs look for NVIDIA's folder as <exe dir>/../lib/kernel-workbench/nvidia
# (core/compile/NvrtcSearchOrder).

set(KW_PRIVATE_LIBDIR lib/kernel-workbench)
set(KW_NVIDIA_DIR ${KW_PRIVATE_LIBDIR}/nvidia)
set(KW_DOCDIR ${CMAKE_INSTALL_DATADIR}/doc/kernel-workbench)
set(KW_NVRTC_DOCDIR ${CMAKE_INSTALL_DATADIR}/doc/kernel-workbench-nvrtc)
set(KW_PACKAGING_STAGE ${CMAKE_BINARY_DIR}/packaging-stage CACHE INTERNAL
    "NVRTC and the CUDA headers as the packages carry them")

option(KW_BUNDLE_NVRTC "Install NVRTC and the redistributable CUDA headers with the programs" ON)

get_filename_component(kw_cuda_root "${CUDAToolkit_BIN_DIR}/.." ABSOLUTE)
list(GET CUDAToolkit_INCLUDE_DIRS 0 kw_cuda_include)
if(KW_BUNDLE_NVRTC)
  set(CUDA_INCLUDE ${kw_cuda_include})
  set(CUDA_LIBDIR ${CUDAToolkit_LIBRARY_DIR})
  set(STAGE ${KW_PACKAGING_STAGE})
  include(${CMAKE_CURRENT_LIST_DIR}/StageCudaFiles.cmake)
  if(KW_STAGED_NVRTC)
    set(KW_NVRTC_COMPONENT ON)
  endif()
  set(kw_nvrtc_files "")
  foreach(name ${KW_STAGED_NVRTC})
    install(FILES ${KW_PACKAGING_STAGE}/${KW_NVIDIA_DIR}/${name} DESTINATION ${KW_NVIDIA_DIR} COMPONENT nvrtc)
    if(kw_nvrtc_files)
      string(APPEND kw_nvrtc_files "\n      ")
    endif()
    string(APPEND kw_nvrtc_files " ${KW_NVIDIA_DIR}/${name}")
  endforeach()
  install(DIRECTORY ${KW_PACKAGING_STAGE}/${KW_NVIDIA_DIR}/include DESTINATION ${KW_NVIDIA_DIR} COMPONENT nvrtc)

  # NVIDIA's licence, from wherever this toolkit keeps it.
  file(GLOB kw_eula ${kw_cuda_root}/EULA.txt ${kw_cuda_root}/doc/EULA.txt
       ${kw_cuda_root}/dist-info/nvidia_cuda_nvrtc*/licenses/License.txt)
  if(kw_eula)
    list(GET kw_eula 0 kw_eula)
    install(FILES ${kw_eula} DESTINATION ${KW_NVRTC_DOCDIR} RENAME NVIDIA-CUDA-EULA.txt COMPONENT nvrtc)
  else()
    message(WARNING "The CUDA EULA was not found under ${kw_cuda_root}; the packages must carry it with NVRTC")
  endif()
  set(KW_NVRTC_FILES "${kw_nvrtc_files}")
  configure_file(${CMAKE_CURRENT_LIST_DIR}/copyright-nvrtc.in ${CMAKE_CURRENT_BINARY_DIR}/copyright-nvrtc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/copyright-nvrtc DESTINATION ${KW_NVRTC_DOCDIR} RENAME copyright
          COMPONENT nvrtc)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/changelog.Debian.gz DESTINATION ${KW_NVRTC_DOCDIR} COMPONENT nvrtc)
endif()

# The programs' copyright file, and the licence in full.
configure_file(${CMAKE_CURRENT_LIST_DIR}/copyright.in ${CMAKE_CURRENT_BINARY_DIR}/copyright @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/copyright DESTINATION ${KW_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${KW_DOCDIR})

# Manual pages and the Debian changelog, compressed as Debian wants them.
set(kw_gz_outputs "")
foreach(src linux/kwb-run.1 linux/kernel-workbench.1 linux/changelog)
  get_filename_component(name ${src} NAME)
  if(name STREQUAL "changelog")
    set(out ${CMAKE_CURRENT_BINARY_DIR}/changelog.Debian.gz)
  else()
    set(out ${CMAKE_CURRENT_BINARY_DIR}/${name}.gz)
  endif()
  add_custom_command(OUTPUT ${out}
    COMMAND gzip -9nc ${CMAKE_CURRENT_SOURCE_DIR}/${src} > ${out}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${src}
    COMMENT "Compressing ${name}")
  list(APPEND kw_gz_outputs ${out})
endforeach()
add_custom_target(kw_linux_docs ALL DEPENDS ${kw_gz_outputs})
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/kwb-run.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/changelog.Debian.gz DESTINATION ${KW_DOCDIR})

if(KW_BUILD_GUI)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/kernel-workbench.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES linux/kernel-workbench.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo
    RENAME io.github.kernel_workbench.KernelWorkbench.metainfo.xml)
  foreach(size 16 22 24 32 48 64 128 256)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/hicolor/${size}x${size}/kernel-workbench.png
      DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps)
  endforeach()

  # The portable archive: an install into a folder of its own, then every library
  # the programs and Qt's plugins load that a base system lacks, with RUNPATHs
  # relative to $ORIGIN (linux/BundleLibraries.cmake).
  set(kw_portable_name kernel-workbench-${PROJECT_VERSION}-linux-x86_64)
  set(kw_portable_root ${CMAKE_BINARY_DIR}/portable)
  find_program(KW_PATCHELF patchelf)
  add_custom_target(portable-archive
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${kw_portable_root}/${kw_portable_name}
    COMMAND ${CMAKE_COMMAND} --install ${CMAKE_BINARY_DIR} --prefix ${kw_portable_root}/${kw_portable_name} --strip
    COMMAND ${CMAKE_COMMAND} -DROOT=${kw_portable_root}/${kw_portable_name} -DPATCHELF=${KW_PATCHELF}
            -DQT_PLUGINS=${QT6_INSTALL_PREFIX}/${QT6_INSTALL_PLUGINS}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/linux/BundleLibraries.cmake
    COMMAND ${CMAKE_COMMAND} -E chdir ${kw_portable_root}
            tar --sort=name --owner=0 --group=0 --numeric-owner -czf ${CMAKE_BINARY_DIR}/${kw_portable_name}.tar.gz ${kw_portable_name}
    COMMAND ${CMAKE_COMMAND} -E echo "portable archive: ${CMAKE_BINARY_DIR}/${kw_portable_name}.tar.gz"
    DEPENDS kernel-workbench kwb-run kw_linux_docs kw_samples
    COMMENT "Building ${kw_portable_name}.tar.gz"
    VERBATIM)
endif()
