# clgrade for a course repository's CI: one CTest test per rubric criterion, labelled by task, so
# `ctest -L conv3x3` runs one task's criteria and `ctest --output-junit results.xml` gives one
# testcase per criterion. No GPU needed: the device defaults to `auto` (PoCL on a CPU-only runner).
#
#   include(/path/to/clgrade/cmake/clgrade.cmake)
#   enable_testing()
#   clgrade_add_submission(NAME alice DIR ${CMAKE_SOURCE_DIR}/kernels
#                          [RUBRIC <file>]        default: clgrade's rubrics/four_tasks.xml
#                          [VISIBLE_ONLY]         the visible cases only (the students' self-check)
#                          [TASKS <id>...]        only these tasks of the rubric
#                          [DEVICE <spec>]        --device (default auto)
#                          [LABELS <label>...]    extra labels on every test
#                          [TASK_TIMEOUT <s>])    --task-timeout of each grade (default 300)
#
# For each task T it registers `<NAME>.<T>.grade`, which runs `clgrade grade DIR --task T` into
# <build>/clgrade-ci/<NAME>/<T> (a CTest fixture), and for each criterion C of T a test
# `<NAME>.<T>.<C>` that runs `clgrade criterion-status report.json T.C`: it passes when the
# criterion passed, fails (printing why) when it failed or errored, and is skipped
# (SKIP_RETURN_CODE 77) when clgrade could not measure it. Every test is labelled T.
#
# clgrade itself: the `clgrade` target when this is clgrade's own build (or pulled in with FetchContent),
# else CLGRADE_EXECUTABLE (a cache variable: set by find_package(clgrade), else found on the PATH).
#
#   find_package(clgrade REQUIRED)            an installed clgrade (cmake --install, the .deb)
#   FetchContent_Declare(clgrade GIT_REPOSITORY ... ) + FetchContent_MakeAvailable(clgrade)
#   include(/path/to/clgrade/cmake/clgrade.cmake)   a checkout with a built clgrade
#
# The criteria are listed at configure time by `clgrade rubric-criteria` when the executable exists
# then, else read from the rubric's XML here.
include_guard(GLOBAL)

