# Copies every reference file listed in tests/batch/sample_copies.txt over its copy in the tests
# (run from the repository root after changing reference/kernels or kernels_template):
#   cmake -P tests/batch/sync_sample_copies.cmake
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/sample_copies.txt" lines)
get_filename_component(root "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
foreach(line IN LISTS lines)
  if(line MATCHES "^#" OR line STREQUAL "")
    continue()
  endif()
  separate_arguments(pair UNIX_COMMAND "${line}")
  list(GET pair 0 copy)
  list(GET pair 1 original)
  file(READ "${root}/${original}" want HEX)
  file(READ "${root}/${copy}" have HEX)
  if(NOT want STREQUAL have)
    file(COPY_FILE "${root}/${original}" "${root}/${copy}")
    message(STATUS "updated ${copy}")
  endif()
endforeach()
