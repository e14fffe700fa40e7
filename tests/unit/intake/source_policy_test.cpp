// The source policy: what a kernel file may be, and #include expanded only from the kernels folder.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "intake/source_policy.h"
#include "util/sha256.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

class SourcePolicy : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) / ("clgrade_policy_" + std::to_string(getpid()) + "_" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "kernels");
    fs::create_directories(root_ / "outside");
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(root_);
  }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel, std::ios::binary) << text;
  }
  KernelSource load(const std::string& file = "k.cl", size_t limit = kMaxSourceBytes) {
    return loadKernelSource((root_ / "kernels").string(), file, limit);
  }
  fs::path root_;
};

TEST_F(SourcePolicy, APlainFileIsPassedThroughUnchanged) {
  const std::string text = "// r\xe9sum\xe9 (Latin-1)\n__kernel void k() {}\n";
  write("kernels/k.cl", text);
  const KernelSource s = load();
  EXPECT_TRUE(s.present);
  EXPECT_EQ(s.problem, "");
  EXPECT_EQ(s.text, text);
  EXPECT_EQ(s.fileBytes, text);
}

// Issue 27: a correct kernel saved with a UTF-8 byte order mark scored 0 (the compiler refuses the
// mark once anything comes before it). The compiler gets each file without it; the hash is of the bytes.
TEST_F(SourcePolicy, AByteOrderMarkIsLeftOutOfWhatTheCompilerGets) {
  const std::string bom = "\xEF\xBB\xBF";
  write("kernels/defs.h", bom + "#define A 1\n");
  write("kernels/k.cl", bom + "#include \"defs.h\"\n__kernel void k() {}\n");
  const KernelSource s = load();
  EXPECT_EQ(s.problem, "");
  EXPECT_EQ(s.text, "#line 1 \"defs.h\"\n#define A 1\n#line 2 \"k.cl\"\n__kernel void k() {}\n");
  EXPECT_EQ(s.fileBytes.rfind(bom, 0), 0u) << "the file as submitted keeps its mark (its SHA-256)";
}

TEST_F(SourcePolicy, IncludesOfTheFolderAreExpandedWithLineDirectives) {
  write("kernels/common/defs.h", "#define A 1\n#define B 2");  // no newline at the end
  write("kernels/k.cl", "// one\n#include \"common/defs.h\"\nint x = A + B;\n");
  const KernelSource s = load();
  EXPECT_EQ(s.problem, "");
  EXPECT_EQ(s.text, "// one\n#line 1 \"common/defs.h\"\n#define A 1\n#define B 2\n#line 3 \"k.cl\"\nint x = A + B;\n");
  EXPECT_EQ(s.included, std::vector<std::string>{"common/defs.h"});
  // The included file's hash goes into the report with the main file's.
  EXPECT_EQ(s.includedSha256, std::vector<std::string>{sha256Hex("#define A 1\n#define B 2")});
}

TEST_F(SourcePolicy, NestedIncludesResolveFromTheIncludingFile) {
  write("kernels/sub/a.h", "#include \"b.h\"\nint a;\n");
  write("kernels/sub/b.h", "int b;\n");
  write("kernels/k.cl", "#include \"sub/a.h\"\n");
  const KernelSource s = load();
  EXPECT_EQ(s.problem, "");
  EXPECT_NE(s.text.find("#line 1 \"sub/b.h\"\nint b;\n#line 2 \"sub/a.h\"\nint a;\n"), std::string::npos) << s.text;
}

TEST_F(SourcePolicy, AHeaderIncludedTwiceIsNotACycle) {
  write("kernels/h.h", "#ifndef H\n#define H\nint h;\n#endif\n");
  write("kernels/k.cl", "#include \"h.h\"\n#include \"h.h\"\n");
  EXPECT_EQ(load().problem, "");
}