# The default rubric's folder: a checkout's (this file in <source>/cmake, as with FetchContent), or the
# installed share/clgrade (this file in <prefix>/lib/cmake/clgrade, CLGRADE_DATA_DIR from clgradeConfig).
if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/../rubrics/four_tasks.xml")
  get_filename_component(_clgrade_data "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
elseif(CLGRADE_DATA_DIR)
  set(_clgrade_data "${CLGRADE_DATA_DIR}")
else()
  get_filename_component(_clgrade_data "${CMAKE_CURRENT_LIST_DIR}/../../../share/clgrade" ABSOLUTE)
endif()
set(_CLGRADE_DATA_DIR "${_clgrade_data}" CACHE INTERNAL "clgrade's rubrics")

if(NOT TARGET clgrade)
  find_program(CLGRADE_EXECUTABLE clgrade HINTS "${CMAKE_CURRENT_LIST_DIR}/../build" "${CMAKE_CURRENT_LIST_DIR}/../../../bin"
               DOC "the clgrade executable")
endif()

# The criteria of a rubric as "task criterion" list entries, read from its XML: tasks and criteria in
# file order, comments skipped. (Only when no clgrade executable exists yet, as in clgrade's own build.)
function(_clgrade_rubric_criteria_from_xml rubric out_var)
  file(READ "${rubric}" xml)
  # Comments out (CMake's regular expressions have no non-greedy match).
  while(TRUE)
    string(FIND "${xml}" "<!--" begin)
    if(begin EQUAL -1)
      break()
    endif()
    string(SUBSTRING "${xml}" ${begin} -1 rest)
    string(FIND "${rest}" "-->" length)
    if(length EQUAL -1)
      message(FATAL_ERROR "${rubric}: a comment is never closed")
    endif()
    math(EXPR end "${begin} + ${length} + 3")
    string(SUBSTRING "${xml}" 0 ${begin} head)
    string(SUBSTRING "${xml}" ${end} -1 tail)
    set(xml "${head}${tail}")
  endwhile()
  # Criteria and deductions alike: each is a line of the grade (as `clgrade rubric-criteria` lists them).
  string(REGEX MATCHALL "<(task|criterion|deduction)[ \t\r\n][^>]*>" tags "${xml}")
  set(result "")
  set(task "")
  foreach(tag IN LISTS tags)
    if(NOT tag MATCHES "[ \t\r\n]id[ \t\r\n]*=[ \t\r\n]*[\"']([^\"']*)[\"']")
      message(FATAL_ERROR "${rubric}: ${tag} has no id")
    endif()
    set(id "${CMAKE_MATCH_1}")
    if(tag MATCHES "^<task")
      set(task "${id}")
    else()
      list(APPEND result "${task} ${id}")
    endif()
  endforeach()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

function(clgrade_add_submission)
  cmake_parse_arguments(ARG "VISIBLE_ONLY" "NAME;DIR;RUBRIC;DEVICE;TASK_TIMEOUT" "TASKS;LABELS" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_DIR)
    message(FATAL_ERROR "clgrade_add_submission: NAME and DIR are required")
  endif()
  if(NOT ARG_RUBRIC)
    set(ARG_RUBRIC "${_CLGRADE_DATA_DIR}/rubrics/four_tasks.xml")
  endif()
  get_filename_component(rubric "${ARG_RUBRIC}" ABSOLUTE)
  get_filename_component(dir "${ARG_DIR}" ABSOLUTE)
  if(NOT ARG_DEVICE)
    set(ARG_DEVICE auto)
  endif()
  if(NOT ARG_TASK_TIMEOUT)
    set(ARG_TASK_TIMEOUT 300)
  endif()
  if(TARGET clgrade)
    set(exe clgrade)  # add_test resolves the target to its file
    _clgrade_rubric_criteria_from_xml("${rubric}" criteria)
  elseif(CLGRADE_EXECUTABLE)
    set(exe "${CLGRADE_EXECUTABLE}")
    execute_process(COMMAND "${CLGRADE_EXECUTABLE}" rubric-criteria "${rubric}" OUTPUT_VARIABLE listed
                    ERROR_VARIABLE problems RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "clgrade_add_submission: ${rubric} cannot be used:\n${problems}")
    endif()
    string(REPLACE "\n" ";" criteria "${listed}")
    list(FILTER criteria EXCLUDE REGEX "^$")
  else()
    message(FATAL_ERROR "clgrade_add_submission: no clgrade executable (set CLGRADE_EXECUTABLE)")
  endif()
  # Each criterion test reads its task's report; re-configuring keeps the list in step with the rubric.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${rubric}")

  set(out "${CMAKE_CURRENT_BINARY_DIR}/clgrade-ci/${ARG_NAME}")
  set(mode grade)
  if(ARG_VISIBLE_ONLY)
    set(mode grade --visible-only)
  endif()
  set(graded "")
  foreach(entry IN LISTS criteria)
    separate_arguments(pair UNIX_COMMAND "${entry}")
    list(GET pair 0 task)
    list(GET pair 1 criterion)
    if(ARG_TASKS AND NOT task IN_LIST ARG_TASKS)
      continue()
    endif()
    set(labels "${task}" ${ARG_LABELS})
    if(NOT task IN_LIST graded)
      list(APPEND graded "${task}")
      add_test(NAME ${ARG_NAME}.${task}.grade
               COMMAND ${exe} ${mode} "${dir}" --rubric "${rubric}" --task ${task} --out "${out}/${task}"
                       --device ${ARG_DEVICE} --task-timeout ${ARG_TASK_TIMEOUT} --quiet)
      math(EXPR limit "${ARG_TASK_TIMEOUT} + 120")
      set_tests_properties(${ARG_NAME}.${task}.grade PROPERTIES FIXTURES_SETUP clgrade_${ARG_NAME}_${task}
                           LABELS "${labels}" TIMEOUT ${limit})
    endif()
    add_test(NAME ${ARG_NAME}.${task}.${criterion}
             COMMAND ${exe} criterion-status "${out}/${task}/report.json" ${task}.${criterion})
    set_tests_properties(${ARG_NAME}.${task}.${criterion} PROPERTIES FIXTURES_REQUIRED clgrade_${ARG_NAME}_${task}
                         LABELS "${labels}" SKIP_RETURN_CODE 77)
  endforeach()
  if(NOT graded)
    message(FATAL_ERROR "clgrade_add_submission(${ARG_NAME}): no criterion of ${rubric} to test")
  endif()
endfunction()
