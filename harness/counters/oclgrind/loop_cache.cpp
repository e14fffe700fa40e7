#include "loop_cache.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>

namespace clgrade::counters {

struct LoopCache::FunctionLoops {
  llvm::DominatorTree dominators;
  llvm::LoopInfo loops;
  // LLVM's analyses take a non-const function; they only read it.
  explicit FunctionLoops(const llvm::Function& f) : dominators(const_cast<llvm::Function&>(f)), loops(dominators) {}
};

LoopCache::LoopCache() = default;
LoopCache::~LoopCache() = default;

LoopCache::FunctionLoops* LoopCache::loopsOf(const llvm::Function* function) {
  if (function == lastFunction_) return last_;
  std::unique_ptr<FunctionLoops>& entry = functions_[function];
  if (!entry) entry = std::make_unique<FunctionLoops>(*function);
  lastFunction_ = function;
  last_ = entry.get();
  return last_;
}

const llvm::Loop* LoopCache::loopHeadedBy(const llvm::BasicBlock* block) {
  const llvm::Loop* loop = loopsOf(block->getParent())->loops.getLoopFor(block);
  return loop && loop->getHeader() == block ? loop : nullptr;
}

void LoopCache::clear() {
  functions_.clear();
  lastFunction_ = nullptr;
  last_ = nullptr;
}

}  // namespace clgrade::counters
