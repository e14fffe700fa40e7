// The natural loops of the functions a kernel runs, from LLVM's LoopInfo, computed the first time
// a function is seen. One cache per worker thread (no locks on the interpreter's hot path); cleared
// for each kernel launch, as a released program's functions may be freed and their addresses reused.
#pragma once

#include <memory>
#include <unordered_map>

namespace llvm {
class BasicBlock;
class Function;
class Loop;
}  // namespace llvm

namespace clgrade::counters {

class LoopCache {
 public:
  LoopCache();
  ~LoopCache();
  /// The loop whose header `block` is; nullptr if it heads none.
  const llvm::Loop* loopHeadedBy(const llvm::BasicBlock* block);
  void clear();

 private:
  struct FunctionLoops;
  FunctionLoops* loopsOf(const llvm::Function* function);

  std::unordered_map<const llvm::Function*, std::unique_ptr<FunctionLoops>> functions_;
  const llvm::Function* lastFunction_ = nullptr;  // most lookups are in the function of the last one
  FunctionLoops* last_ = nullptr;
};

}  // namespace clgrade::counters