TEST_F(SourcePolicy, ForbiddenIncludesAreRefusedNamingLineAndDirective) {
  struct Case {
    std::string source, message;
  };
  write("outside/secret.h", "int secret;\n");
  fs::create_symlink(root_ / "outside" / "secret.h", root_ / "kernels" / "link.h");
  write("kernels/self.h", "#include \"self.h\"\n");
  const std::vector<Case> cases{
      {"#include \"/etc/passwd\"\n", "k.cl line 1: #include \"/etc/passwd\" is refused: an absolute path"},
      {"\n#include \"../outside/secret.h\"\n",
       "k.cl line 2: #include \"../outside/secret.h\" is refused: \"..\" leaves"},
      {"#include <stdio.h>\n", "k.cl line 1: #include <stdio.h> is refused: system headers"},
      {"#define F \"x.h\"\n#include F\n", "k.cl line 2: #include F is refused: a computed #include"},
      {"#include \"nothere.h\"\n", "is refused: there is no such file in the kernels folder"},
      {"#include \"link.h\"\n", "is refused: it is a symbolic link to a file outside the kernels folder"},
      {"#include \"self.h\"\n",
       "self.h line 1 (included from k.cl line 1): #include \"self.h\" is refused: an include cycle (self.h -> "
       "self.h)"},
      {"#include_next \"x.h\"\n", "#include_next is not OpenCL C"},
      {"#import \"x.h\"\n", "#import is not OpenCL C"},
      // Directives hidden by splices, comments, digraphs and trigraphs are directives all the same.
      {"#\\\ninclude \"/etc/passwd\"\n", "k.cl line 1: #include \"/etc/passwd\""},
      {"/* a */ # /* b */ include \"/etc/passwd\"\n", "an absolute path"},
      {"/* two\nlines */ #include \"/etc/passwd\"\n", "an absolute path"},
      {"%:include \"/etc/passwd\"\n", "an absolute path"},
      {"?\?=include \"/etc/passwd\"\n", "an absolute path"},
      {"#include /* c\n */ \"/etc/passwd\"\n", "an absolute path"},
  };
  for (const Case& c : cases) {
    write("kernels/k.cl", c.source);
    const KernelSource s = load();
    EXPECT_NE(s.problem.find(c.message), std::string::npos) << c.source << "\n  -> " << s.problem;
    EXPECT_EQ(s.text, "") << c.source;
  }
}

// A compiler asked whether a file exists answers about the grading machine (clang-15 evaluates all
// of these, the pasted one included): each is refused like an #include of a file outside the folder.
TEST_F(SourcePolicy, FileProbesAreRefusedLikeAnOutsideInclude) {
  struct Case {
    std::string source, message;
  };
  const std::vector<Case> cases{
      {"#if __has_include(\"/etc/shadow\")\n#endif\n",
       "k.cl line 1: #if __has_include(\"/etc/shadow\") is refused: __has_include asks the compiler whether a file "
       "exists"},
      {"int a;\n#if __has_include_next(<stdio.h>)\n#endif\n",
       "k.cl line 2: #if __has_include_next(<stdio.h>) is refused"},
      {"#if __has_embed(\"/etc/shadow\")\n#endif\n", "__has_embed asks the compiler"},
      {"#define H __has_include\n#if H(\"/etc/shadow\")\n#endif\n", "k.cl line 1: #define H __has_include is refused"},
      {"#define H __has_\\\ninclude\n", "k.cl line 1: #define H __has_include is refused"},
      {"#if __has_include/* c */(\"/etc/shadow\")\n#endif\n", "__has_include asks"},
      {"#define CAT(a, b) a##b\n#if CAT(__has_, include)(\"/etc/shadow\")\n#endif\n",
       "k.cl line 1: #define CAT(a, b) a##b is refused: token pasting (##) could build __has_include"},
      {"#define CAT(a, b) a%:%:b\nCAT(_Prag, ma)(\"unroll\")\n", "token pasting (##) could build _Pragma"},
      {"#pragma GCC dependency \"/etc/shadow\"\n",
       "k.cl line 1: #pragma GCC dependency \"/etc/shadow\" is refused: a pragma naming 'dependency'"},
      {"#pragma GCC dependency \"shadow\"\n", "a pragma naming 'dependency'"},
      {"# /* x */ pragma \\\n GCC dependency \"a.h\"\n", "a pragma naming 'dependency'"},
      {"#pragma include_alias(\"a.h\", \"b.h\")\n", "a pragma naming 'include_alias'"},
      {"#pragma clang module import foo\n", "a pragma naming 'module'"},
      {"#pragma message(\"/etc/shadow\")\n", "a pragma naming a path"},
      {"_Pragma(\"GCC dependency \\\"/etc/shadow\\\"\")\n", "k.cl line 1: _Pragma"},
      {"_Pragma(\n\"GCC dependency \\\"x\\\"\")\n", "a pragma naming 'dependency'"},
      {"#define P(x) _Pragma(#x)\nP(GCC dependency \"/etc/shadow\")\n",
       "k.cl line 1: #define P(x) _Pragma(#x) is refused: a pragma naming 'dependency'"},
      {"#define P(x) _Pragma(#x)\n#define C(a, b) a##b\nP(C(GCC dep, endency) \"a.h\")\n",
       "in a source that pastes tokens (##), could spell any pragma"},
      {"#embed \"/etc/shadow\"\n", "#embed reads a file"},
  };
  for (const Case& c : cases) {
    write("kernels/k.cl", c.source);
    const KernelSource s = load();
    EXPECT_NE(s.problem.find(c.message), std::string::npos) << c.source << "\n  -> " << s.problem;
    EXPECT_NE(s.problem.find("the compiler may not look for files"), std::string::npos) << s.problem;
    EXPECT_EQ(s.text, "") << c.source;
    EXPECT_NE(refuseSource(c.source), "") << c.source;
  }
  // In an included file too, named as includes are.
  write("kernels/probe.h", "#if __has_include(\"/etc/shadow\")\n#endif\n");
  write("kernels/k.cl", "#include \"probe.h\"\n");
  EXPECT_NE(load().problem.find("probe.h line 1 (included from k.cl line 1): #if __has_include"), std::string::npos)
      << load().problem;
}

