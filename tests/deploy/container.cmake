# deploy.container (see CMakeLists.txt):
#   cmake -DCLGRADE=... -DSOURCE=... -DBUILD=... -DCPACK=... -DWORK=... -P container.cmake
# The image of `clgrade package prairielearn`, built with Debian's podman from a Debian 12 base made
# here by mmdebstrap (no registry is needed: the base is imported as debian:12), then run the ways
# people run it: a student's `clgrade check /work`, an instructor's `clgrade batch`, and PrairieLearn's
# entrypoint. Inside a container the sandbox cannot mount a /proc of its own: this is where that is
# shown to work.
include(${SOURCE}/tests/package/helpers.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
find_program(PODMAN podman)
find_program(RUNC runc)
find_program(MMDEBSTRAP mmdebstrap)
find_program(DPKG_SHLIBDEPS dpkg-shlibdeps)
if(NOT PODMAN OR NOT RUNC OR NOT MMDEBSTRAP OR NOT DPKG_SHLIBDEPS)
  message("deploy.container skipped: it needs podman, runc, mmdebstrap and dpkg-dev (apt-get install podman runc mmdebstrap dpkg-dev)")
  return()
endif()
# runc with cgroupfs and no default rlimits: what works as root on a machine whose own sandbox forbids
# raising limits and mixes cgroup versions (crun refuses both there). Storage of its own, removed after.
file(WRITE "${WORK}/containers.conf" "[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = \"cgroupfs\"\n")
file(WRITE "${WORK}/storage.conf"
     "[storage]\ndriver = \"vfs\"\nrunroot = \"${WORK}/run\"\ngraphroot = \"${WORK}/storage\"\n")
set(ENV{CONTAINERS_CONF} "${WORK}/containers.conf")
set(ENV{CONTAINERS_STORAGE_CONF} "${WORK}/storage.conf")
set(podman "${PODMAN}" --runtime "${RUNC}")

execute_process(COMMAND "${MMDEBSTRAP}" --variant=apt --quiet --format=tar bookworm "${WORK}/base.tar"
                RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message("deploy.container skipped: mmdebstrap could not make a Debian 12 base (no network or mirror?):\n${err}")
  return()
endif()
execute_process(COMMAND ${podman} import "${WORK}/base.tar" docker.io/library/debian:12 RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message("deploy.container skipped: podman cannot import an image here:\n${err}")
  return()
endif()
file(REMOVE "${WORK}/base.tar")

make_deb("${BUILD}" "${WORK}/deb" "${CPACK}" deb)
run("${CLGRADE}" package prairielearn --deb "${deb}" --out "${WORK}/image")
execute_process(COMMAND ${podman} build --pull=never --network host -t localhost/clgrade-test "${WORK}/image"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
mirror_or_fail(deploy.container "podman build")

# A student: the kernels folder mounted at /work, one line (README).
execute_process(COMMAND ${podman} run --rm --network none -v "${SOURCE}/reference/kernels:/work:ro"
                        localhost/clgrade-test clgrade check /work --device cpu --task histogram --out /tmp/report
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT out MATCHES "total +2/2")
  message(FATAL_ERROR "clgrade check in the container (${status}):\n${out}\n${err}")
endif()

# An instructor: a class folder, the results written back to the host.
file(MAKE_DIRECTORY "${WORK}/class/alice" "${WORK}/results")
file(COPY "${SOURCE}/reference/kernels/histogram.cl" DESTINATION "${WORK}/class/alice")
execute_process(COMMAND ${podman} run --rm --network none -v "${WORK}/class:/class:ro" -v "${WORK}/results:/results"
                        localhost/clgrade-test clgrade batch /class --task histogram --device cpu --out /results/batch
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT EXISTS "${WORK}/results/batch/gradebook.csv")
  message(FATAL_ERROR "clgrade batch in the container (${status}):\n${out}\n${err}")
endif()
# Graded inside the sandbox, not around it: the report says which /proc the sandbox had.
file(READ "${WORK}/results/batch/alice/report.json" alice)
string(JSON sandbox GET "${alice}" sandbox)
if(NOT sandbox MATCHES "^bubblewrap: ")
  message(FATAL_ERROR "the batch in the container ran without the sandbox: ${sandbox}")
endif()

# PrairieLearn: /grade mounted, the image's entrypoint.
file(MAKE_DIRECTORY "${WORK}/grade/student" "${WORK}/grade/tests")
file(COPY "${SOURCE}/reference/kernels/" DESTINATION "${WORK}/grade/student")
execute_process(COMMAND ${podman} run --rm --network none -v "${WORK}/grade:/grade" localhost/clgrade-test
                        /usr/local/bin/clgrade-prairielearn
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(results "${WORK}/grade/results/results.json")
if(NOT status EQUAL 0 OR NOT EXISTS "${results}")
  message(FATAL_ERROR "the PrairieLearn entrypoint in the container (${status}) left no results.json:\n${out}\n${err}")
endif()
file(READ "${results}" pl)
string(JSON gradable GET "${pl}" gradable)
string(JSON score ERROR_VARIABLE no_score GET "${pl}" score)
if(NOT gradable STREQUAL "ON" OR NOT score STREQUAL "1.0")
  string(SUBSTRING "${pl}" 0 3000 head)
  message(FATAL_ERROR "PrairieLearn's results.json from the container: gradable ${gradable}, score ${score}:\n${head}")
endif()
execute_process(COMMAND ${podman} rmi -f localhost/clgrade-test docker.io/library/debian:12 OUTPUT_QUIET ERROR_QUIET)
file(REMOVE_RECURSE "${WORK}/storage")
message("deploy.container: the image built by podman from debian:12; in it clgrade check 2/2, a batch with its gradebook, "
        "PrairieLearn's entrypoint score ${score}")
