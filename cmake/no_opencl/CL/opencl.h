// Placed first on the include path of the libraries that must not know OpenCL (the result model,
// its renderers and everything below them; see cmake/no_opencl.cmake): including OpenCL there is
// a build error, not a slow drift back into one big dependency.
#error "this library must not include OpenCL (CL/opencl.h): the result model and its renderers are plain data"