TEST_F(SourcePolicy, HarmlessPragmasAndPastingAreAccepted) {
  const std::string text =
      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma unroll\n#pragma unroll 4\n"
      "#pragma GCC system_header\n_Pragma(\"unroll\")\n#define CAT(a, b) a##b\nint CAT(tile, 0);\n"
      "// #if __has_include(\"/etc/shadow\") in a comment\nconstant char* s = \"__has_include\";\n";
  write("kernels/k.cl", text);
  const KernelSource s = load();
  EXPECT_EQ(s.problem, "");
  EXPECT_EQ(s.text, text);
  // Found by an honest corpus: `#pragma unroll N` written through a macro (refused before).
  write("kernels/k.cl", "#define PRAGMA(x) _Pragma(#x)\n#define UNROLL(n) PRAGMA(unroll n)\nvoid f() { UNROLL(4) }\n");
  EXPECT_EQ(load().problem, "");
}

// Spec 5c: every build hides the compilers' predefined macros the source names; one pasted together
// with ## is not named, so pasting in a source that spells a name starting with an underscore (the
// first piece of any reserved name) is refused, saying why and what to do.
TEST_F(SourcePolicy, PastingThatCouldBuildAPredefinedMacroIsRefused) {
  write("kernels/k.cl", "#define C(a, b) a##b\n#if C(__SIZEOF_INT, 128__)\n#define TILE 1\n#endif\n");
  const KernelSource s = load();
  EXPECT_NE(s.problem.find("k.cl line 1: #define C(a, b) a##b is refused: token pasting (##) in this source "
                           "could paste __SIZEOF_INT into a compiler's predefined macro"),
            std::string::npos)
      << s.problem;
  EXPECT_EQ(s.problem.find("#include"), std::string::npos) << s.problem;  // no advice about includes
}

// Found by an intake corpus: a comment ended by a lone carriage return hid the #include after it
// from clgrade, which ended lines at \n only; Clang ends them at \r too, and read the file (full
// marks with a header's macro, a file's text in the build log).
TEST_F(SourcePolicy, ALoneCarriageReturnEndsALineAsItDoesForTheCompiler) {
  write("kernels/k.cl", "// my helpers\r#include \"/etc/passwd\"\n__kernel void k() {}\n");
  const KernelSource s = load();
  EXPECT_NE(s.problem.find("k.cl line 2: #include \"/etc/passwd\" is refused"), std::string::npos) << s.problem;
  write("kernels/k.cl", "// old Mac\r#define A 1\\\r+ 1\r__kernel void k() {}\r");
  EXPECT_EQ(load().problem, "");
  write("kernels/k.cl", "// Windows\r\n#define A 1\r\n__kernel void k() {}\r\n");
  EXPECT_EQ(load().problem, "");
}

