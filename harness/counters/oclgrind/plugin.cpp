// The Oclgrind side: hooks that feed the tallies, one results store for the whole process, and the
// entry points Oclgrind looks for when OCLGRIND_PLUGINS names this library.
#include <oclgrind/Context.h>
#include <oclgrind/Kernel.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Memory.h>
#include <oclgrind/Plugin.h>
#include <oclgrind/WorkGroup.h>
#include <oclgrind/WorkItem.h>

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalValue.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <stack>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "counters_json.h"
#include "lane_loops.h"
#include "loop_cache.h"
#include "warp_regrouper.h"

namespace clgrade::counters {
namespace {

/// A positive integer from the environment, `fallback` if unset; a bad value is said and ignored.
uint32_t envCount(const char* name, uint32_t fallback, uint32_t maximum) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  char* end = nullptr;
  const unsigned long value = std::strtoul(text, &end, 10);
  if (*end != '\0' || value == 0 || value > maximum) {
    std::cerr << "clgrade_oclgrind: ignoring " << name << "=" << text << " (want 1.." << maximum << "), using "
              << fallback << "\n";
    return fallback;
  }
  return static_cast<uint32_t>(value);
}

/// What the process has counted. Oclgrind loads plugins once per OpenCL context, and every
/// instance adds to this one store, so the file always holds every kernel of the process.
struct Results {
  std::mutex mutex;
  BankModel model;
  std::string outPath;
  KernelTallies kernels;
  bool warnedWrite = false;
  bool warnedOrder = false;

  Results() {
    model.banks = envCount("CLGRADE_BANKS", 32, 1u << 16);
    model.bankBytes = envCount("CLGRADE_BANK_BYTES", 4, 1u << 16);
    model.warpSize = envCount("CLGRADE_WARP_SIZE", 32, 1u << 16);
    if (const char* out = std::getenv("CLGRADE_COUNTERS_OUT")) outPath = out;
  }

  /// Rewrites the counters file; the caller holds `mutex`.
  void write() {
    if (outPath.empty()) return;
    std::string error;
    if (!writeCountersFile(outPath, model, kernels, &error) && !warnedWrite) {
      std::cerr << "clgrade_oclgrind: " << error << "\n";
      warnedWrite = true;
    }
  }
};

Results& results() {
  static Results r;
  return r;
}

using LoopState = LaneLoops<llvm::Loop, llvm::BasicBlock>;

/// Bumped at each kernel launch; a worker whose loop cache is older clears it.
std::atomic<uint64_t> launchGeneration{0};

/// What one Oclgrind worker thread holds for the work-group it runs (a worker runs a group from
/// begin to completion), merged into the kernel's tally under the lock only once, at its end.
struct WorkerState {
  KernelTally* kernel = nullptr;
  KernelTally group;
  oclgrind::Size3 groupSize;
  WarpRegrouper regrouper;
  std::vector<LoopState> lanes;  // by linear local id
  LoopCache loops;
  uint64_t loopsGeneration = ~0ull;
  LoopState::Frames frames;  // scratch for framesOf
  /// Who stored each 4-byte word of local memory last in this group: a lane, or kGroupCopy.
  std::unordered_map<size_t, uint32_t> localOwner;
  /// Which bytes of each 4-byte word of local memory the group stored (a bit a byte): a byte's store
  /// does not set its word's other bytes (found by a review).
  std::unordered_map<size_t, uint8_t> localStoredBytes;
  /// Words of any memory (keyed with their Memory) that hold a pointer stored as a pointer.
  std::unordered_set<uint64_t> pointerWords;
  /// readsAPointersValue's verdict on each instruction of the launch's program (it is asked at every
  /// run of the instruction; the answer is the code's).
  std::unordered_map<const llvm::Instruction*, bool> pointerValueVerdicts;
  uint64_t verdictsGeneration = ~0ull;
  /// By lane: what its local atomics added, and the words of global memory it read (loads, atomics).
  /// A lane's additions count at most the words it read: one atomic_add(p, 1 << 30) counts no image.
  std::vector<int64_t> laneAdded;
  std::vector<uint64_t> laneReadWords;
  /// Global words the group's async copies read (no lane's): they may count what lanes add beyond
  /// their own reads, once for the group.
  uint64_t groupCopyReadBytes = 0;  ///< summed, then in words: a uchar copy is a byte an element
  /// The group's barriers so far, and who last exchanged what into each local word since which.
  uint64_t barriers = 0;
  struct Exchange {
    uint32_t lane;
    int64_t value;
    uint64_t barriers;
  };
  std::unordered_map<size_t, Exchange> exchanges;
};
constexpr uint32_t kGroupCopy = ~0u;
thread_local WorkerState worker;

/// std::stack hides its container; a derived class may reach it, so the chain is read in place.
struct CallStackView : std::stack<const llvm::Instruction*> {
  static const container_type& of(const std::stack<const llvm::Instruction*>& s) { return s.*(&CallStackView::c); }
};

/// The lane's position per call level: the block of each pending call, then `block`, each with a
/// hash of the calls that led there. The same instruction in a function called from two places is
/// two instructions for the warp.
const LoopState::Frames& framesOf(const oclgrind::WorkItem* workItem, const llvm::BasicBlock* block) {
  LoopState::Frames& frames = worker.frames;
  frames.clear();
  uint64_t chain = 0;
  for (const llvm::Instruction* call : CallStackView::of(workItem->getCallStack())) {
    frames.push_back({call->getParent(), chain});
    chain = (chain ^ reinterpret_cast<uintptr_t>(call)) * 0x100000001b3ull + 1;
  }
  frames.push_back({block, chain});
  return frames;
}

/// The 4-byte words an access of `size` bytes at `address` touches (a byte's access, one word).
size_t firstWord(size_t address) { return address / 4; }
size_t lastWord(size_t address, size_t size) { return (address + std::max<size_t>(size, 1) - 1) / 4; }

uint32_t laneOf(const oclgrind::WorkItem* workItem) {
  const oclgrind::Size3 id = workItem->getLocalID();
  const oclgrind::Size3& size = worker.groupSize;
  return static_cast<uint32_t>(id.x + size.x * (id.y + size.y * id.z));
}

/// The source line of an instruction. Oclgrind adds debug information itself when it builds a
/// program, so this works without -g; 0 if an instruction has none.
uint32_t sourceLine(const llvm::Instruction* instruction) {
  if (!instruction) return 0;
  const llvm::DILocation* location = instruction->getDebugLoc().get();
  return location ? location->getLine() : 0;
}

class BankConflictPlugin final : public oclgrind::Plugin {
 public:
  explicit BankConflictPlugin(const oclgrind::Context* context) : oclgrind::Plugin(context) {}

