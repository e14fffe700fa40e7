# package.fetchcontent (see CMakeLists.txt):
#   cmake -DSOURCE=... -DSUBMISSION=... -DWORK=... [-DFULL=ON] -P fetchcontent.cmake
# By default the outside project is configured and its tests listed (building clgrade a second time
# takes most of CI's half hour on two cores); -DFULL=ON (or CLGRADE_PACKAGE_FULL=1 in the environment)
# builds the fetched clgrade and runs the conv3x3 criteria with a JUnit file.
include(${CMAKE_CURRENT_LIST_DIR}/helpers.cmake)
file(REMOVE_RECURSE "${WORK}")
if("$ENV{CLGRADE_PACKAGE_FULL}" STREQUAL "1")
  set(FULL ON)
endif()

set(launcher "")
if(DEFINED ENV{CMAKE_CXX_COMPILER_LAUNCHER})
  set(launcher "-DCMAKE_CXX_COMPILER_LAUNCHER=$ENV{CMAKE_CXX_COMPILER_LAUNCHER}")
endif()
run(${CMAKE_COMMAND} -S "${CMAKE_CURRENT_LIST_DIR}/fetchcontent_project" -B "${WORK}" "-DCLGRADE_SOURCE=${SOURCE}"
    "-DSUBMISSION=${SUBMISSION}" -DCMAKE_BUILD_TYPE=RelWithDebInfo ${launcher})
# The grade and the three conv3x3 criteria (tile_load, convolution, the stray_writes deduction) on the
# clgrade this project builds (the target, not one from the PATH), and none of clgrade's own tests: a
# course's CI runs its students' criteria only. (Read from CTestTestfile.cmake: `ctest -N` leaves out
# tests whose executable is not built yet.)
file(READ "${WORK}/CTestTestfile.cmake" tests)
string(REGEX MATCHALL "add_test\\([^ ]+ \"[^\"]*\"" added "${tests}")
set(expected "add_test(student.conv3x3.grade;add_test(student.conv3x3.tile_load;add_test(student.conv3x3.convolution;add_test(student.conv3x3.stray_writes")
set(names "")
foreach(entry IN LISTS added)
  if(NOT entry MATCHES "^(add_test\\([^ ]+) \"${WORK}/_deps/clgrade-build/clgrade\"$")
    message(FATAL_ERROR "a test that does not run the fetched clgrade: ${entry}")
  endif()
  list(APPEND names "${CMAKE_MATCH_1}")
endforeach()
if(NOT names STREQUAL expected)
  message(FATAL_ERROR "expected the course's 4 tests (grade + 3 criteria), found: ${names}")
endif()
if(EXISTS "${WORK}/_deps/clgrade-build/CTestTestfile.cmake")
  file(READ "${WORK}/_deps/clgrade-build/CTestTestfile.cmake" own)
  if(own MATCHES "add_test")
    message(FATAL_ERROR "clgrade's own tests are registered in the course's project")
  endif()
endif()
if(NOT FULL)
  message("package.fetchcontent: configured, 4 tests on the fetched clgrade (not built: set CLGRADE_PACKAGE_FULL=1)")
  return()
endif()
run(${CMAKE_COMMAND} --build "${WORK}" --target clgrade clgrade_oclgrind -j)
run(${CMAKE_CTEST_COMMAND} --test-dir "${WORK}" --output-on-failure --output-junit "${WORK}/junit.xml")
message("${out}")
check_junit_cases("${WORK}/junit.xml" 4)
message("package.fetchcontent: built the fetched clgrade and passed its 4 conv3x3 tests")
