// NVIDIA OpenCL program binaries (PTX text) made loadable by the CUDA driver, so a launch can be
// replayed where NVIDIA's profiler sees it (it does not see OpenCL kernels).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace clgrade {

/// True when an OpenCL program binary is NVIDIA PTX (what CL_PROGRAM_BINARIES holds on NVIDIA).
bool isNvidiaPtx(const std::string& binary);

/// Makes NVIDIA OpenCL PTX loadable by cuModuleLoadData: strips NUL bytes, replaces every
/// `%envregN` with 0 (the OpenCL driver's global and group offsets, zero without a global offset),
/// drops the trailing `.metadata_section { ... }`, which ptxas does not know, and declares the
/// functions it only names `.extern` (declareBodilessFunctionsExtern).
std::string patchPtx(const std::string& binary);

/// `ptx` with `.extern` put before every module-scope `.func` prototype that has no linkage and whose
/// function the module does not define. NVIDIA's OpenCL compiler declares the printf it links itself
/// as a bare `.func (...) vprintf (...);`, which its own driver accepts; the CUDA driver crashed
/// (SIGSEGV inside cuModuleGetFunction, on an H200 with driver 580) JIT-compiling a module with one,
/// so every kernel that calls printf took down its counters session. CUDA's own PTX declares the same
/// function `.extern .func`.
std::string declareBodilessFunctionsExtern(const std::string& ptx);

/// Where a kernel parameter points, as its `.param` line says.
enum class PtxSpace { Value, Global, Constant, Shared };

/// One `.param` of an `.entry`.
struct PtxParam {
  std::string name;  ///< e.g. Convolution_param_2
  PtxSpace space = PtxSpace::Value;
  size_t bytes = 0;  ///< size of the parameter itself (8 for a 64-bit pointer)
};

struct PtxEntry {
  std::string name;
  std::vector<PtxParam> params;
};

/// `ptx` with `prefix` put before the name of every `.entry` (the kernels' other symbols keep theirs).
std::string prefixPtxEntries(const std::string& ptx, const std::string& prefix);

/// `ptx` without the `.entry` kernels `keep` refuses (each one's declaration and body, their lines
/// left empty so that every other line keeps its number; the module's functions and variables
/// stay), so that a counted copy is compiled for the kernels counted alone:
/// the JIT of an instrumented kernel is most of a counters session (2.4 s for the bilateral
/// reference's four kernels on an H200). False, *out untouched, where an entry's body cannot be
/// told from the text around it, or the text holds a block comment or inline assembly (which could
/// make a counted kernel's own code look like another entry).
bool keepPtxEntries(const std::string& ptx, const std::function<bool(const std::string&)>& keep, std::string* out);

/// The kernels of a PTX module and their parameters, in order.
std::vector<PtxEntry> ptxEntries(const std::string& ptx);

/// `decls` (module-scope declarations) put after the module's `.address_size` line, where PTX wants
/// them; false with a message when there is none.
bool declareAfterAddressSize(std::string* ptx, const std::string& decls, std::string* err);

/// Module-scope symbols that rebasePointerParams adds.
extern const char* const kDynamicSharedSymbol;  ///< `.extern .shared` array: the __local arguments
extern const char* const kConstantSymbol;       ///< `.const` array: the __constant arguments
constexpr size_t kConstantBytes = 32768;        ///< size of kConstantSymbol; half the constant bank

/// NVIDIA's OpenCL passes __constant and __local pointer parameters as addresses in the constant
/// and shared windows, which a CUDA host cannot know. This rewrites every `ld.param` of such a
/// parameter so that the value passed becomes a byte OFFSET into kConstantSymbol (for __constant)
/// or into dynamic shared memory (for __local): the kernel adds the symbol's address itself.
/// False with a message when a parameter is used in a way other than one plain `ld.param`.
bool rebasePointerParams(const std::string& ptx, std::string* out, std::string* err);

/// A line of PTX without the blanks around it (spaces, tabs, a carriage return).
std::string trimmedLine(const std::string& s);

}  // namespace clgrade