  ~BankConflictPlugin() override {
    Results& r = results();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.write();
  }

  void kernelBegin(const oclgrind::KernelInvocation* invocation) override {
    Results& r = results();
    std::lock_guard<std::mutex> lock(r.mutex);
    current_ = &r.kernels[invocation->getKernel()->getName()];
    ++current_->invocations;
    ++launchGeneration;
    globalArgumentBuffers_ = globalArgumentBuffers(invocation->getKernel());
  }

  void kernelEnd(const oclgrind::KernelInvocation*) override {
    Results& r = results();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.write();
  }

  void workGroupBegin(const oclgrind::WorkGroup* workGroup) override {
    worker.kernel = current_;
    worker.group = KernelTally{};
    worker.group.workGroups = 1;
    worker.groupSize = workGroup->getGroupSize();
    worker.group.groupSize[0] = worker.groupSize.x;
    worker.group.groupSize[1] = worker.groupSize.y;
    worker.group.groupSize[2] = worker.groupSize.z;
    worker.regrouper.begin(results().model, &worker.group);
    worker.lanes.resize(worker.groupSize.x * worker.groupSize.y * worker.groupSize.z);
    worker.laneAdded.assign(worker.lanes.size(), 0);
    worker.laneReadWords.assign(worker.lanes.size(), 0);
    worker.groupCopyReadBytes = 0;
    worker.barriers = 0;
    worker.exchanges.clear();
    for (LoopState& lane : worker.lanes) lane.clear();
    worker.localOwner.clear();
    worker.localStoredBytes.clear();
    worker.pointerWords.clear();
    if (worker.loopsGeneration != launchGeneration) {
      worker.loops.clear();
      worker.loopsGeneration = launchGeneration;
    }
  }

  // Called for every instruction a lane executes, phis included, so a block's first instruction
  // marks the lane entering it; entering a loop header starts an iteration.
  void instructionExecuted(const oclgrind::WorkItem* workItem, const llvm::Instruction* instruction,
                           const oclgrind::TypedValue&) override {
    if (worker.kernel && mayReadAPointersValue(instruction) && readsAPointersValueCached(instruction))
      pointerValueRead(instruction);
    if (worker.kernel && undefinedResult(workItem, instruction))
      worker.group.undefinedOperation.note(sourceLine(instruction));
    const llvm::BasicBlock* block = instruction->getParent();
    if (instruction != &block->front() || !worker.kernel) return;
    const llvm::Loop* loop = worker.loops.loopHeadedBy(block);
    if (loop) worker.lanes[laneOf(workItem)].enterHeader(loop, framesOf(workItem, block));
  }

  void workGroupBarrier(const oclgrind::WorkGroup*, uint32_t) override {
    worker.regrouper.barrier();
    ++worker.barriers;
  }

