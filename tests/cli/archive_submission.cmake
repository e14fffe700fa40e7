# A submission handed in as a .zip (issue 13, item 6): `clgrade check alice.zip` unpacks it in a
# sandbox and grades it like the folder; a link inside is left out and said; a file that is not an
# archive is a usage error (exit 2) that says why.
#   cmake -DCLGRADE=... -DREFERENCE=<reference kernels> -DWORK=... -P archive_submission.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/alice/kernels" "${WORK}/mallory")

function(check archive expected_exit out_var)
  execute_process(COMMAND "${CLGRADE}" check "${archive}" --device cpu --out "${WORK}/report-${out_var}" ${ARGN}
                  RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT status EQUAL ${expected_exit})
    message(FATAL_ERROR "clgrade check ${archive}: exit ${status}, expected ${expected_exit}\n${stdout}\n${stderr}")
  endif()
  set(${out_var} "${stdout}${stderr}" PARENT_SCOPE)
endfunction()

# alice.zip holds alice/kernels/*.cl, as a student's zip of their folder does.
file(COPY "${REFERENCE}/histogram.cl" "${REFERENCE}/Convolution3x3.cl" DESTINATION "${WORK}/alice/kernels")
execute_process(COMMAND ${CMAKE_COMMAND} -E tar cf alice.zip --format=zip alice WORKING_DIRECTORY "${WORK}")
check("${WORK}/alice.zip" 0 alice --task histogram --task conv3x3)
file(READ "${WORK}/report-alice/report.json" report)
string(JSON total GET "${report}" total)
string(JSON max GET "${report}" max)
if(NOT total STREQUAL max)
  message(FATAL_ERROR "alice.zip (the reference kernels) scored ${total} of ${max}")
endif()
if(EXISTS "${WORK}/alice/kernels/report.json" OR alice MATCHES "left out")
  message(FATAL_ERROR "unexpected output:\n${alice}")
endif()

# mallory.tar.gz: a link to /etc/passwd named like a kernel file, and a real one.
file(COPY "${REFERENCE}/histogram.cl" DESTINATION "${WORK}/mallory")
file(CREATE_LINK /etc/passwd "${WORK}/mallory/Convolution3x3.cl" SYMBOLIC)
execute_process(COMMAND ${CMAKE_COMMAND} -E tar czf mallory.tar.gz mallory WORKING_DIRECTORY "${WORK}")
check("${WORK}/mallory.tar.gz" 1 mallory --task histogram --task conv3x3)
if(NOT mallory MATCHES "mallory.tar.gz: left out mallory/Convolution3x3.cl: not a regular file")
  message(FATAL_ERROR "the link in mallory.tar.gz was not said to be left out:\n${mallory}")
endif()
if(mallory MATCHES "root:")
  message(FATAL_ERROR "/etc/passwd reached the output:\n${mallory}")
endif()
# And the report says it, where the student reads (found by an intake corpus: only the terminal did).
file(READ "${WORK}/report-mallory/report.json" report)
string(JSON notice ERROR_VARIABLE no_notice GET "${report}" notices 0)
if(NOT notice MATCHES "^mallory.tar.gz: left out mallory/Convolution3x3.cl: not a regular file")
  message(FATAL_ERROR "mallory's report has no notice of the link left out: '${notice}' ${no_notice}")
endif()

# junk.zip is text: the submission's fault, so a grade in which every task fails with the reason
# (exit 1 of check), not a usage error a platform would blame on the course.
file(WRITE "${WORK}/junk.zip" "not an archive\n")
check("${WORK}/junk.zip" 1 junk --task histogram)
if(NOT junk MATCHES "junk.zip cannot be unpacked: not an archive clgrade can read")
  message(FATAL_ERROR "junk.zip: no reason given:\n${junk}")
endif()
file(READ "${WORK}/report-junk/report.json" report)
string(JSON junk_total GET "${report}" total)
string(JSON problem GET "${report}" tasks 0 problem)
if(NOT junk_total EQUAL 0 OR NOT problem MATCHES "junk.zip cannot be unpacked")
  message(FATAL_ERROR "junk.zip's report: ${junk_total} points, problem '${problem}'")
endif()

# "...zip" without --out: the report goes to reports/submission, never into the working folder.
file(MAKE_DIRECTORY "${WORK}/cwd")
file(COPY_FILE "${WORK}/alice.zip" "${WORK}/cwd/...zip")
execute_process(COMMAND "${CLGRADE}" check "...zip" --task histogram --device cpu --quiet WORKING_DIRECTORY "${WORK}/cwd"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT EXISTS "${WORK}/cwd/reports/submission/report.json" OR EXISTS "${WORK}/cwd/report.json")
  message(FATAL_ERROR "...zip: the report is not in reports/submission (exit ${status}):\n${out}\n${err}")
endif()
message("archives: alice.zip graded ${total} of ${max}; mallory's link left out; junk.zip fails its tasks; ...zip stays in reports/")
