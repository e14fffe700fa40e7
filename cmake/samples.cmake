# The sample submissions as data: submissions/<name>/ holds expected.json and only the kernel files the
# sample changes; expected.json's "fill" lists the others, copied from reference/kernels (or from the
# folder "fill_from" names, e.g. kernels_template), as the hostile corpus does (tests/hostile/README.md).
# The full folders are made at configure time in the build tree, ${CLGRADE_SAMPLES_DIR}/<name>/kernels,
# and made again whenever a sample or a file it fills from changes. Everything that grades the samples
# (tests, `bootstrap.sh samples`, the docs' examples) reads them there.
set(CLGRADE_SAMPLES_DIR ${PROJECT_BINARY_DIR}/submissions)

function(clgrade_make_samples source out)
  file(GLOB manifests CONFIGURE_DEPENDS ${source}/*/expected.json)
  file(REMOVE_RECURSE ${out})
  foreach(manifest IN LISTS manifests)
    get_filename_component(folder ${manifest} DIRECTORY)
    get_filename_component(name ${folder} NAME)
    file(READ ${manifest} text)
    string(JSON from ERROR_VARIABLE no_from GET "${text}" fill_from)
    if(no_from)
      set(from reference/kernels)
    endif()
    # The sample's own files, then the ones it does not change.
    file(GLOB_RECURSE own CONFIGURE_DEPENDS RELATIVE ${folder} ${folder}/*)
    foreach(file IN LISTS own)
      configure_file(${folder}/${file} ${out}/${name}/${file} COPYONLY)
    endforeach()
    string(JSON count ERROR_VARIABLE no_fill LENGTH "${text}" fill)
    if(no_fill)
      set(count 0)
    endif()
    if(count GREATER 0)
      math(EXPR last "${count} - 1")
      foreach(i RANGE ${last})
        string(JSON file GET "${text}" fill ${i})
        if(EXISTS ${out}/${name}/kernels/${file})
          message(FATAL_ERROR "${manifest}: '${file}' is both the sample's own file and in its fill list")
        endif()
        if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${from}/${file})
          message(FATAL_ERROR "${manifest}: fill '${file}': no such file in ${from}")
        endif()
        configure_file(${PROJECT_SOURCE_DIR}/${from}/${file} ${out}/${name}/kernels/${file} COPYONLY)
      endforeach()
    endif()
  endforeach()
endfunction()

# Only for clgrade's own build (its tests and `bootstrap.sh samples`), not in a course's project.
if(clgrade_top_level OR CLGRADE_BUILD_TESTS)
  clgrade_make_samples(${PROJECT_SOURCE_DIR}/submissions ${CLGRADE_SAMPLES_DIR})
endif()