  void workGroupComplete(const oclgrind::WorkGroup*) override {
    worker.regrouper.finish();
    // Each lane counts at most the words it read; what lanes add beyond theirs, at most the words the
    // group's async copies read (found by an honest corpus: a row staged by async_work_group_copy, then
    // counted with local atomics, counted 260 of 3700 pixels).
    int64_t beyondOwnReads = 0;
    for (size_t lane = 0; lane < worker.laneAdded.size(); ++lane) {
      const int64_t own = static_cast<int64_t>(worker.laneReadWords[lane]);
      worker.group.local.atomicsAdded += std::clamp<int64_t>(worker.laneAdded[lane], 0, own);
      beyondOwnReads += std::max<int64_t>(0, worker.laneAdded[lane] - own);
    }
    worker.group.local.atomicsAdded +=
        std::min(beyondOwnReads, static_cast<int64_t>(std::min<uint64_t>(worker.groupCopyReadBytes / 4, INT64_MAX)));
    Results& r = results();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (worker.kernel) worker.kernel->merge(worker.group);
    if (worker.regrouper.sawOutOfOrderLanes() && !r.warnedOrder) {
      std::cerr << "clgrade_oclgrind: work-items ran out of linear order; bank counts are approximate\n";
      r.warnedOrder = true;
    }
  }

  void memoryLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem, size_t address,
                  size_t size) override {
    // A pointer stored as a pointer and loaded as a number (a union, a cast of its address).
    const llvm::Instruction* instruction = workItem->getCurrentInstruction();
    if (worker.kernel && !worker.pointerWords.empty() && llvm::isa_and_nonnull<llvm::LoadInst>(instruction) &&
        !instruction->getType()->isPointerTy() && holdsAPointer(memory, address, size))
      pointerValueRead(instruction);
    countRead(memory, workItem, size);
    access(memory, workItem, AccessKind::Load, address, size);
  }

  /// The global words a lane read (loads and atomics), the cap of what its local atomics count.
  static void countRead(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem, size_t size) {
    if (!worker.kernel || memory->getAddressSpace() != oclgrind::AddrSpaceGlobal) return;
    const uint32_t lane = laneOf(workItem);
    if (lane < worker.laneReadWords.size()) worker.laneReadWords[lane] += (std::max<size_t>(size, 1) + 3) / 4;
  }

  void memoryStore(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem, size_t address, size_t size,
                   const uint8_t*) override {
    if (worker.kernel) {
      const auto* store = llvm::dyn_cast_or_null<llvm::StoreInst>(workItem->getCurrentInstruction());
      const bool pointer = store && store->getValueOperand()->getType()->isPointerTy();
      if (pointer || !worker.pointerWords.empty())
        for (size_t word = firstWord(address); word <= lastWord(address, size); ++word)
          pointer ? (void)worker.pointerWords.insert(wordKey(memory, word))
                  : (void)worker.pointerWords.erase(wordKey(memory, word));
    }
    access(memory, workItem, AccessKind::Store, address, size);
  }

  // async_work_group_copy: Oclgrind has the group copy element by element, with no lane and so no
  // request to pair. Counted as accesses (a kernel that fills its tile so does use local memory),
  // not as bank requests.
  void memoryLoad(const oclgrind::Memory* memory, const oclgrind::WorkGroup*, size_t address, size_t size) override {
    countAccess(memory, AccessKind::Load, nullptr, address, size);
    if (worker.kernel && memory->getAddressSpace() == oclgrind::AddrSpaceGlobal) worker.groupCopyReadBytes += size;
  }

  void memoryStore(const oclgrind::Memory* memory, const oclgrind::WorkGroup*, size_t address, size_t size,
                   const uint8_t*) override {
    if (countAccess(memory, AccessKind::Store, nullptr, address, 0)) own(address, size, kGroupCopy);
  }

