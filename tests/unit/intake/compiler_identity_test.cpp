// The prelude that hides the compilers' identifying macros from every build (spec 5c).
#include <gtest/gtest.h>

#include <algorithm>

#include "intake/compiler_identity.h"

namespace clgrade {
namespace {

bool hides(const std::string& built, const std::string& name) {
  return built.find("\n#undef " + name + "\n") != std::string::npos;
}

TEST(CompilerIdentity, HidesTheReservedNamesASourceSpellsAndTheWellKnownOnes) {
  const std::string source =
      "#if __clang_major__ < 15 && defined(__MY_VENDOR_X__) && cl_vendor_feature\n#define TILE 1\n#endif\n"
      "__kernel void k(__global float* d) { d[0] = _Secret; }\n";
  const std::string built = hideCompilerIdentity(source, "k.cl");
  for (const char* name : {"__clang_major__", "__MY_VENDOR_X__", "cl_vendor_feature", "_Secret",
                           // not spelled, hidden all the same: a kernel may paste them together with ##
                           "__SPIR__", "__x86_64__", "__NV_CL_C_VERSION", "__OPENCL_VERSION__", "cl_khr_fp64"})
    EXPECT_TRUE(hides(built, name)) << name;
  // What the language needs stays: qualifiers, builtin macros, what the build options define.
  for (const char* name : {"__kernel", "__global", "__LINE__", "__FAST_RELAXED_MATH__", "TILE", "d"})
    EXPECT_FALSE(hides(built, name)) << name;
  // The file's own lines follow, numbered from 1 in its name.
  EXPECT_NE(built.find("\n#line 1 \"k.cl\"\n" + source), std::string::npos);
  // A source that starts with the prelude's own first line still gets the prelude (before, it was
  // taken as already hidden, and kept its compiler's macros).
  const std::string disguised = hideCompilerIdentity(built.substr(0, built.find('\n') + 1) + source, "k.cl");
  EXPECT_TRUE(hides(disguised, "__clang_major__"));
}

// Found by a gaming corpus: PoCL's headers define CLK_sRGB, Oclgrind's M_PI_H; a tile used only
// where `#if defined(CLK_sRGB)` said Oclgrind compiled it took tile_load 3/3.
TEST(CompilerIdentity, HeaderMacrosThatDifferBetweenImplementationsAreHidden) {
  const std::string built = hideCompilerIdentity(
      "#if defined(CLK_sRGB) || defined(M_PI_H) || defined(HALF_MAX) || defined(ATOMIC_VAR_INIT) || "
      "defined(FP_FAST_FMAF)\n#endif\nvoid f() { barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); }\n");
  for (const char* name : {"CLK_sRGB", "M_PI_H", "HALF_MAX", "ATOMIC_VAR_INIT", "FP_FAST_FMAF"})
    EXPECT_TRUE(hides(built, name)) << name;
  for (const char* name : {"CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE"}) EXPECT_FALSE(hides(built, name)) << name;
}

// Found by an honest corpus: the usual guard before doubles (`#if defined(cl_khr_fp64) ... #else
// #error`) failed every build while the macro was hidden. The extensions every graded device and the
// simulator have are defined alike in every build; the others stay hidden.
TEST(CompilerIdentity, ExtensionsEveryDeviceHasAreDefinedAlike) {
  const std::string built = hideCompilerIdentity(
      "#if defined(cl_khr_fp64)\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#elif defined(cl_amd_fp64)\n"
      "#else\n#error no doubles\n#endif\n#ifdef cl_khr_fp16\n#endif\n");
  EXPECT_NE(built.find("\n#undef cl_khr_fp64\n#define cl_khr_fp64 1\n"), std::string::npos);
  EXPECT_NE(built.find("\n#define cl_khr_local_int32_base_atomics 1\n"), std::string::npos);
  for (const char* name : {"cl_amd_fp64", "cl_khr_fp16"}) {
    EXPECT_TRUE(hides(built, name)) << name;
    EXPECT_EQ(built.find(std::string("#define ") + name), std::string::npos) << name;
  }
  // A build log's note names what was hidden, not what every device defines.
  EXPECT_EQ(hiddenMacroNote(built).find("cl_khr_fp64"), std::string::npos);
}

TEST(CompilerIdentity, CommentsAndLiteralsAreNotNames) {
  const std::string built = hideCompilerIdentity("// __in_a_comment__\nconstant char* s = \"__in_a_string__\";\n");
  EXPECT_FALSE(hides(built, "__in_a_comment__"));
  EXPECT_FALSE(hides(built, "__in_a_string__"));
}

TEST(CompilerIdentity, AFailedBuildsNoteNamesWhatTheSourceSpelled) {
  EXPECT_EQ(hiddenMacroNote("__kernel void k() {}"), "");  // no prelude
  EXPECT_EQ(hiddenMacroNote(hideCompilerIdentity("__kernel void k() {}")), "");  // nothing of its own hidden
  const std::string note = hiddenMacroNote(hideCompilerIdentity("int v = __OPENCL_VERSION__;"));
  EXPECT_NE(note.find("spec 5c"), std::string::npos) << note;
  EXPECT_NE(note.find("__OPENCL_VERSION__"), std::string::npos) << note;
}

}  // namespace
}  // namespace clgrade
