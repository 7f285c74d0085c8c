# Makes an installed tree portable: copies in every library the programs and the
# Qt plugins they load need that a base Debian system (debootstrap --variant=minbase)
# does not have, sets RUNPATHs relative to $ORIGIN, and adds each bundled library's
# Debian copyright file.
#   cmake -DROOT=<installed tree> -DPATCHELF=<patchelf> -DQT_PLUGINS=<Qt's plugin folder> -P BundleLibraries.cmake
if(NOT PATCHELF)
  message(FATAL_ERROR "patchelf is needed for the portable archive (Debian package patchelf)")
endif()

set(libdir ${ROOT}/lib/kernel-workbench)
set(plugdir ${libdir}/plugins)
set(docdir ${ROOT}/share/doc/kernel-workbench)
set(copyright "")
set(exes ${ROOT}/bin/kernel-workbench ${ROOT}/bin/kwb-run)

# The plugins a desktop session uses: X11 (xcb, with its GL integrations),
# offscreen and minimal for scripts, SVG icons and images, compose and IBus input.
set(plugins
  platforms/libqxcb.so platforms/libqoffscreen.so platforms/libqminimal.so
  xcbglintegrations/libqxcb-glx-integration.so xcbglintegrations/libqxcb-egl-integration.so
  iconengines/libqsvgicon.so
  imageformats/libqsvg.so imageformats/libqgif.so imageformats/libqico.so imageformats/libqjpeg.so
  platforminputcontexts/libcomposeplatforminputcontextplugin.so
  platforminputcontexts/libibusplatforminputcontextplugin.so)
set(modules "")
foreach(p ${plugins})
  if(EXISTS ${QT_PLUGINS}/${p})
    get_filename_component(sub ${p} DIRECTORY)
    file(COPY ${QT_PLUGINS}/${p} DESTINATION ${plugdir}/${sub})
    list(APPEND modules ${plugdir}/${p})
  else()
    message(WARNING "Qt plugin ${QT_PLUGINS}/${p} not found; not bundled")
  endif()
endforeach()

# In every Debian system (Priority: required, in a minbase root): the C library
# and its loader, the C++ runtime, zlib. Everything else is bundled.
file(GET_RUNTIME_DEPENDENCIES
  EXECUTABLES ${exes}
  MODULES ${modules}
  RESOLVED_DEPENDENCIES_VAR deps
  UNRESOLVED_DEPENDENCIES_VAR missing
  PRE_EXCLUDE_REGEXES
    "^ld-linux" "^libc\\.so" "^libm\\.so" "^libdl\\.so" "^libpthread\\.so" "^librt\\.so"
    "^libresolv\\.so" "^libutil\\.so" "^libstdc\\+\\+\\.so" "^libgcc_s\\.so" "^libz\\.so"
  POST_EXCLUDE_REGEXES "^${libdir}/")
if(missing)
  message(FATAL_ERROR "libraries not found: ${missing}")
endif()

string(CONCAT manifest "Libraries bundled from Debian, with the package each comes from.\n"
       "Each package's copyright file is in third-party/<package>.copyright.\n\n")
