# cmake -DCLGRADE=... -DSOURCE_DIR=... -DOUT=... -P escape_in_folder_name.cmake
# A submission folder whose name holds terminal escape sequences (clear the screen, set the window
# title): batch's progress lines show them as text (\x1b...), never as the bytes a terminal obeys.
string(ASCII 27 esc)
string(ASCII 7 bel)
set(subs "${OUT}/escape-subs")
file(REMOVE_RECURSE "${subs}" "${OUT}/escape-out")
set(name "${esc}[2J${esc}]0;owned${bel}student")
file(MAKE_DIRECTORY "${subs}/${name}")
file(COPY "${SOURCE_DIR}/kernels_template/histogram.cl" DESTINATION "${subs}/${name}")
execute_process(COMMAND "${CLGRADE}" batch "${subs}" --out "${OUT}/escape-out" --device cpu --task histogram --jobs 1
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "batch failed (${rc}):\n${err}")
endif()
string(FIND "${out}${err}" "${esc}" raw)
if(NOT raw EQUAL -1)
  message(FATAL_ERROR "a raw ESC byte reached the terminal:\n${err}")
endif()
string(FIND "${err}" "\\x1b[2J\\x1b]0;owned\\x07student" shown)
if(shown EQUAL -1)
  message(FATAL_ERROR "the folder name is not shown escaped:\n${err}")
endif()
message(STATUS "the folder name is shown as text")
