// Where clgrade's own files are: found from the executable's folder at run time, never from a path
// compiled in, so a build folder, an installed prefix, an unpacked .deb and a moved copy of an
// installed prefix or .deb all find their rubrics and reference kernels (and time against them).
//
//   build folder:  <build>/clgrade, libclgrade_oclgrind.so, oclgrind-icd/, share/clgrade/ (links
//                  into the source folder, made by CMake)
//   installed:     <prefix>/lib/clgrade/clgrade (<prefix>/bin/clgrade is a link to it), the plugin
//                  and oclgrind-icd/ beside it, <prefix>/share/clgrade/
#pragma once

#include <string>
#include <vector>

namespace clgrade {

/// The folder of the clgrade executable, its Oclgrind plugin and Oclgrind-only ICD folder:
/// CLGRADE_TOOLS_DIR when set (a grade's children get it from their parent), else the folder of the
/// running executable.
std::string toolsFolder();

/// The folder with rubrics/, reference/kernels/, reference/naive/ and kernels_template/, found from
/// the tools folder: <tools>/share/clgrade (a build folder) or <tools>/../../share/clgrade (an
/// installed prefix). Empty when neither exists.
std::string dataFolder();

/// dataFolder() + "/" + relative, or a path that says what is missing when there is no data folder
/// (so the error that follows names it).
std::string dataPath(const std::string& relative);

/// The XML files directly in `folder`, sorted by name: the shipped rubrics are rubricFiles(dataPath("rubrics"))
/// (rubrics/gpu/ holds their speed variants), so a rubric added there is covered without a list to edit.
std::vector<std::string> rubricFiles(const std::string& folder);

}  // namespace clgrade
