#include "intake/compiler_identity.h"

#include <set>
#include <string>
#include <vector>

#include "intake/pp_lexer.h"

namespace clgrade {
namespace {

/// The prelude's first line; the names after it are the ones the source spells.
constexpr const char* kMarker = "// clgrade hides compiler-identifying macros from every build (spec 5c):";

/// Predefined macros that tell a compiler, its version, its target or its vendor apart, hidden
/// whether the source spells them or not (a kernel may paste one together with ##).
const std::set<std::string>& wellKnown() {
  static const std::set<std::string> names{
      // Compilers and versions.
      "__clang__", "__clang_major__", "__clang_minor__", "__clang_patchlevel__", "__clang_version__", "__llvm__",
      "__GNUC__", "__GNUC_MINOR__", "__GNUC_PATCHLEVEL__", "__GNUC_STDC_INLINE__", "__VERSION__", "__STDC_VERSION__",
      "__EDG__", "__NVCC__", "__CUDACC__", "__OPTIMIZE__", "__NO_INLINE__", "__FINITE_MATH_ONLY__",
      // Clang's function-like probes (the file probes __has_include... are refused by the source policy).
      "__has_builtin", "__has_feature", "__has_extension", "__has_attribute", "__has_c_attribute",
      "__has_cpp_attribute", "__has_declspec_attribute", "__has_warning", "__is_identifier", "__is_target_arch",
      "__is_target_vendor", "__is_target_os", "__is_target_environment",
      // Targets.
      "__SPIR__", "__SPIR32__", "__SPIR64__", "__SPIRV__", "__SPIRV32__", "__SPIRV64__", "__x86_64__", "__x86_64",
      "__amd64__", "__amd64", "__i386__", "__i386", "__i686__", "__aarch64__", "__arm__", "__riscv", "__powerpc64__",
      "__NVPTX__", "__PTX__", "__AMDGCN__", "__AMDGPU__", "__R600__", "__AMD__", "__GPU__", "__CPU__", "__SSE__",
      "__SSE2__", "__SSE3__", "__SSSE3__", "__SSE4_1__", "__SSE4_2__", "__AVX__", "__AVX2__", "__AVX512F__",
      "__FMA__", "__F16C__", "__LP64__", "_LP64", "__ILP32__", "__ELF__", "__linux__", "__linux", "__gnu_linux__",
      "__unix__", "__unix", "__BIGGEST_ALIGNMENT__", "__SIZEOF_POINTER__", "__SIZEOF_LONG__", "__SIZEOF_SIZE_T__",
      "__POINTER_WIDTH__", "__BYTE_ORDER__",
      // OpenCL's version and device macros, and vendors' own.
      "__OPENCL_VERSION__", "__OPENCL_C_VERSION__", "__OPENCL_CPP_VERSION__", "__IMAGE_SUPPORT__",
      "__ENDIAN_LITTLE__", "__NV_CL_C_VERSION", "__opencl_c_images", "__opencl_c_3d_image_writes",
      "__opencl_c_read_write_images", "__opencl_c_fp64", "__opencl_c_fp16", "__opencl_c_int64",
      "__opencl_c_generic_address_space", "__opencl_c_program_scope_global_variables", "__opencl_c_subgroups",
      "__opencl_c_work_group_collective_functions", "__opencl_c_pipes", "__opencl_c_device_enqueue",
      "__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device",
      "__opencl_c_atomic_scope_all_devices",
      // Extension macros: which ones a device defines tells devices apart.
      "cl_khr_fp64", "cl_khr_fp16", "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics",
      "cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics", "cl_khr_local_int32_base_atomics",
      "cl_khr_local_int32_extended_atomics", "cl_khr_byte_addressable_store", "cl_khr_3d_image_writes",
      "cl_khr_subgroups", "cl_khr_depth_images", "cl_khr_mipmap_image", "cl_khr_spir", "cl_khr_il_program",
      "cl_nv_pragma_unroll", "cl_nv_compiler_options", "cl_nv_device_attribute_query", "cl_nv_copy_opts",
      "cl_nv_create_buffer", "cl_amd_media_ops", "cl_amd_media_ops2", "cl_amd_printf", "cl_intel_subgroups",
      "cl_intel_required_subgroup_size", "cl_ext_float_atomics", "cl_clang_storage_class_specifiers",
      "cl_pocl_content_size"};
  return names;
}

/// Extensions every device clgrade grades on (PoCL's CPU device, NVIDIA's GPUs) and the simulator
/// report: defined as 1 in every build rather than hidden, since no device tells apart by them and a
/// kernel may need one (the usual `#if defined(cl_khr_fp64) ... #else #error` guard before doubles:
/// found by an honest corpus, the whole task failed to build while its macro was hidden).
const std::set<std::string>& sharedExtensions() {
  static const std::set<std::string> names{"cl_khr_fp64",
                                           "cl_khr_byte_addressable_store",
                                           "cl_khr_global_int32_base_atomics",
                                           "cl_khr_global_int32_extended_atomics",
                                           "cl_khr_local_int32_base_atomics",
                                           "cl_khr_local_int32_extended_atomics"};
  return names;
}

/// Reserved spellings the language needs: qualifiers and keywords (a compiler may define one as a
/// macro), the builtin macros, and what the build options or the spec define the same everywhere.
const std::set<std::string>& needed() {
  static const std::set<std::string> names{
      "__kernel", "__global", "__local", "__constant", "__private", "__generic", "__read_only", "__write_only",
      "__read_write", "__attribute__", "__attribute", "__restrict", "__restrict__", "__inline", "__inline__",
      "__const", "__const__", "__signed", "__signed__", "__volatile", "__volatile__", "__alignof", "__alignof__",
      "__typeof", "__typeof__", "__asm", "__asm__", "__extension__", "__func__", "__FUNCTION__",
      "__PRETTY_FUNCTION__", "__LINE__", "__FILE__", "__DATE__", "__TIME__", "__COUNTER__", "__VA_ARGS__",
      "__VA_OPT__", "__INCLUDE_LEVEL__", "__BASE_FILE__", "__FAST_RELAXED_MATH__", "__kernel_exec", "__auto_type",
      "__label__", "__real__", "__imag__", "__real", "__imag", "__complex__", "__null", "__int128", "__fp16",
      "__bf16", "__thread", "_Bool", "_Complex", "_Imaginary", "_Noreturn", "_Static_assert", "_Alignas",
      "_Alignof", "_Atomic", "_Generic", "_Pragma", "_Thread_local", "_Float16"};
  return names;
}

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

bool endsWith(const std::string& s, const char* suffix) {
  const size_t n = std::char_traits<char>::length(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

/// A macro of the OpenCL C headers that one implementation defines and another does not (found by a
/// gaming corpus: PoCL defines CLK_sRGB and ATOMIC_VAR_INIT, Oclgrind M_PI_H and HALF_MAX): image
/// channel orders and types, samplers, device enqueue, OpenCL 2.0 atomics, half precision, fast fma.
/// None serves this assignment's buffers; the fences barrier() takes are the same everywhere.
bool headerMacroThatDiffers(const std::string& name) {
  if (name == "CLK_LOCAL_MEM_FENCE" || name == "CLK_GLOBAL_MEM_FENCE") return false;
  return startsWith(name, "CLK_") || startsWith(name, "ATOMIC_") || startsWith(name, "HALF_") || name == "MAXHALF" ||
         (startsWith(name, "M_") && endsWith(name, "_H")) || startsWith(name, "FP_FAST_FMA");
}

/// A name C reserves for the implementation (`__x`, `_X`), an OpenCL extension macro (`cl_x_y`) or a
/// header macro that differs between implementations, not one the language needs nor a builtin
/// function (undefining those would change nothing).
bool identifying(const std::string& name) {
  const bool reserved =
      name.size() > 1 && name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z'));
  const bool extension = startsWith(name, "cl_") && name.find('_', 3) != std::string::npos;
  if (headerMacroThatDiffers(name)) return true;
  if (!reserved && !extension) return false;
  if (needed().count(name)) return false;
  for (const char* function : {"__builtin_", "__atomic_", "__c11_", "__opencl_atomic_", "__sync_", "__nvvm_"})
    if (startsWith(name, function)) return false;
  return true;
}

/// The identifying names `source` spells (comments left out, as the compiler does).
std::set<std::string> spelled(const std::string& source) {
  std::set<std::string> names;
  const std::vector<pp::LogicalLine> lines = pp::logicalLines(source);
  std::vector<pp::Token> tokens;
  for (size_t i = 0; i < lines.size(); ++i) {
    tokens.clear();
    pp::tokenize(lines[i].text, i, &tokens);
    for (const pp::Token& t : tokens)
      if (t.kind == pp::Token::Identifier && identifying(t.text)) names.insert(t.text);
  }
  return names;
}

}  // namespace

namespace {

/// The beginnings every family of predefined macros shares, which `##` could build the rest of from
/// any pieces: the reserved `__x` names (compilers', targets', OpenCL's feature macros) and each
/// vendor's extension macros (`cl_khr_...`). A single-underscore name (`_LP64`) is a known name, not a
/// family: `_CAT` or `_GROUPSIZE_` starts none.
const std::vector<std::string>& macroFamilies() {
  static const std::vector<std::string> starts{
      "__",        "cl_khr_",  "cl_ext_",  "cl_amd_",    "cl_nv_",      "cl_nvidia_", "cl_intel_",
      "cl_arm_",   "cl_img_",  "cl_qcom_", "cl_altera_", "cl_APPLE_",   "cl_apple_",  "cl_pocl_",
      "cl_clang_", "cl_mesa_", "cl_sony_", "cl_xilinx_", "cl_vivante_", "cl_loader_", "cl_exp_"};
  return starts;
}

/// Pieces that spell `target` one after another, the first way found; empty when none do. Whole:
/// two pieces or more, ending exactly at its end. Else its start (a family's): the last piece reaches
/// its end or past it (whatever follows, any piece, a number too, makes a name of the family:
/// `cl_khr_fp ## 64`), and a single piece that already starts with it is one.
std::vector<std::string> piecesSpelling(const std::string& target, const std::set<std::string>& pieces, bool whole) {
  // route[i]: the pieces that spell target[0, i), for the first way found.
  std::vector<std::vector<std::string>> route(target.size() + 1);
  std::vector<bool> reached(target.size() + 1, false);
  reached[0] = true;
  for (size_t i = 0; i < target.size(); ++i) {
    if (!reached[i]) continue;
    const std::string rest = target.substr(i);
    for (const std::string& p : pieces) {
      if (p.empty()) continue;
      std::vector<std::string> with = route[i];
      with.push_back(p);
      if (!whole && p.compare(0, rest.size(), rest) == 0) return with;
      if (rest.compare(0, p.size(), p) != 0) continue;
      if (whole && p.size() == rest.size() && with.size() >= 2) return with;
      if (!reached[i + p.size()]) {
        reached[i + p.size()] = true;
        route[i + p.size()] = with;
      }
    }
  }
  return {};
}

}  // namespace

std::vector<std::string> pastedMacroStart(const std::set<std::string>& pieces) {
  std::set<std::string> usable;
  for (const std::string& p : pieces)
    if (!needed().count(p)) usable.insert(p);
  for (const std::string& family : macroFamilies())
    if (std::vector<std::string> route = piecesSpelling(family, usable, false); !route.empty()) return route;
  // Names of no family, each spelled whole by two pieces or more (`_L ## P64`).
  for (const std::string& name : wellKnown()) {
    if (name.size() < 2 || name[0] != '_' || name[1] == '_') continue;
    if (std::vector<std::string> route = piecesSpelling(name, usable, true); !route.empty()) return route;
  }
  return {};
}

const std::vector<std::string>& differingHeaderMacros() {
  // What the OpenCL headers of PoCL and Oclgrind define apart (listed by a gaming corpus's probe),
  // and their families' usual members.
  static const std::vector<std::string> names{"CLK_sRGB",
                                              "CLK_sRGBA",
                                              "CLK_sRGBx",
                                              "CLK_sBGRA",
                                              "CLK_ABGR",
                                              "CLK_DEPTH",
                                              "CLK_DEPTH_STENCIL",
                                              "CLK_NULL_RESERVE_ID",
                                              "CLK_NULL_QUEUE",
                                              "CLK_NULL_EVENT",
                                              "CLK_ENQUEUE_FLAGS_NO_WAIT",
                                              "CLK_ENQUEUE_FLAGS_WAIT_KERNEL",
                                              "CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP",
                                              "ATOMIC_VAR_INIT",
                                              "ATOMIC_FLAG_INIT",
                                              "HALF_MAX",
                                              "HALF_MIN",
                                              "HALF_EPSILON",
                                              "HALF_DIG",
                                              "HALF_MANT_DIG",
                                              "MAXHALF",
                                              "M_PI_H",
                                              "M_E_H",
                                              "FP_FAST_FMA",
                                              "FP_FAST_FMAF",
                                              "FP_FAST_FMA_HALF"};
  return names;
}

std::set<std::string> includeGuardNames(const std::string& source) {
  // Every identifier with the directives it appears in; a guard's appear in guard lines only.
  const std::vector<pp::LogicalLine> lines = pp::logicalLines(source);
  std::set<std::string> guards, elsewhere;
  std::vector<pp::Token> t;
  for (size_t i = 0; i < lines.size(); ++i) {
    t.clear();
    pp::tokenize(lines[i].text, i, &t);
    const bool directive = t.size() >= 2 && t[0].text == "#";
    const std::string kind = directive ? t[1].text : "";
    // #ifndef X, #ifdef X, #undef X, #define X (nothing after it): three tokens, the name last.
    const bool guardLine = t.size() == 3 && t[2].kind == pp::Token::Identifier &&
                           (kind == "ifndef" || kind == "ifdef" || kind == "undef" || kind == "define");
    // A #pragma's names are not expanded (`#pragma OPENCL EXTENSION cl_khr_fp64 : enable`).
    const bool pragma = kind == "pragma";
    for (size_t j = 0; j < t.size(); ++j)
      if (t[j].kind == pp::Token::Identifier && !(directive && j == 1))
        ((guardLine && j == 2) || pragma ? guards : elsewhere).insert(t[j].text);
  }
  std::set<std::string> only;
  for (const std::string& name : guards)
    if (!elsewhere.count(name)) only.insert(name);
  return only;
}

std::vector<std::string> compilerIdentityNames(const std::string& source) {
  std::set<std::string> names = spelled(source);
  names.insert(wellKnown().begin(), wellKnown().end());
  return {names.begin(), names.end()};
}

std::string hideCompilerIdentity(const std::string& source, const std::string& fileName) {
  // Never "already hidden": a source that starts with the marker line is the student's own text.
  std::string prelude = kMarker;
  for (const std::string& name : spelled(source))
    if (!sharedExtensions().count(name)) prelude += " " + name;
  prelude += "\n";
  // Clang warns for each builtin one (__has_builtin...) undefined; the student's code is not the cause.
  prelude += "#pragma clang diagnostic push\n#pragma clang diagnostic ignored \"-Wbuiltin-macro-redefined\"\n";
  for (const std::string& name : compilerIdentityNames(source))
    prelude += "#undef " + name + "\n" + (sharedExtensions().count(name) ? "#define " + name + " 1\n" : "");
  prelude += "#pragma clang diagnostic pop\n";
  return prelude + "#line 1" + (fileName.empty() ? "" : " \"" + fileName + "\"") + "\n" + source;
}

std::string hiddenMacroNote(const std::string& built) {
  if (!startsWith(built, kMarker)) return "";
  const size_t from = std::string(kMarker).size();
  const std::string spelledNames = built.substr(from, built.find('\n') - from);
  if (spelledNames.empty()) return "";
  std::string note =
      "clgrade: every build hides the compilers' own predefined macros (their versions, targets, vendors and "
      "extensions), so that the simulator and the graded device compile the same code (spec 5c); a kernel that "
      "uses one finds it not defined on every device. This source names:";
  return note + (spelledNames.size() > 300 ? spelledNames.substr(0, 297) + "..." : spelledNames);
}

}  // namespace clgrade
