// A case of the tests of tasks/inputs.h and tasks/batch_share.h: visible ("course") or hidden
// ("secret"), with nothing else set.
#pragma once

#include "tasks/case_spec.h"

namespace clgrade::testing_cases {

inline CaseSpec caseOf(bool visible) {
  CaseSpec spec;
  spec.id = visible ? "course" : "secret";
  spec.visible = visible;
  return spec;
}

}  // namespace clgrade::testing_cases
