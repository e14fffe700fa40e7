# --gradescope-results and --prairielearn-results: always a results file, the grade's own or one that
# says clgrade could not grade (never a score of 0 for the student).
#   cmake -DCLGRADE=... -DKERNELS=... -DWORK=... -P platform_results.cmake
file(REMOVE_RECURSE "${WORK}")

# A grade: the files are the report folder's.
execute_process(COMMAND "${CLGRADE}" check "${KERNELS}" --task histogram --device cpu --out "${WORK}/report" --quiet
                        --gradescope-results "${WORK}/autograder/results/results.json"
                        --prairielearn-results "${WORK}/grade/results/results.json"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "check of the reference: exit ${status}\n${out}\n${err}")
endif()
foreach(pair "autograder/results/results.json;report/gradescope/results.json"
             "grade/results/results.json;report/prairielearn/results.json")
  list(GET pair 0 written)
  list(GET pair 1 original)
  file(READ "${WORK}/${written}" a)
  file(READ "${WORK}/${original}" b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${written} is not the grade's ${original}")
  endif()
endforeach()

# No such device: exit 3, and both platforms still get a file that says why.
execute_process(COMMAND "${CLGRADE}" check "${KERNELS}" --device no-such-platform --out "${WORK}/none" --quiet
                        --gradescope-results "${WORK}/autograder/results/results.json"
                        --prairielearn-results "${WORK}/grade/results/results.json"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 3)
  message(FATAL_ERROR "with no such device: exit ${status}, expected 3\n${out}\n${err}")
endif()
file(READ "${WORK}/autograder/results/results.json" gradescope)
string(JSON error GET "${gradescope}" extra_data autograder_error)
string(JSON tests LENGTH "${gradescope}" tests)
string(JSON output GET "${gradescope}" output)
string(JSON score ERROR_VARIABLE no_score GET "${gradescope}" score)
if(NOT error STREQUAL "ON" OR NOT tests EQUAL 0 OR NOT no_score OR NOT output MATCHES "could not grade this submission \\(exit 3\\): .*no-such-platform")
  message(FATAL_ERROR "Gradescope's file when clgrade cannot grade:\n${gradescope}")
endif()
file(READ "${WORK}/grade/results/results.json" prairielearn)
string(JSON gradable GET "${prairielearn}" gradable)
string(JSON message GET "${prairielearn}" message)
if(NOT gradable STREQUAL "OFF" OR NOT message MATCHES "could not grade this submission \\(exit 3\\)")
  message(FATAL_ERROR "PrairieLearn's file when clgrade cannot grade:\n${prairielearn}")
endif()
message("platform results: copies after a grade; an autograder error and gradable: false without a device")
