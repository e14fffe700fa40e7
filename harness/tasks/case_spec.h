// One rubric case as the rubric file states it: an id, visibility and named parameters.
#pragma once

#include <map>
#include <string>

namespace clgrade {

struct CaseSpec {
  std::string id;
  bool visible = true;                        ///< students' self-check runs visible cases only
  int line = 0;                               ///< line in the rubric file, for error messages
  std::map<std::string, std::string> params;  ///< e.g. input="photo" width="780" weights="edge"
};

}  // namespace clgrade
