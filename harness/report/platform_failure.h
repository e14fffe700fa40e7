// The results file a grading platform gets when clgrade could not grade at all (no OpenCL device, a
// rubric it refuses, a report it cannot write, an internal error): never nothing, which Gradescope
// shows as "The autograder failed to execute correctly" and PrairieLearn as an error, and never a
// score of 0 for the student's work.
#pragma once

#include <string>

namespace clgrade {

/// Gradescope: no score and no tests, the reason in `output`, extra_data {autograder_error: true,
/// clgrade_exit}: the instructor sees an autograder error to fix and rerun, the student no verdict.
std::string gradescopeFailure(const std::string& reason, int exitCode);

/// PrairieLearn: gradable false (the student loses no points and no attempt), the reason in
/// `message`.
std::string prairieLearnUngradable(const std::string& reason, int exitCode);

}  // namespace clgrade
