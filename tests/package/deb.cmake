# package.deb (see CMakeLists.txt):
#   cmake -DSOURCE=... -DBUILD=... -DSUBMISSION=... -DWORK=... -DCPACK=... -P deb.cmake
include(${CMAKE_CURRENT_LIST_DIR}/helpers.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
find_program(DPKG_DEB dpkg-deb)
find_program(DPKG_SHLIBDEPS dpkg-shlibdeps)
if(NOT DPKG_DEB OR NOT DPKG_SHLIBDEPS)
  message("package.deb skipped: CPack's .deb needs dpkg-deb and dpkg-shlibdeps (apt-get install dpkg-dev)")
  return()
endif()

make_deb("${BUILD}" "${WORK}" "${CPACK}" deb)

run(${DPKG_DEB} -c "${deb}")
set(listing "${out}")
foreach(file "./usr/bin/clgrade -> ../lib/clgrade/clgrade" ./usr/lib/clgrade/clgrade ./usr/share/clgrade/rubrics/four_tasks.xml
             ./usr/share/clgrade/rubrics/gpu/four_tasks_speed.xml ./usr/share/clgrade/reference/kernels/histogram.cl
             ./usr/share/clgrade/reference/naive/histogram.cl ./usr/share/clgrade/kernels_template/histogram.cl
             ./usr/lib/cmake/clgrade/clgradeConfig.cmake ./usr/lib/cmake/clgrade/clgrade.cmake)
  string(FIND "${listing}" "${file}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${deb} has no ${file}:\n${listing}")
  endif()
endforeach()
if(EXISTS "${BUILD}/libclgrade_oclgrind.so")
  foreach(file ./usr/lib/clgrade/libclgrade_oclgrind.so ./usr/lib/clgrade/oclgrind-icd/oclgrind.icd)
    string(FIND "${listing}" "${file}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${deb} has no ${file} though the build has the plugin:\n${listing}")
    endif()
  endforeach()
endif()
# Nothing of the build or source folder goes into the package.
string(FIND "${listing}" "CMakeFiles" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "${deb} holds build files:\n${listing}")
endif()

run(${DPKG_DEB} -f "${deb}" Depends)
foreach(dependency bubblewrap libtinyxml2 libpng16 ocl-icd-libopencl1)
  string(FIND "${out}" "${dependency}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${deb} does not depend on ${dependency}: Depends: ${out}")
  endif()
endforeach()

# Unpacked anywhere (not under /usr), it finds its own files and grades.
run(${DPKG_DEB} -x "${deb}" "${WORK}/root")
run("${WORK}/root/usr/bin/clgrade" --version)
run("${WORK}/root/usr/bin/clgrade" check "${SUBMISSION}" --task histogram --device cpu --out "${WORK}/report" --quiet)
if(NOT EXISTS "${WORK}/report/report.json")
  message(FATAL_ERROR "the unpacked clgrade wrote no report.json")
endif()
message("package.deb: ${deb} unpacked and graded the histogram task")
