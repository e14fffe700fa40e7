// The one place that includes CLHPP, so every file agrees on the target version and exceptions.
#pragma once

#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_ENABLE_EXCEPTIONS
#endif
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <CL/opencl.hpp>
#pragma GCC diagnostic pop

#include <string>

namespace clgrade {

/// "CL_INVALID_WORK_GROUP_SIZE (-54)" for an OpenCL error code.
std::string clErrorName(cl_int code);

/// "clEnqueueNDRangeKernel: CL_OUT_OF_RESOURCES (-5)" for a CLHPP exception.
std::string describe(const cl::Error& error);

}  // namespace clgrade