  // An atomic is reported as an atomic load and then an atomic store (no store when a cmpxchg
  // fails), so only the load hook counts it.
  void memoryAtomicLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem, oclgrind::AtomicOp op,
                        size_t address, size_t size) override {
    countRead(memory, workItem, size);
    access(memory, workItem, AccessKind::Atomic, address, size);
    if (!worker.kernel) return;
    const uint32_t lane = laneOf(workItem);
    if (memory->getAddressSpace() == oclgrind::AddrSpaceLocal) exchanged(workItem, op, address, size, lane);
    if (memory->getAddressSpace() == oclgrind::AddrSpaceLocal && lane < worker.laneAdded.size())
      worker.laneAdded[lane] += added(memory, address, workItem, op, size);  // capped at the group's end
    else if (memory->getAddressSpace() == oclgrind::AddrSpaceGlobal)
      worker.group.global.atomicsAdded += added(memory, address, workItem, op, size);
  }

 private:
  static uint64_t wordKey(const oclgrind::Memory* memory, size_t word) {
    return (reinterpret_cast<uintptr_t>(memory) * 0x9e3779b97f4a7c15ull) ^ word;
  }

  static bool holdsAPointer(const oclgrind::Memory* memory, size_t address, size_t size) {
    for (size_t word = firstWord(address); word <= lastWord(address, size); ++word)
      if (worker.pointerWords.count(wordKey(memory, word))) return true;
    return false;
  }

  /// A ptrtoint inside a constant expression (`(ulong)&tile[0] >> 48`, a __local array's address as a
  /// constant): none when the value is no constant expression.
  static const llvm::ConstantExpr* constantPtrToInt(const llvm::Value* value, int depth = 0) {
    const auto* expr = llvm::dyn_cast<llvm::ConstantExpr>(value);
    if (!expr || depth > 8) return nullptr;
    if (expr->getOpcode() == llvm::Instruction::PtrToInt) return expr;
    for (const llvm::Use& op : expr->operands())
      if (const llvm::ConstantExpr* found = constantPtrToInt(op.get(), depth + 1)) return found;
    return nullptr;
  }

  /// The instructions readsAPointersValue asks about: cheap to tell, run for every instruction.
  static bool mayReadAPointersValue(const llvm::Instruction* instruction) {
    if (llvm::isa<llvm::PtrToIntInst>(instruction) || llvm::isa<llvm::ICmpInst>(instruction)) return true;
    for (const llvm::Use& op : instruction->operands())
      if (llvm::isa<llvm::ConstantExpr>(op.get())) return true;
    return false;
  }

  static bool readsAPointersValueCached(const llvm::Instruction* instruction) {
    if (worker.verdictsGeneration != launchGeneration) {
      worker.pointerValueVerdicts.clear();
      worker.verdictsGeneration = launchGeneration;
    }
    const auto known = worker.pointerValueVerdicts.find(instruction);
    if (known != worker.pointerValueVerdicts.end()) return known->second;
    return worker.pointerValueVerdicts[instruction] = readsAPointersValue(instruction);
  }

  /// The one object (a buffer argument, a __local array) `pointer` points into, through offsets,
  /// casts, selects and loops; null when there are several or none is found.
  static const llvm::Value* objectOf(const llvm::Value* pointer) {
    llvm::SmallVector<const llvm::Value*, 4> objects;
    llvm::getUnderlyingObjects(pointer, objects);
    return objects.size() == 1 ? objects.front() : nullptr;
  }

  /// The pointer a ptrtoint, as an instruction or a constant expression, converts; null otherwise.
  static const llvm::Value* convertedPointer(const llvm::Value* value) {
    if (const auto* cast = llvm::dyn_cast<llvm::PtrToIntInst>(value)) return cast->getPointerOperand();
    if (const auto* expr = llvm::dyn_cast<llvm::ConstantExpr>(value);
        expr && expr->getOpcode() == llvm::Instruction::PtrToInt)
      return expr->getOperand(0);
    return nullptr;
  }

  /// Whether each use of the number a ptrtoint makes reveals nothing a device sets apart (found by an
  /// honest corpus: `t - tile` and an alignment test cost a whole task): a difference with a pointer
  /// into the same object, or the low bits below 128 of a __global or __constant address (every
  /// device, and the simulator, starts a buffer there aligned to 128 bytes).
  static bool onlyOffsetsOrAlignment(const llvm::PtrToIntInst* cast) {
    const llvm::Value* object = objectOf(cast->getPointerOperand());
    const unsigned space = cast->getPointerAddressSpace();
    for (const llvm::User* user : cast->users()) {
      const auto* op = llvm::dyn_cast<llvm::BinaryOperator>(user);
      if (op && op->getOpcode() == llvm::Instruction::Sub) {
        const llvm::Value* other = convertedPointer(op->getOperand(op->getOperand(0) == cast ? 1 : 0));
        if (object && other && objectOf(other) == object) continue;
        return false;
      }
      const llvm::Value* masked = user;
      if (const auto* narrowed = llvm::dyn_cast<llvm::TruncInst>(user)) {
        if (!narrowed->hasOneUse()) return false;
        masked = *narrowed->user_begin();
      }
      const auto* mask = llvm::dyn_cast<llvm::BinaryOperator>(masked);
      const auto* bits = mask ? llvm::dyn_cast<llvm::ConstantInt>(mask->getOperand(1)) : nullptr;
      // A buffer the kernel was given (an argument): the harness and the simulator align those; a
      // program-scope __constant lies where its compiler put it (found by a review).
      if (mask && mask->getOpcode() == llvm::Instruction::And && bits && bits->getZExtValue() < 128 &&
          (space == oclgrind::AddrSpaceGlobal || space == oclgrind::AddrSpaceConstant) && object &&
          llvm::isa<llvm::Argument>(object))
        continue;
      return false;
    }
    return true;
  }

  /// An instruction that turns a pointer into a number (ptrtoint), or compares one with a fixed address
  /// (a constant that is not null): Oclgrind's buffers lie at addresses no device gives, so a kernel
  /// that reads them can tell the simulator apart (spec 5c). Not a difference of two pointers into one
  /// object, an alignment test, nor a comparison with an address inside the object the other side
  /// points into (`t < tile + N`): those read no address.
  static bool readsAPointersValue(const llvm::Instruction* instruction) {
    if (const auto* cast = llvm::dyn_cast<llvm::PtrToIntInst>(instruction)) return !onlyOffsetsOrAlignment(cast);
    // A constant's address converted inside an operand (found by a review: `(ulong)&tile[0] >> 48`
    // was never an instruction of its own); only a difference with a pointer into the same object
    // reads no address.
    for (const llvm::Use& op : instruction->operands()) {
      const llvm::ConstantExpr* cast = constantPtrToInt(op.get());
      if (!cast) continue;
      const auto* difference = llvm::dyn_cast<llvm::BinaryOperator>(instruction);
      const llvm::Value* other = difference && difference->getOpcode() == llvm::Instruction::Sub && op.get() == cast
                                     ? convertedPointer(instruction->getOperand(op.getOperandNo() == 0 ? 1 : 0))
                                     : nullptr;
      const llvm::Value* object = objectOf(cast->getOperand(0));
      if (!other || !object || objectOf(other) != object) return true;
    }
    if (const auto* compare = llvm::dyn_cast<llvm::ICmpInst>(instruction))
      for (const llvm::Use& op : compare->operands())
        if (op->getType()->isPointerTy() && llvm::isa<llvm::Constant>(op.get()) &&
            !llvm::isa<llvm::ConstantPointerNull>(op.get()) && !llvm::isa<llvm::GlobalValue>(op.get())) {
          const llvm::Value* other = compare->getOperand(op.getOperandNo() == 0 ? 1 : 0);
          const llvm::Value* object = objectOf(op.get());
          if (!object || !llvm::isa<llvm::GlobalValue>(object) || objectOf(other) != object) return true;
        }
    return false;
  }

  static void pointerValueRead(const llvm::Instruction* instruction) {
    worker.group.pointerValue.note(sourceLine(instruction));
  }

  /// What an atomic about to run adds to the word it hits (Oclgrind reports it before it runs): 1
  /// for atomic_inc, v for atomic_add(p, v), minus those for dec and sub, new - old for a cmpxchg that
  /// will succeed (a lock-free increment loop: found by an honest corpus), 0 for the others (an
  /// exchange or a min counts nothing). An operand this cannot read adds 1.
  static int64_t added(const oclgrind::Memory* memory, size_t address, const oclgrind::WorkItem* workItem,
                       oclgrind::AtomicOp op, size_t size) {
    if (op == oclgrind::AtomicInc) return 1;
    if (op == oclgrind::AtomicDec) return -1;
    // Local memory only: a group's words are its worker's alone, while another worker may change a
    // global word between this look and the swap (found by a review).
    if (op == oclgrind::AtomicCmpXchg)
      return memory->getAddressSpace() == oclgrind::AddrSpaceLocal ? swapAdded(memory, address, workItem, size) : 0;
    if (op != oclgrind::AtomicAdd && op != oclgrind::AtomicSub) return 0;
    const llvm::Value* value = atomicOperand(workItem->getCurrentInstruction());
    if (!value || (size != 4 && size != 8)) return 1;
    const int64_t v = size == 8 ? workItem->getOperand(value).getSInt()
                                : static_cast<int32_t>(workItem->getOperand(value).getUInt() & 0xffffffffu);
    return op == oclgrind::AtomicSub ? -v : v;
  }

  /// An atomic exchange whose old value nobody reads: it writes, whatever the word held.
  static bool blindExchange(const llvm::Instruction* instruction) {
    if (!instruction || !instruction->use_empty()) return false;
    if (const auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(instruction))
      return rmw->getOperation() == llvm::AtomicRMWInst::Xchg;
    const auto* call = llvm::dyn_cast<llvm::CallInst>(instruction);
    const llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
    return callee && callee->getName().contains("xchg");
  }

  /// The value an atomic (an LLVM atomicrmw, or a builtin's call) adds or writes: its second operand.
  static const llvm::Value* atomicOperand(const llvm::Instruction* instruction) {
    if (const auto* rmw = llvm::dyn_cast_or_null<llvm::AtomicRMWInst>(instruction)) return rmw->getValOperand();
    if (const auto* call = llvm::dyn_cast_or_null<llvm::CallInst>(instruction); call && call->arg_size() >= 2)
      return call->getArgOperand(1);
    return nullptr;
  }

  /// What a compare-and-swap about to run adds: new - expected where the word holds the expected
  /// value (it will swap), 0 where it does not; 0 for an operand or a size this cannot read.
  static int64_t swapAdded(const oclgrind::Memory* memory, size_t address, const oclgrind::WorkItem* workItem,
                           size_t size) {
    if (size != 4 && size != 8) return 0;
    const llvm::Instruction* instruction = workItem->getCurrentInstruction();
    const llvm::Value *expected = nullptr, *desired = nullptr;
    if (const auto* swap = llvm::dyn_cast_or_null<llvm::AtomicCmpXchgInst>(instruction)) {
      expected = swap->getCompareOperand();
      desired = swap->getNewValOperand();
    } else if (const auto* call = llvm::dyn_cast_or_null<llvm::CallInst>(instruction); call && call->arg_size() >= 3) {
      expected = call->getArgOperand(1);
      desired = call->getArgOperand(2);
    }
    if (!expected || !desired) return 0;
    auto value = [&](const llvm::Value* v) {
      return size == 8 ? workItem->getOperand(v).getSInt()
                       : static_cast<int32_t>(workItem->getOperand(v).getUInt() & 0xffffffffu);
    };
    unsigned char bytes[8] = {};
    if (!memory->load(bytes, address, size)) return 0;
    int64_t now = 0;
    if (size == 8) {
      std::memcpy(&now, bytes, 8);
    } else {
      int32_t narrow = 0;
      std::memcpy(&narrow, bytes, 4);
      now = narrow;
    }
    return now == value(expected) ? value(desired) - now : 0;
  }

  /// A float converted to an integer out of its range (or a NaN), or an integer division by zero or of
  /// the least value by -1, about to run: undefined in OpenCL C, each compiler's own value (found by a
  /// gaming corpus: (int)(width * 1e10f) is INT_MIN on PoCL and wraps in the simulator, a tell).
  static bool undefinedResult(const oclgrind::WorkItem* workItem, const llvm::Instruction* instruction) {
    const unsigned opcode = instruction->getOpcode();
    // convert_int(x) and its kin, not saturating: a builtin the simulator runs itself (found by a
    // review: convert_int(w * 1e10f) told as a cast did).
    bool converts = false, convertsUnsigned = false;
    if (const auto* call = llvm::dyn_cast<llvm::CallInst>(instruction); call && call->arg_size() >= 1)
      if (const llvm::Function* callee = call->getCalledFunction()) {
        const llvm::StringRef name = callee->getName();
        converts = name.contains("convert_") && !name.contains("_sat") &&
                   instruction->getType()->isIntOrIntVectorTy() &&
                   call->getArgOperand(0)->getType()->isFPOrFPVectorTy();
        convertsUnsigned = name.contains("convert_u");
      }
    if (opcode == llvm::Instruction::FPToSI || opcode == llvm::Instruction::FPToUI || converts) {
      const oclgrind::TypedValue from = workItem->getOperand(instruction->getOperand(0));
      if (from.size != 4 && from.size != 8) return false;
      const unsigned bits = instruction->getType()->getScalarSizeInBits();
      if (bits == 0 || bits > 64) return false;
      const bool isSigned = converts ? !convertsUnsigned : opcode == llvm::Instruction::FPToSI;
      const double least = isSigned ? -std::ldexp(1.0, int(bits) - 1) - 1 : -1;
      const double past = isSigned ? std::ldexp(1.0, int(bits) - 1) : std::ldexp(1.0, int(bits));
      for (unsigned i = 0; i < from.num; ++i) {
        const double v = from.getFloat(i);
        if (std::isnan(v) || v <= least || v >= past) return true;
      }
      return false;
    }
    if (opcode != llvm::Instruction::SDiv && opcode != llvm::Instruction::UDiv && opcode != llvm::Instruction::SRem &&
        opcode != llvm::Instruction::URem)
      return false;
    const oclgrind::TypedValue divisor = workItem->getOperand(instruction->getOperand(1));
    const oclgrind::TypedValue dividend = workItem->getOperand(instruction->getOperand(0));
    if (divisor.size == 0 || divisor.size > 8) return false;
    const bool isSigned = opcode == llvm::Instruction::SDiv || opcode == llvm::Instruction::SRem;
    const unsigned bits = 8 * divisor.size;
    for (unsigned i = 0; i < divisor.num; ++i) {
      if (divisor.getUInt(i) == 0) return true;
      if (isSigned && divisor.getSInt(i) == -1 && bits < 64 && dividend.getSInt(i) == -(int64_t(1) << (bits - 1)))
        return true;
      if (isSigned && divisor.getSInt(i) == -1 && bits == 64 && dividend.getSInt(i) == INT64_MIN) return true;
    }
    return false;
  }

  /// An atomic exchange into local memory: a different value than another lane exchanged into the
  /// same word since the last barrier is an order-dependent write. A compare-and-swap is not: it
  /// writes only over what it saw (an increment loop swaps different values, honestly; found by an
  /// honest corpus).
  static void exchanged(const oclgrind::WorkItem* workItem, oclgrind::AtomicOp op, size_t address, size_t size,
                        uint32_t lane) {
    if (op != oclgrind::AtomicXchg || (size != 4 && size != 8)) return;
    const llvm::Instruction* instruction = workItem->getCurrentInstruction();
    const llvm::Value* operand = atomicOperand(instruction);
    // An exchange whose old value the lane reads is a lock or a hand-over, which orders itself (a
    // test-and-set loop exchanges 1 and 0 by turns; found by a review): only blind writes race.
    if (!operand || !instruction->use_empty()) return;
    const int64_t value = workItem->getOperand(operand).getSInt();
    const size_t word = firstWord(address);
    const auto last = worker.exchanges.find(word);
    if (last != worker.exchanges.end() && last->second.barriers == worker.barriers && last->second.lane != lane &&
        last->second.value != value)
      worker.group.orderDependentWrite.note(sourceLine(instruction));
    worker.exchanges[word] = {lane, value, worker.barriers};
  }

  /// Marks the 4-byte words of [address, address + size) of local memory as stored by `lane`, and
  /// (setsBytes) its bytes as holding what the group stored.
  static void own(size_t address, size_t size, uint32_t lane, bool setsBytes = true) {
    for (size_t word = firstWord(address); word <= lastWord(address, size); ++word) worker.localOwner[word] = lane;
    if (!setsBytes) return;
    for (size_t byte = address; byte < address + std::max<size_t>(size, 1); ++byte)
      worker.localStoredBytes[byte / 4] |= uint8_t(1u << (byte % 4));
  }

  /// The bytes of a load that carry values: a float3's fourth element is padding no store writes,
  /// though the compiler loads a float3 as a float4 through a cast of its pointer (found by an honest
  /// corpus: float3 normals in local memory were taken for unset words).
  static size_t meaningfulBytes(const llvm::Instruction* instruction, size_t size) {
    const auto* load = llvm::dyn_cast_or_null<llvm::LoadInst>(instruction);
    if (!load) return size;
    const llvm::Type* type = load->getType();
    if (const auto* cast = llvm::dyn_cast<llvm::BitCastOperator>(load->getPointerOperand()))
      if (const auto* from = llvm::dyn_cast<llvm::PointerType>(cast->getSrcTy()); from && !from->isOpaque())
        type = from->getPointerElementType();
    const auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
    if (!vector || vector->getNumElements() != 3) return size;
    return std::min<size_t>(size, 3 * vector->getElementType()->getPrimitiveSizeInBits() / 8);
  }

  /// Whether every byte of [address, address + size) of local memory was stored in this group.
  static bool everStored(size_t address, size_t size) {
    for (size_t byte = address; byte < address + std::max<size_t>(size, 1); ++byte) {
      const auto stored = worker.localStoredBytes.find(byte / 4);
      if (stored == worker.localStoredBytes.end() || !(stored->second & (1u << (byte % 4)))) return false;
    }
    return true;
  }

  static void unsetLocalRead(const llvm::Instruction* instruction) {
    worker.group.unsetLocal.note(sourceLine(instruction));
  }

  /// Whether a local load of [address, address + size) by `lane` reads a word someone else stored.
  static bool othersStored(size_t address, size_t size, uint32_t lane) {
    for (size_t word = firstWord(address); word <= lastWord(address, size); ++word) {
      const auto owner = worker.localOwner.find(word);
      if (owner != worker.localOwner.end() && owner->second != lane) return true;
    }
    return false;
  }

  /// The address space of the pointer an instruction accesses through (a load, a store, an atomic
  /// or a builtin call such as vload); -1 when it has no pointer operand.
  static int pointerSpace(const llvm::Instruction* instruction) {
    if (!instruction) return -1;
    for (const llvm::Use& op : instruction->operands())
      if (op->getType()->isPointerTy()) return static_cast<int>(op->getType()->getPointerAddressSpace());
    return -1;
  }

  /// The buffers the kernel's __global pointer arguments point into (Oclgrind numbers its buffers in
  /// an address's top bits).
  std::unordered_set<size_t> globalArgumentBuffers(const oclgrind::Kernel* kernel) const {
    std::unordered_set<size_t> buffers;
    const oclgrind::Memory* global = m_context->getGlobalMemory();
    const llvm::Function* function = kernel->getFunction();
    if (!global || !function) return buffers;
    for (const llvm::Argument& argument : function->args()) {
      if (!argument.getType()->isPointerTy() ||
          argument.getType()->getPointerAddressSpace() != oclgrind::AddrSpaceGlobal)
        continue;
      for (auto value = kernel->values_begin(); value != kernel->values_end(); ++value)
        if (value->first == &argument && value->second.size == sizeof(size_t))
          buffers.insert(global->extractBuffer(value->second.getPointer()));
    }
    return buffers;
  }

  /// Adds the access to its address space's counts; true if it was to local memory.
  bool countAccess(const oclgrind::Memory* memory, AccessKind kind, const llvm::Instruction* instruction,
                   size_t address, size_t bytes) const {
    if (!worker.kernel) return false;
    switch (memory->getAddressSpace()) {
      case oclgrind::AddrSpaceGlobal:
      case oclgrind::AddrSpaceConstant:
        // Oclgrind keeps __constant buffers in its global memory: the pointer says which it was. A
        // __constant pointer into a buffer the kernel was given as __global (a pointer passed through
        // memory as another type) reads global memory: the image read so is read (spec 5c).
        if (pointerSpace(instruction) == oclgrind::AddrSpaceConstant &&
            !globalArgumentBuffers_.count(memory->extractBuffer(address)))
          worker.group.constant.count(kind, bytes);
        else
          worker.group.global.count(kind, bytes);
        return false;
      case oclgrind::AddrSpaceLocal:
        worker.group.local.count(kind, bytes);
        return true;
      default:
        return false;  // private memory
    }
  }

  void access(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem, AccessKind kind, size_t address,
              size_t size) {
    const llvm::Instruction* instruction = workItem->getCurrentInstruction();
    if (!countAccess(memory, kind, instruction, address, size)) return;
    const uint32_t lane = laneOf(workItem);
    // An atomic reads its word before it writes it: atomic_or(p, 0) on a word nobody stored reads
    // what another group left as a load does (found by a review). Where nobody reads its old value,
    // the word stays unset instead (what it holds still comes from the other group), so a later load
    // of it is the read; an exchange whose old value nobody reads is a store.
    bool sets = kind == AccessKind::Store;
    if (kind == AccessKind::Load && !everStored(address, meaningfulBytes(instruction, size)))
      unsetLocalRead(instruction);
    if (kind == AccessKind::Atomic) {
      const bool blind = blindExchange(instruction);
      const bool unset = !blind && !everStored(address, size);
      if (unset && instruction && !instruction->use_empty()) unsetLocalRead(instruction);
      sets = !unset;
    }
    if (kind == AccessKind::Store || kind == AccessKind::Atomic)
      own(address, size, lane, sets);
    else if (othersStored(address, size, lane))
      ++worker.group.local.sharedLoads;
    if (!instruction) return;
    const LoopState::Frames& frames = framesOf(workItem, instruction->getParent());
    const uint64_t context = frames.back().chain ^ worker.lanes[lane].iterationHash(frames) * 0x9e3779b97f4a7c15ull;
    worker.regrouper.record(lane, Site{instruction, context, kind}, sourceLine(instruction), address,
                            static_cast<uint32_t>(size));
  }

  KernelTally* current_ = nullptr;  // the running kernel's tally; std::map nodes stay put
  std::unordered_set<size_t> globalArgumentBuffers_;  // the running kernel's; read-only while it runs
};

/// The plugin of each Oclgrind context (one per OpenCL context); guarded by Results::mutex.
std::map<const oclgrind::Context*, BankConflictPlugin*>& plugins() {
  static std::map<const oclgrind::Context*, BankConflictPlugin*> byContext;
  return byContext;
}

}  // namespace
}  // namespace clgrade::counters

/// Called by Oclgrind for each context it creates, once OCLGRIND_PLUGINS names this library.
extern "C" void initializePlugins(oclgrind::Context* context) {
  using namespace clgrade::counters;
  auto* plugin = new BankConflictPlugin(context);
  {
    std::lock_guard<std::mutex> lock(results().mutex);
    plugins()[context] = plugin;
  }
  context->registerPlugin(plugin);
}

/// Called by Oclgrind when that context goes away; the plugin writes the counters file once more.
extern "C" void releasePlugins(oclgrind::Context* context) {
  using namespace clgrade::counters;
  BankConflictPlugin* plugin = nullptr;
  {
    std::lock_guard<std::mutex> lock(results().mutex);
    auto found = plugins().find(context);
    if (found == plugins().end()) return;
    plugin = found->second;
    plugins().erase(found);
  }
  context->unregisterPlugin(plugin);
  delete plugin;
}
