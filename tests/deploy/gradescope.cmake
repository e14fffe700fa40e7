# deploy.gradescope (see CMakeLists.txt):
#   cmake -DCLGRADE=... -DSOURCE=... -DBUILD=... -DCPACK=... -DWORK=... -P gradescope.cmake
include(${SOURCE}/tests/package/helpers.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
find_program(MMDEBSTRAP mmdebstrap)
find_program(BWRAP bwrap)
find_program(DPKG_SHLIBDEPS dpkg-shlibdeps)
if(NOT MMDEBSTRAP OR NOT BWRAP OR NOT DPKG_SHLIBDEPS)
  message("deploy.gradescope skipped: it needs mmdebstrap, bubblewrap and dpkg-dev (apt-get install mmdebstrap bubblewrap dpkg-dev)")
  return()
endif()

make_deb("${BUILD}" "${WORK}/deb" "${CPACK}" deb)

run("${CLGRADE}" package gradescope --rubric "${SOURCE}/rubrics/four_tasks.xml" --deb "${deb}" --out "${WORK}/autograder.zip")

# A fresh Debian 12 root file system, with this machine's apt sources (mmdebstrap reads them).
set(root "${WORK}/root")
execute_process(COMMAND "${MMDEBSTRAP}" --variant=apt --quiet bookworm "${root}"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message("deploy.gradescope skipped: mmdebstrap could not make a Debian 12 root file system (no network or mirror?):\n${err}")
  return()
endif()
# Gradescope's layout: the autograder zip unpacked in /autograder/source, the submission in
# /autograder/submission.
file(MAKE_DIRECTORY "${root}/autograder/source" "${root}/autograder/submission")
execute_process(COMMAND ${CMAKE_COMMAND} -E tar xf "${WORK}/autograder.zip" WORKING_DIRECTORY "${root}/autograder/source")
file(COPY "${SOURCE}/submissions/reference/kernels/" DESTINATION "${root}/autograder/submission")

# Inside the root as Gradescope runs its scripts: as root, /proc, /dev and /sys, the network for apt.
set(inside ${BWRAP} --bind "${root}" / --bind /proc /proc --dev /dev --ro-bind /sys /sys --ro-bind /etc/resolv.conf /etc/resolv.conf
           --perms 1777 --tmpfs /tmp --cap-add ALL --setenv DEBIAN_FRONTEND noninteractive --setenv PATH /usr/sbin:/usr/bin:/sbin:/bin
           --chdir /autograder)
execute_process(COMMAND ${inside} bash /autograder/source/setup.sh RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  if(err MATCHES "Could not resolve|Temporary failure|Failed to fetch")
    message("deploy.gradescope skipped: setup.sh could not reach the Debian mirror:\n${err}")
    return()
  endif()
  message(FATAL_ERROR "setup.sh failed (${status}):\n${out}\n${err}")
endif()

# A grade: the reference scores full marks; results.json is Gradescope's.
execute_process(COMMAND ${inside} /autograder/source/run_autograder RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT EXISTS "${root}/autograder/results/results.json")
  message(FATAL_ERROR "run_autograder (${status}) left no results.json:\n${out}\n${err}")
endif()
file(READ "${root}/autograder/results/results.json" results)
string(JSON score GET "${results}" score)
string(JSON tests LENGTH "${results}" tests)
string(JSON max GET "${results}" extra_data max)
if(NOT score STREQUAL max OR tests LESS 10)
  message(FATAL_ERROR "the reference scored ${score} of ${max} with ${tests} tests in Gradescope's results.json:\n${results}")
endif()

# No OpenCL device (an ICD folder with nothing in it): an autograder error, no score for the student.
file(MAKE_DIRECTORY "${root}/no-icd")
execute_process(COMMAND ${inside} --setenv OCL_ICD_VENDORS /no-icd /autograder/source/run_autograder
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ "${root}/autograder/results/results.json" failed)
string(JSON error GET "${failed}" extra_data autograder_error)
string(JSON no_device_score ERROR_VARIABLE no_score GET "${failed}" score)
if(NOT status EQUAL 0 OR NOT error STREQUAL "ON" OR NOT no_score)
  message(FATAL_ERROR "without a device run_autograder (${status}) should leave an autograder error:\n${failed}\n${out}\n${err}")
endif()
message("deploy.gradescope: setup.sh and run_autograder in a fresh Debian 12 root: ${score} of ${max}; without a device an autograder error")