// Found by an honest corpus: an include guard that starts with an underscore refused every ## of
// the file (task 1: 0 of 5 points); only what a paste can start with matters.
TEST_F(SourcePolicy, PastingIsJudgedByWhatItPastesNotByTheFilesOtherNames) {
  write("kernels/k.cl",
        "#ifndef _CONVOLUTION3X3_CL_\n#define _CONVOLUTION3X3_CL_\n#define KIDX(name) k_##name\n"
        "__kernel void k() { float KIDX(sum) = 0, KIDX(centre) = 1; }\n#endif\n");
  EXPECT_EQ(load().problem, "");
  // An extension macro pasted from pieces, through a macro that calls the one that pastes.
  write("kernels/k.cl", "#define CAT(a, b) a##b\n#define XCAT(a, b) CAT(a, b)\n#if XCAT(cl_, khr_fp64)\n#endif\n");
  EXPECT_NE(load().problem.find("could paste cl_ ## khr_fp64 into a compiler's predefined macro"), std::string::npos)
      << load().problem;
  // From a review: an argument's last token is pasted, a digraph defines as # does, and c ## l_...
  // spells an extension macro too.
  for (const char* text : {"#define CAT(a, b) a##b\n#if CAT(0 + __MM, X__)\n#endif\n",
                           "%:define CAT(a, b) a%:%:b\n#define P __MM\n#if CAT(P, X__)\n#endif\n",
                           "#define CAT(a, b) a##b\n#if CAT(c, l_khr_fp64)\n#endif\n",
                           "#define CAT(a, b) a##b\n#if CAT(C, LK_sRGB)\n#endif\n"}) {
    write("kernels/k.cl", text);
    const std::string problem = load().problem;
    EXPECT_TRUE(problem.find("could build ") != std::string::npos || problem.find("could paste ") != std::string::npos)
        << text;
  }
  EXPECT_NE(load().problem.find("could build CLK_sRGB, which OpenCL implementations define differently"),
            std::string::npos)
      << load().problem;
}

// Found by an honest corpus: a paste was refused for any name that started with an underscore or
// cl_, or for c beside any l_ name, though none of them could start a predefined macro (three tasks at
// 0). Only pieces that spell the start of a reserved __x name, of a vendor's extension macro, or all of a
// known _X name are refused.
TEST_F(SourcePolicy, OnlyPiecesThatCouldStartAPredefinedMacroRefuseAPaste) {
  for (const char* text :
       {"#define TAP(i, j) (l_tile[i][j] * w##i##j)\nvoid f(int c) {}\n",
        "#define GS(P, A) P##_GROUPSIZE_##A\n#define STEPS(P) P##_RESULT_STEPS\n__local float l_Data[4]; int c;\n",
        "#define _CAT(a, b) a##b\n#define CAT(a, b) _CAT(a, b)\n", "#define K(n) cl_tile_##n\n"}) {
    write("kernels/k.cl", text);
    EXPECT_EQ(load().problem, "") << text;
  }
  for (const char* text :
       {"#define P(a, b, c) a##b##c\n#if P(c, l, _khr_fp64)\n#endif\n",
        "#define P(a, b) a##b\n#if P(cl_khr_fp, 64)\n#endif\n",
        "#define P(a, b) a##b\n#if P(_, _clang_major__)\n#endif\n", "#define P(a, b) a##b\n#if P(_L, P64)\n#endif\n",
        "#define P(a, b) a##b\n#if P(c, l_nv_compiler_options)\n#endif\n"}) {
    write("kernels/k.cl", text);
    EXPECT_NE(load().problem.find("into a compiler's predefined macro"), std::string::npos) << text;
  }
}

