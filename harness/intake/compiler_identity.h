// Spec 5c: the simulated build sees the same compiler-identifying macros as the graded device's
// build, or neither sees any. The simulator (Oclgrind) and the graded devices (PoCL, NVIDIA) are
// different compilers, and a kernel that tests `__clang_major__` (or `__SPIR__`, `__x86_64__`,
// `__NV_CL_C_VERSION`, `__OPENCL_VERSION__`, `cl_nv_...`) can use local memory where it is analysed and
// global memory where it is graded. So clgrade puts a prelude before every kernel source it compiles,
// on every device: `#undef` for each such name, then `#line 1`, so the compiler's line numbers stay
// the file's. The same text reaches the simulator and the device; neither sees who compiles it.
//
// Which names: C reserves `__x` and `_X` identifiers for the implementation, and every compiler's,
// target's and vendor's predefined macro is spelled that way; OpenCL's extension macros are `cl_*`.
// The prelude hides every such name the source spells (in code, in a directive, in a macro body),
// and a fixed list of well-known ones always, for names a kernel pastes together with `##`. It never
// hides what the language needs: the qualifiers and keywords spelled `__x`, `__LINE__` and its kin,
// `__builtin_*` functions, `__FAST_RELAXED_MATH__` (set by the build options, the same everywhere)
// and `__kernel_exec`. A kernel that uses a hidden name as a value gets "undeclared identifier" on
// every device alike; the build log then names the hidden macros (hiddenMacroNote).
//
// What this cannot hide: behaviour (a builtin function whose last bits differ between compilers).
// The technique rules judge the analysed runs' outputs as well, and NVIDIA's counters the device's
// own code.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace clgrade {

/// The compiler-identifying predefined macros `source` names, and the well-known ones, sorted.
std::vector<std::string> compilerIdentityNames(const std::string& source);

/// The identifiers of a source, in order, that `##` could paste into the start of a compiler's
/// predefined macro the prelude does not hide because the source never spells it whole: the start of a
/// reserved `__x` name (`_ ## _clang_major__`, `__clang ## _major__`), of a vendor's extension macro
/// (`c ## l_khr_fp64`, `cl_khr_fp ## 64`), or all of a known single-underscore one (`_L ## P64`).
/// Empty when none could: `_CAT`, `_GROUPSIZE_`, `c` beside `l_tile` start none. The source policy
/// refuses a paste in a source whose identifiers could.
std::vector<std::string> pastedMacroStart(const std::set<std::string>& pieces);

/// The identifiers of `source` that appear only as include guards (in `#ifndef X`, `#ifdef X`,
/// `#undef X` and `#define X` with nothing after it) or in `#pragma` lines. No `##` can paste one (it
/// is never a macro's argument or body), so an include guard `_KERNELS_CL_` or `#pragma OPENCL
/// EXTENSION cl_khr_fp64 : enable` beside a `##` is not refused.
std::set<std::string> includeGuardNames(const std::string& source);

/// Header macros that differ between OpenCL implementations (`CLK_sRGB`, `M_PI_H`...): hidden when
/// spelled; the source policy refuses a `##` whose pieces could spell one (`C ## LK_sRGB`).
const std::vector<std::string>& differingHeaderMacros();

/// `source` with the prelude before it (see above), its line numbers those of `fileName` (when given:
/// the compiler names that file in its messages). Always added: a source that starts with the
/// prelude's first line is still the student's text.
std::string hideCompilerIdentity(const std::string& source, const std::string& fileName = "");

/// One line for a build log when the built text starts with the prelude and its source spells a
/// hidden name: which, and why they are hidden; empty otherwise.
std::string hiddenMacroNote(const std::string& built);

}  // namespace clgrade
