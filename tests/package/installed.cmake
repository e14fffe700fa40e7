# package.installed (see CMakeLists.txt):
#   cmake -DSOURCE=... -DBUILD=... -DSUBMISSION=... -DWORK=... -P installed.cmake
include(${CMAKE_CURRENT_LIST_DIR}/helpers.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
# Every grade runs its kernels under bwrap; so does the hidden-folders run below.
find_program(BWRAP bwrap)
if(NOT BWRAP)
  message("package.installed skipped: no bwrap (apt-get install bubblewrap)")
  return()
endif()

# Installed, then moved: the prefix it was installed to is gone.
run(${CMAKE_COMMAND} --install "${BUILD}" --prefix "${WORK}/prefix")
file(RENAME "${WORK}/prefix" "${WORK}/moved")
foreach(file bin/clgrade lib/clgrade/clgrade share/clgrade/rubrics/four_tasks.xml share/clgrade/reference/kernels/Convolution3x3.cl
             share/clgrade/reference/naive/Convolution3x3.cl share/clgrade/kernels_template/Convolution3x3.cl
             lib/cmake/clgrade/clgradeConfig.cmake lib/cmake/clgrade/clgradeConfigVersion.cmake lib/cmake/clgrade/clgrade.cmake)
  if(NOT EXISTS "${WORK}/moved/${file}")
    message(FATAL_ERROR "the installed prefix has no ${file}")
  endif()
endforeach()
if(NOT IS_SYMLINK "${WORK}/moved/bin/clgrade")
  message(FATAL_ERROR "bin/clgrade should link to lib/clgrade/clgrade (where its plugin is)")
endif()

# A course's project finds it and runs one task's criteria with a JUnit file.
run(${CMAKE_COMMAND} -S "${CMAKE_CURRENT_LIST_DIR}/find_package_project" -B "${WORK}/course"
    "-DCMAKE_PREFIX_PATH=${WORK}/moved" "-DSUBMISSION=${SUBMISSION}")
run(${CMAKE_CTEST_COMMAND} --test-dir "${WORK}/course" --output-on-failure --output-junit "${WORK}/course/junit.xml")
message("${out}")
check_junit_cases("${WORK}/course/junit.xml" 4)

# The moved clgrade with the source and build folders out of sight: it finds its rubric, reference and
# naive kernels and plugin from where it is, or fails here.
file(COPY "${SUBMISSION}/" DESTINATION "${WORK}/submission")
set(hide --tmpfs "${SOURCE}")
string(FIND "${BUILD}/" "${SOURCE}/" inside)
if(NOT inside EQUAL 0)
  list(APPEND hide --tmpfs "${BUILD}")
endif()
run(${BWRAP} --dev-bind / / ${hide} --bind "${WORK}" "${WORK}" --cap-add ALL --
    "${WORK}/moved/bin/clgrade" check "${WORK}/submission" --task conv3x3 --device cpu --out "${WORK}/hidden-report" --quiet)
file(READ "${WORK}/hidden-report/report.json" report)
string(JSON tasks LENGTH "${report}" tasks)
string(JSON total GET "${report}" total)
string(JSON max GET "${report}" max)
if(NOT tasks EQUAL 1 OR NOT total STREQUAL max)
  message(FATAL_ERROR "the hidden-folders grade of the reference: ${tasks} tasks, ${total} of ${max} points")
endif()
message("package.installed: the moved clgrade graded conv3x3 with the source and build folders hidden: ${total} of ${max}")
