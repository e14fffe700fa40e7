# Without a sandbox a task's runner shares the keeper's working folder: it must write nothing there
# (it once drew the sweep chart into ./evidence/separable of whatever folder clgrade ran in, the
# student's project folder for a self-check). Grades the separable task from an empty working folder
# and fails if anything but the report folder appears in it.
#   cmake -DCLGRADE=... -DKERNELS=... -DWORK=... -P writes_only_its_report.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${CLGRADE}" check "${KERNELS}" --task separable --device cpu --no-sandbox --quiet
                        --out "${WORK}/report"
                WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT status EQUAL 0 OR NOT EXISTS "${WORK}/report/report.json")
  message(FATAL_ERROR "clgrade check wrote no report (exit ${status}):\n${stdout}\n${stderr}")
endif()
if(NOT EXISTS "${WORK}/report/evidence/separable/sweep.svg")
  message(FATAL_ERROR "the report has no sweep chart: the test no longer covers the chart")
endif()
file(GLOB left RELATIVE "${WORK}" "${WORK}/*")
if(NOT left STREQUAL "report")
  message(FATAL_ERROR "clgrade wrote into its working folder: ${left}")
endif()
