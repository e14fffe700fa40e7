# clgrade_forbid_opencl(target): the target's sources may not include an OpenCL header, directly or
# through another header. A folder of headers that #error is put first on its include path, so an
# include of <CL/opencl.hpp> (or of harness/cl/opencl.h) fails that target's build. The result model
# and its renderers use it (issue 10: "no module below the result model includes CLHPP").
function(clgrade_forbid_opencl target)
  target_include_directories(${target} BEFORE PRIVATE ${PROJECT_SOURCE_DIR}/cmake/no_opencl)
endfunction()