// Found by a review: the ## in a header, the pieces in the kernel file; each file alone was fine.
TEST_F(SourcePolicy, APasteIsJudgedWithTheFilesItIncludes) {
  write("kernels/cat.h", "#define C2(a, b) a##b\n#define C(a, b) C2(a, b)\n");
  write("kernels/k.cl", "#include \"cat.h\"\n#if C(__AVX512, BW__)\n#endif\n");
  const KernelSource s = load();
  EXPECT_NE(s.problem.find("k.cl with the files it includes"), std::string::npos) << s.problem;
  EXPECT_NE(s.problem.find("into a compiler's predefined macro"), std::string::npos) << s.problem;
  write("kernels/k.cl", "#include \"cat.h\"\nint C(tile, 0);\n");
  EXPECT_EQ(load().problem, "");
}

TEST_F(SourcePolicy, IncludeInsideCommentsAndStringsIsNotADirective) {
  write("kernels/k.cl",
        "// #include \"/etc/passwd\"\n/* #include \"/etc/passwd\" */\nconstant char* s = \"#include </x>\";\n"
        "int a; #include \"/etc/passwd\"\n");
  EXPECT_EQ(load().problem, "");
}

TEST_F(SourcePolicy, DeepNestingIsRefused) {
  for (int i = 0; i < 20; ++i)
    write("kernels/h" + std::to_string(i) + ".h", "#include \"h" + std::to_string(i + 1) + ".h\"\n");
  write("kernels/h20.h", "int deep;\n");
  write("kernels/k.cl", "#include \"h0.h\"\n");
  EXPECT_NE(load().problem.find("nest deeper than 16 levels"), std::string::npos) << load().problem;
}

TEST_F(SourcePolicy, AnIncludeBombIsStoppedByTheSizeLimit) {
  // Each level includes the next twice: 2^15 copies of 100 bytes, 3 MiB once expanded.
  for (int i = 0; i < 15; ++i)
    write("kernels/b" + std::to_string(i) + ".h",
          "#include \"b" + std::to_string(i + 1) + ".h\"\n#include \"b" + std::to_string(i + 1) + ".h\"\n");
  write("kernels/b15.h", std::string(99, '/') + "\n");
  write("kernels/k.cl", "#include \"b0.h\"\n");
  EXPECT_NE(load().problem.find("larger than 1.0 MiB once its #include files are expanded"), std::string::npos)
      << load().problem;
}

TEST_F(SourcePolicy, FilesThatAreNotPlainSourcesAreRefused) {
  EXPECT_EQ(load("missing.cl").problem, "missing.cl is missing from the kernels folder");
  EXPECT_FALSE(load("missing.cl").present);
  fs::create_directories(root_ / "kernels" / "dir.cl");
  EXPECT_EQ(load("dir.cl").problem, "dir.cl is a folder, not a kernel source file");
  ASSERT_EQ(mkfifo((root_ / "kernels" / "fifo.cl").c_str(), 0644), 0);
  EXPECT_NE(load("fifo.cl").problem.find("is not a regular file"), std::string::npos);
  fs::create_symlink("/etc/hostname", root_ / "kernels" / "out.cl");
  EXPECT_EQ(load("out.cl").problem,
            "out.cl is a symbolic link to /etc/hostname, outside the kernels folder; submit the file itself");
  fs::create_symlink("nowhere.cl", root_ / "kernels" / "dangling.cl");
  EXPECT_NE(load("dangling.cl").problem.find("a symbolic link to a file that does not exist"), std::string::npos);
  write("kernels/real.cl", "int r;\n");
  fs::create_symlink("real.cl", root_ / "kernels" / "inside.cl");
  EXPECT_EQ(load("inside.cl").problem, "");  // a link within the folder is fine
  write("kernels/nul.cl", std::string("int a;\0int b;\n", 14));
  EXPECT_EQ(load("nul.cl").problem, "nul.cl contains NUL bytes; it is not OpenCL C source");
  write("kernels/big.cl", std::string(3 << 20, ' '));
  EXPECT_EQ(
      load("big.cl").problem,
      "big.cl is 3.0 MiB; kernel sources over 1.0 MiB are refused (the limit protects the compiler and the report)");
}

TEST(RefuseSource, AnyIncludeWithoutAFolderIsRefused) {
  EXPECT_NE(refuseSource("#include \"a.h\"\n").find("line 1: #include \"a.h\" is refused"), std::string::npos);
  EXPECT_EQ(refuseSource("__kernel void k() {}\n"), "");
}

}  // namespace
}  // namespace clgrade
