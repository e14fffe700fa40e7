# deploy.platforms (see CMakeLists.txt):
#   cmake -DCLGRADE=... -DSOURCE=... -DBUILD=... -DCPACK=... -DWORK=... -P platforms.cmake
include(${SOURCE}/tests/package/helpers.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
find_program(MMDEBSTRAP mmdebstrap)
find_program(BWRAP bwrap)
find_program(DPKG_SHLIBDEPS dpkg-shlibdeps)
if(NOT MMDEBSTRAP OR NOT BWRAP OR NOT DPKG_SHLIBDEPS)
  message("deploy.platforms skipped: it needs mmdebstrap, bubblewrap and dpkg-dev (apt-get install mmdebstrap bubblewrap dpkg-dev)")
  return()
endif()

make_deb("${BUILD}" "${WORK}/deb" "${CPACK}" deb)

run("${CLGRADE}" package gradescope --rubric "${SOURCE}/rubrics/four_tasks.xml" --deb "${deb}" --out "${WORK}/autograder.zip")

# A fresh Debian 12 root file system, with this machine's apt sources (mmdebstrap reads them).
set(root "${WORK}/root")
execute_process(COMMAND "${MMDEBSTRAP}" --variant=apt --quiet bookworm "${root}"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message("deploy.platforms skipped: mmdebstrap could not make a Debian 12 root file system (no network or mirror?):\n${err}")
  return()
endif()
# Gradescope's layout: the autograder zip unpacked in /autograder/source, the submission in
# /autograder/submission.
file(MAKE_DIRECTORY "${root}/autograder/source" "${root}/autograder/submission")
execute_process(COMMAND ${CMAKE_COMMAND} -E tar xf "${WORK}/autograder.zip" WORKING_DIRECTORY "${root}/autograder/source")
file(COPY "${SOURCE}/reference/kernels/" DESTINATION "${root}/autograder/submission")

# Inside the root as Gradescope runs its scripts: as root, /proc, /dev and /sys, the network for apt.
set(inside ${BWRAP} --bind "${root}" / --bind /proc /proc --dev /dev --ro-bind /sys /sys --ro-bind /etc/resolv.conf /etc/resolv.conf
           --perms 1777 --tmpfs /tmp --cap-add ALL --setenv DEBIAN_FRONTEND noninteractive --setenv PATH /usr/sbin:/usr/bin:/sbin:/bin
           --chdir /autograder)
execute_process(COMMAND ${inside} bash /autograder/source/setup.sh RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
mirror_or_fail(deploy.platforms setup.sh)

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

# PrairieLearn: the image's recipe and entrypoint. The root already holds what the Containerfile
# installs (the .deb, PoCL, Oclgrind); the entrypoint goes where the Containerfile puts it.
run("${CLGRADE}" package prairielearn --deb "${deb}" --out "${WORK}/prairielearn")
file(READ "${WORK}/prairielearn/Containerfile" recipe)
if(NOT recipe MATCHES "FROM debian:12" OR NOT recipe MATCHES "apt-get install")
  message(FATAL_ERROR "the Containerfile is not a Debian 12 recipe with Debian packages:\n${recipe}")
endif()
file(COPY "${WORK}/prairielearn/clgrade-prairielearn" DESTINATION "${root}/usr/local/bin"
     FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
file(MAKE_DIRECTORY "${root}/grade/student" "${root}/grade/tests")
file(COPY "${SOURCE}/reference/kernels/" DESTINATION "${root}/grade/student")
configure_file("${SOURCE}/rubrics/four_tasks.xml" "${root}/grade/tests/rubric.xml" COPYONLY)
execute_process(COMMAND ${inside} /usr/local/bin/clgrade-prairielearn RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT EXISTS "${root}/grade/results/results.json")
  message(FATAL_ERROR "the PrairieLearn entrypoint (${status}) left no results.json:\n${out}\n${err}")
endif()
file(SIZE "${root}/grade/results/results.json" pl_size)
file(READ "${root}/grade/results/results.json" pl)
string(JSON gradable GET "${pl}" gradable)
string(JSON pl_score GET "${pl}" score)
if(NOT gradable STREQUAL "ON" OR NOT pl_score STREQUAL "1.0" OR pl_size GREATER 1000000)
  message(FATAL_ERROR "PrairieLearn's results.json (${pl_size} bytes): gradable ${gradable}, score ${pl_score}")
endif()
execute_process(COMMAND ${inside} --setenv OCL_ICD_VENDORS /no-icd /usr/local/bin/clgrade-prairielearn
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ "${root}/grade/results/results.json" pl_failed)
string(JSON not_gradable GET "${pl_failed}" gradable)
if(NOT status EQUAL 0 OR NOT not_gradable STREQUAL "OFF")
  message(FATAL_ERROR "without a device the entrypoint (${status}) should leave gradable: false:\n${pl_failed}")
endif()
message("deploy.platforms: in a fresh Debian 12 root, Gradescope ${score} of ${max}, PrairieLearn score ${pl_score} (${pl_size} bytes); without a device an autograder error and gradable: false")