file(MAKE_DIRECTORY ${docdir}/third-party)
list(SORT deps)
foreach(dep ${deps})
  get_filename_component(name ${dep} NAME)
  file(REAL_PATH ${dep} real)
  file(COPY_FILE ${real} ${libdir}/${name})
  file(CHMOD ${libdir}/${name} PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  execute_process(COMMAND ${PATCHELF} --set-rpath "$ORIGIN" ${libdir}/${name} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "patchelf failed on ${name}")
  endif()
  execute_process(COMMAND dpkg-query -S "*/${name}" OUTPUT_VARIABLE owner OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  string(REGEX REPLACE ":.*" "" pkg "${owner}")
  string(REGEX REPLACE ":amd64$" "" pkg "${pkg}")
  set(version "")
  if(pkg)
    execute_process(COMMAND dpkg-query -W -f=\${Version} ${pkg} OUTPUT_VARIABLE version ERROR_QUIET)
    if(EXISTS /usr/share/doc/${pkg}/copyright)
      file(COPY_FILE /usr/share/doc/${pkg}/copyright ${docdir}/third-party/${pkg}.copyright)
    endif()
  else()
    set(pkg "(not from a Debian package)")
  endif()
  string(APPEND manifest "lib/kernel-workbench/${name}  ${pkg} ${version}\n")
  string(APPEND copyright "\nFiles: lib/kernel-workbench/${name}\n"
         "Copyright: see share/doc/kernel-workbench/third-party/${pkg}.copyright\n"
         "License: LicenseRef-Debian-${pkg}\n"
         " The terms of Debian's package ${pkg} ${version}, in\n"
         " share/doc/kernel-workbench/third-party/${pkg}.copyright.\n")
endforeach()
file(WRITE ${docdir}/BUNDLED-LIBRARIES.txt "${manifest}")
# libcu++ (Apache-2.0 WITH LLVM-exception) is in NVIDIA's folder; its licence text
# goes with NVIDIA's other licences.
if(EXISTS /usr/share/common-licenses/Apache-2.0 AND IS_DIRECTORY ${ROOT}/share/doc/kernel-workbench-nvrtc)
  file(COPY_FILE /usr/share/common-licenses/Apache-2.0 ${ROOT}/share/doc/kernel-workbench-nvrtc/Apache-2.0.txt)
endif()

foreach(p ${modules})
  execute_process(COMMAND ${PATCHELF} --set-rpath "$ORIGIN/../.." ${p} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "patchelf failed on ${p}")
  endif()
endforeach()
foreach(exe ${exes})
  execute_process(COMMAND ${PATCHELF} --set-rpath "$ORIGIN/../lib/kernel-workbench" ${exe} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "patchelf failed on ${exe}")
  endif()
endforeach()

# Fonts for a system that has none (a minimal root, a container): the workbench
# points fontconfig at this configuration only when the system has no
# /etc/fonts/fonts.conf (app/workbench_main.cpp); it reads the system's font
# folders first, then these.
set(fontdir ${ROOT}/share/kernel-workbench/fonts)
set(fonts DejaVuSans.ttf DejaVuSans-Bold.ttf DejaVuSans-Oblique.ttf DejaVuSansMono.ttf DejaVuSansMono-Bold.ttf)
file(MAKE_DIRECTORY ${fontdir})
foreach(f ${fonts})
  if(EXISTS /usr/share/fonts/truetype/dejavu/${f})
    file(COPY_FILE /usr/share/fonts/truetype/dejavu/${f} ${fontdir}/${f})
  else()
    message(WARNING "/usr/share/fonts/truetype/dejavu/${f} not found (Debian package fonts-dejavu-core); not bundled")
  endif()
endforeach()
if(EXISTS /usr/share/doc/fonts-dejavu-core/copyright)
  file(COPY_FILE /usr/share/doc/fonts-dejavu-core/copyright ${docdir}/third-party/fonts-dejavu-core.copyright)
  string(APPEND manifest "share/kernel-workbench/fonts/DejaVu*.ttf  fonts-dejavu-core\n")
  file(WRITE ${docdir}/BUNDLED-LIBRARIES.txt "${manifest}")
endif()
file(WRITE ${fontdir}/fonts.conf [=[<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>/usr/share/fonts</dir>
  <dir>/usr/local/share/fonts</dir>
  <dir prefix="xdg">fonts</dir>
  <dir prefix="relative">.</dir>
  <cachedir prefix="xdg">fontconfig</cachedir>
</fontconfig>
]=])

# The archive's copyright file lists the bundled libraries and fonts too.
string(APPEND copyright "\nFiles: share/kernel-workbench/fonts/*.ttf\n"
       "Copyright: see share/doc/kernel-workbench/third-party/fonts-dejavu-core.copyright\n"
       "License: LicenseRef-Debian-fonts-dejavu-core\n"
       " The terms of Debian's package fonts-dejavu-core, in\n"
       " share/doc/kernel-workbench/third-party/fonts-dejavu-core.copyright.\n")
file(APPEND ${docdir}/copyright "${copyright}")

# Qt reads qt.conf beside the executable: the plugins are in the private folder.
file(WRITE ${ROOT}/bin/qt.conf "[Paths]\nPrefix = ..\nPlugins = lib/kernel-workbench/plugins\n")
list(LENGTH deps n)
list(LENGTH modules m)
message(STATUS "bundled ${n} libraries and ${m} Qt plugins")
