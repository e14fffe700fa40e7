# Configures tests/course_ci/outside (a course's own CMake project using cmake/clgrade.cmake with a
# built clgrade), runs its conv3x3 tests with a JUnit file, and checks one testcase per criterion.
#   cmake -DCLGRADE=... -DSOURCE=... -DSUBMISSION=... -DWORK=... -P outside_project.cmake
file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE}/tests/course_ci/outside" -B "${WORK}"
                        -DCLGRADE_EXECUTABLE=${CLGRADE} -DCLGRADE_SOURCE=${SOURCE} -DSUBMISSION=${SUBMISSION}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the outside project does not configure:\n${out}\n${err}")
endif()
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir "${WORK}" -L conv3x3 --output-junit "${WORK}/junit.xml"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "its conv3x3 tests failed:\n${err}")
endif()
file(READ "${WORK}/junit.xml" junit)
string(REGEX MATCHALL "<testcase name=\"student\\.conv3x3\\.[a-z_]+\"" cases "${junit}")
list(LENGTH cases n)
if(NOT n EQUAL 4)
  message(FATAL_ERROR "expected 4 conv3x3 testcases (grade, tile_load, convolution, the stray_writes deduction) in the JUnit file, found ${n}:\n${junit}")
endif()
message("outside project: ${n} conv3x3 testcases passed")
