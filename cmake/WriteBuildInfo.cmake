# Writes the header with the version and git revision of the source tree; run
# at every build, it rewrites the file only when the revision changed, so only
# the one file that includes it is recompiled.
#   cmake -DSOURCE_DIR=... -DOUTPUT=... -DVERSION=... -P WriteBuildInfo.cmake
set(revision unknown)
find_program(GIT_EXECUTABLE git)
if(GIT_EXECUTABLE)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} describe --always --dirty --abbrev=12
    OUTPUT_VARIABLE out RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0 AND out)
    set(revision ${out})
  endif()
endif()
set(text "#pragma once\n#define KW_BUILD_VERSION \"${VERSION}\"\n#define KW_BUILD_GIT_REVISION \"${revision}\"\n")
set(old "")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUTPUT} "${text}")
endif()
