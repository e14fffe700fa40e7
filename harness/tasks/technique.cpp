#include "tasks/technique.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace clgrade {
namespace {

std::string counts(const char* space, const AccessCounts& a) {
  return std::string(space) + " loads " + std::to_string(a.loads) + ", stores " + std::to_string(a.stores) +
         ", atomics " + std::to_string(a.atomics);
}

std::string tally(const char* what, const BankTally& t) {
  return std::string(what) + ": " + std::to_string(t.requests) + " requests, " + std::to_string(t.wavefronts) +
         " wavefronts, " + std::to_string(t.conflicts) + " conflicts";
}

/// The evidence lines every technique outcome carries: the model and the counts.
void describe(const CounterReport& counters, const KernelCounters& k, CaseOutcome* o) {
  if (!counters.origin.empty()) {  // hardware: only what it counted, as the report says it
    const auto note = counters.notes.find(k.name);
    o->details.push_back(counters.origin + ": " + k.name + ": " + (note == counters.notes.end() ? "" : note->second));
    return;
  }
  o->details.push_back(k.name + " (simulated in Oclgrind, " + std::to_string(counters.banks) + " banks of " +
                       std::to_string(counters.bankBytes) + " bytes, warps of " + std::to_string(counters.warpSize) +
                       "; " + std::to_string(k.workGroups) + " work-groups in " + std::to_string(k.invocations) +
                       " launches)");
  o->details.push_back("  " + counts("global", k.global) + "; " + counts("local", k.local) + "; constant loads " +
                       std::to_string(k.constant.loads));
  if (k.local.sharedLoads >= 0)
    o->details.push_back("  local loads of a word another work-item stored: " + std::to_string(k.local.sharedLoads));
  if (k.local.atomicsAdded >= 0)
    o->details.push_back("  what the local atomics added up to: " + std::to_string(k.local.atomicsAdded));
  o->details.push_back("  global bytes read: " + std::to_string(k.global.loadBytes));
  o->details.push_back("  " + tally("local stores", k.bank.store));
  o->details.push_back("  " + tally("local stores before the first barrier", k.loadPhase.store));
  o->details.push_back("  " + tally("local loads after it", k.computePhase.load));
  for (const LineConflicts& l : k.lines) {
    o->details.push_back("  line " + std::to_string(l.line) + ": " + std::to_string(l.conflicts) + " conflicts in " +
                         std::to_string(l.requests) + " " + l.kind + " requests (" + l.phase + " phase)");
  }
}

/// "; worst at line N": the local store with the most conflicts (a load is not the store's line); a
/// store the compiler kept no line for is said so, never "line 0".
std::string worstStoreLine(const KernelCounters& k) {
  const LineConflicts* worst = nullptr;
  for (const LineConflicts& l : k.lines)
    if ((l.kind == "store" || l.kind == "atomic") && l.conflicts > 0 && (!worst || l.conflicts > worst->conflicts))
      worst = &l;
  if (!worst) return "";
  if (worst->line == 0) return "; the worst store has no source line (the compiler kept none for it)";
  return "; worst at line " + std::to_string(worst->line);
}

const KernelCounters* ran(const CounterReport& counters, const std::string& kernel, CaseOutcome* o) {
  const KernelCounters* k = counters.find(kernel);
  if (!k) {
    o->status = Status::Failed;
    o->message = kernel + (counters.origin.empty() ? " never ran in the simulator (see the analysis log)"
                                                   : " never ran under " + counters.origin);
  }
  return k;
}

/// Pixels of the tiles (with a halo of one) of the groups that cover a `width` x `height` image, in
/// groups of `cols` x `rows` pixels, counted inside the image (the halo between two groups twice),
/// or as launched where that is more.
long tilePixels(long width, long height, long cols, long rows, bool acrossHalo, bool downHalo) {
  const long across = (width + cols - 1) / cols, down = (height + rows - 1) / rows;
  const long inImage = (width + (acrossHalo ? 2 * (across - 1) : 0)) * (height + (downHalo ? 2 * (down - 1) : 0));
  const long launched = across * down * (cols + (acrossHalo ? 2 : 0)) * (rows + (downHalo ? 2 : 0));
  return std::max(2 * inImage, launched);
}

}  // namespace

std::string tooFewTileReads(const CounterReport& counters, const KernelCounters& k, long outputs) {
  if (outputs <= 0) return "";
  if (k.local.sharedLoads >= 0) {
    if (k.local.sharedLoads >= outputs) return "";
    return k.name + " makes " + std::to_string(k.local.sharedLoads) + " local loads of a word another work-item " +
           "stored, fewer than its " + std::to_string(outputs) + " outputs: each output must read its neighbours " +
           "from the local tile the group loaded (a local load of the work-item's own store, or one per " +
           "work-item, shares nothing)";
  }
  if (counters.origin.empty()) return "";  // an older counters file: not counted
  const long warp = std::max(1, counters.warpSize);
  if (k.local.loads * warp >= outputs) return "";
  return k.name + " makes " + std::to_string(k.local.loads) + " shared load warp instructions for " +
         std::to_string(outputs) + " outputs, fewer than one per " + std::to_string(warp) + " outputs: each " +
         "output must read its neighbours from the local tile";
}

void judgeTileLoad(const CounterReport& counters, const std::string& kernel, long width, long height, CaseOutcome* o) {
  const KernelCounters* k = ran(counters, kernel, o);
  if (!k) return;
  describe(counters, *k, o);
  // A tile stored with atomics (atomic_xchg) is stored too: their conflicts count with the stores'
  // (found by a gaming corpus: a transposed tile stored with atomic_xchg beside one clean store passed).
  BankTally stores = k->bank.store;
  stores.requests += k->bank.atomic.requests;
  stores.wavefronts += k->bank.atomic.wavefronts;
  stores.conflicts += k->bank.atomic.conflicts;
  // Each output reads its 9 taps from the tile: the image is read once per tile and halo (twice
  // allowed for loads that overlap), so a kernel reading taps from global memory exceeds it.
  const long gx = k->groupSize[0], gy = k->groupSize[1];
  const long tileLimit = 2 * (gx + 2) * (gy + 2) * k->workGroups;
  constexpr long kPixelBytes = 4;  // one float of the gray plane
  const long launches =
      gx > 0 && gy > 0 && width > 0 && height > 0
          ? std::max(1L, k->workGroups / std::max(1L, ((width + gx - 1) / gx) * ((height + gy - 1) / gy)))
          : 0;
  const long tileBytes = launches ? launches * kPixelBytes * tilePixels(width, height, gx, gy, true, true) : 0;
  // A tile saves reads only when the work-group is large beside its halo: a group of 2 x 1 loads 12
  // pixels for 2 outputs, and twice that is more than the 9 taps of each (found by a gaming corpus:
  // taps from global memory beside such a tile took 3/3). The tile may read at most half of what
  // reading every output's 9 taps would.
  const long tapBytes = launches * kPixelBytes * 9 * width * height / 2;
  const bool groupTooSmall = tileBytes > tapBytes;
  const long byteLimit = groupTooSmall ? tapBytes : tileBytes;
  const std::string fewReads = tooFewTileReads(counters, *k, width * height);
  if (k->local.stores + k->local.atomics == 0) {
    o->status = Status::Failed;
    o->message = kernel + " stores nothing into local memory: the tile and halo must be loaded into a local tile";
  } else if (byteLimit > 0 && k->global.loadBytes > byteLimit && groupTooSmall) {
    o->status = Status::Failed;
    o->message = kernel + " reads " + std::to_string(k->global.loadBytes) + " bytes of global memory, more than " +
                 "half of what reading the 9 taps of each output would (" + std::to_string(byteLimit) +
                 " bytes): its work-groups of " + std::to_string(gx) + " x " + std::to_string(gy) +
                 " are too small for a tile and its halo to save reads; use larger work-groups and read the taps " +
                 "from the local tile";
  } else if (byteLimit > 0 && k->global.loadBytes > byteLimit) {
    o->status = Status::Failed;
    o->message = kernel + " reads " + std::to_string(k->global.loadBytes) + " bytes of global memory, more than " +
                 "twice the tiles and halos of its " + std::to_string(k->workGroups) + " work-groups of " +
                 std::to_string(gx) + " x " + std::to_string(gy) + " (" + std::to_string(byteLimit) +
                 " bytes): each output must read its 9 taps from the local tile, not from global memory";
  } else if (byteLimit == 0 && gx > 0 && gy > 0 && k->global.loads > tileLimit) {
    o->status = Status::Failed;
    o->message = kernel + " makes " + std::to_string(k->global.loads) + " global loads, more than twice the tile and " +
                 "halo of its " + std::to_string(k->workGroups) + " work-groups of " + std::to_string(gx) + " x " +
                 std::to_string(gy) + " (" + std::to_string(tileLimit) +
                 "): each output must read its 9 taps from the local tile, not from global memory";
  } else if (!fewReads.empty()) {
    o->status = Status::Failed;
    o->message = fewReads;
  } else if (stores.conflicts > 0) {
    char perRequest[32];
    std::snprintf(perRequest, sizeof perRequest, "%.2f",
                  double(stores.conflicts) / double(std::max(1L, stores.requests)));
    o->status = Status::Failed;
    o->message = std::to_string(stores.conflicts) + " bank conflicts while storing the tile (" + perRequest +
                 " per warp request)" + worstStoreLine(*k);
    // Nearly every lane of a warp in one bank: the warp walks down a column of the tile.
    if (stores.wavefronts >= 16 * std::max(1L, stores.requests))
      o->details.insert(o->details.begin(),
                        "hint: each warp's stores land in one bank, so the warp writes down a column of the tile: "
                        "a tile stored transposed (tile[x][y] where the work-items' x should be the last index) or "
                        "a row stride that is a multiple of " +
                            std::to_string(counters.banks) +
                            " banks; store with the work-item's x as the fast index, or pad each row by one element");
  } else {
    o->status = Status::Passed;
    o->message = "tile stored into local memory without bank conflicts (" + std::to_string(stores.requests) +
                 " warp requests, 0 conflicts)";
  }
}

long tileSectorLimit(long gx, long gy, int halo, int elementBytes, long groups) {
  constexpr long kSectorBytes = 32;
  const long rowSectors = ((gx + 2L * halo) * elementBytes + kSectorBytes - 1) / kSectorBytes + 1;
  return 2 * (gy + 2L * halo) * rowSectors * groups;
}

bool judgeTileReadsFromHardware(const GlobalReads& reads, const std::string& kernel, int halo, int elementBytes,
                                CaseOutcome* o) {
  const long gx = reads.groupSize[0], gy = reads.groupSize[1];
  if (reads.sectors < 0 || reads.requests < 0 || reads.workGroups <= 0 || gx <= 0 || gy <= 0) {
    o->status = Status::NotMeasured;
    o->message = "the hardware did not count " + kernel + "'s global reads or work-groups, so whether its taps " +
                 "come from the local tile is not measured (ncu's l1tex__t_sectors_pipe_lsu_mem_global_op_ld, " +
                 "l1tex__t_requests_pipe_lsu_mem_global_op_ld, launch__grid_size, launch__block_dim_x/y)";
    return false;
  }
  const long tileLimit = tileSectorLimit(gx, gy, halo, elementBytes, reads.workGroups);
  // As the simulated rule: a group too small for its tile to save reads (2 x 1) may read at most half
  // the sectors of every work-item's 9 taps.
  const long tapSectors = 9L * elementBytes * reads.workGroups * gx * gy / 32 / 2;
  const bool groupTooSmall = tileLimit > tapSectors;
  const long limit = groupTooSmall ? tapSectors : tileLimit;
  const double beyond = std::max(0.0, reads.sectors - reads.requests);
  char line[400];
  std::snprintf(line, sizeof line,
                "%s read %.0f sectors of 32 bytes from global memory in %.0f warp requests, %.0f beyond the first "
                "of each request, in %ld work-groups of %ld x %ld; its tiles with a halo of %d, read twice, are at "
                "most %ld",
                kernel.c_str(), reads.sectors, reads.requests, beyond, reads.workGroups, gx, gy, halo, tileLimit);
  o->details.push_back(line);
  // Loads made a few lanes at a time touch one sector each and nothing beyond it: the requests are
  // bounded too. A tile kernel makes a handful per warp (its tile, the 11 weights); 2 per work-item
  // launched is 64 per warp.
  const double requestLimit = 2.0 * double(reads.workGroups) * double(gx) * double(gy);
  if (reads.requests > requestLimit) {
    o->status = Status::Failed;
    o->message = kernel + " made " + std::to_string(std::lround(reads.requests)) + " global load requests, more " +
                 "than 2 per work-item launched (" + std::to_string(std::lround(requestLimit)) + "): each output " +
                 "must read its taps from the local tile, not from global memory (a few work-items at a time)";
    return false;
  }
  if (beyond <= double(limit)) return true;
  o->status = Status::Failed;
  if (groupTooSmall) {
    o->message = kernel + " reads " + std::to_string(std::lround(beyond)) + " sectors of global memory (beyond the " +
                 "first of each warp request), more than half of what reading the 9 taps of each work-item would (" +
                 std::to_string(limit) + "): its work-groups of " + std::to_string(gx) + " x " + std::to_string(gy) +
                 " are too small for a tile and its halo to save reads; use larger work-groups and read the taps " +
                 "from the local tile";
    return false;
  }
  o->message = kernel + " reads " + std::to_string(std::lround(beyond)) + " sectors of global memory (beyond the " +
               "first of each warp request), more than twice the tile and halo of its " +
               std::to_string(reads.workGroups) + " work-groups of " + std::to_string(gx) + " x " + std::to_string(gy) +
               " (" + std::to_string(limit) +
               "): each output must read its taps from the local tile, not from global memory (a tile loaded " +
               "down its columns, each warp's loads across rows, reads many more sectors too; so does " +
               "async_work_group_copy on NVIDIA, which copies once for each row of a 2D work-group)";
  return false;
}

namespace {

/// The most bytes of global memory a discontinuity kernel reads when it reads its tiles and halos
/// twice over (inside the image, or once as launched where that is more) and its flag words once;
/// 0 when the group size or the image is not known.
long neighbourByteLimit(const KernelCounters& k, const NeighbourKernel& kernel) {
  const long gx = k.groupSize[0], gy = k.groupSize[1];
  if (gx <= 0 || gy <= 0 || k.workGroups <= 0 || kernel.width <= 0 || kernel.height <= 0 || kernel.steps <= 0)
    return 0;
  const long cols = kernel.horizontal ? gx * kernel.steps : gx, rows = kernel.horizontal ? gy : gy * kernel.steps;
  const long w = kernel.width, h = kernel.height;
  const long across = (w + cols - 1) / cols, down = (h + rows - 1) / rows;
  const long groupsPerLaunch = across * down;
  const long launches = std::max(1L, k.workGroups / groupsPerLaunch);
  // One pixel of halo on both sides of each group's tile along the pass, where it is in the image.
  const long tiles = tilePixels(w, h, cols, rows, kernel.horizontal, !kernel.horizontal);
  constexpr long kPixelBytes = 16, kFlagBytes = 4, kSectorBytes = 32;
  const long tileRows = groupsPerLaunch * (kernel.horizontal ? rows : rows + 2);  // each may start inside a sector
  return launches * (kPixelBytes * tiles + kFlagBytes * w * h + kSectorBytes * tileRows);
}

}  // namespace

void judgeNeighboursFromLocal(const CounterReport& counters, const std::vector<NeighbourKernel>& kernels,
                              CaseOutcome* o) {
  o->status = Status::Passed;
  std::string without, uncounted;
  for (const NeighbourKernel& kernel : kernels) {
    const KernelCounters* k = ran(counters, kernel.name, o);
    if (!k) return;
    describe(counters, *k, o);
    if (k->local.loads == 0) {
      without += (without.empty() ? "" : ", ") + kernel.name;
      continue;
    }
    // Its global reads first (the neighbours read from global memory say the most), then its tile's.
    const std::string few = tooFewTileReads(counters, *k, kernel.width * kernel.height);
    const long limit = neighbourByteLimit(*k, kernel);
    if (k->global.loadBytes < 0 || limit == 0) {
      if (!few.empty() && o->status == Status::Passed)
        o->status = Status::Failed, o->message = few + " (normals and depths)";
      uncounted += (uncounted.empty() ? "" : ", ") + kernel.name;
      continue;
    }
    o->details.push_back("  " + kernel.name + ": " + std::to_string(k->global.loadBytes) +
                         " bytes read from global memory; its tiles with their halo, read twice, and its flags: " +
                         std::to_string(limit));
    if (k->global.loadBytes > limit && o->status == Status::Passed) {
      o->status = Status::Failed;
      o->message = kernel.name + " reads " + std::to_string(k->global.loadBytes) + " bytes of global memory, more " +
                   "than twice the tiles and halos of its " + std::to_string(k->workGroups) + " work-groups (" +
                   std::to_string(limit) + "): each pixel must read its neighbours' normals and depths from the " +
                   "local tile, not from global memory (a local load beside global reads is not the technique)";
    } else if (!few.empty() && o->status == Status::Passed) {
      o->status = Status::Failed;
      o->message = few + " (normals and depths)";
    }
  }
  if (!without.empty()) {
    o->status = Status::Failed;
    o->message = without + " read no local memory: the normals and depths are read straight from global memory";
  } else if (o->status == Status::Passed && !uncounted.empty()) {
    o->status = Status::NotMeasured;
    o->message = "the global reads or the work-groups of " + uncounted + " were not counted, so whether the " +
                 "neighbours come from a local tile is not measured";
  } else if (o->status == Status::Passed) {
    o->message = "every discontinuity kernel reads its neighbours from a local tile";
  }
}

void judgeLocalHistogram(const CounterReport& counters, const std::string& kernel, const HistogramShape& shape,
                         CaseOutcome* o) {
  const KernelCounters* k = ran(counters, kernel, o);
  if (!k) return;
  describe(counters, *k, o);
  // Groups smaller than the assignment's merge more often; the limit stays the assignment's.
  const long groups = shape.hostGroups > 0 ? std::min(k->workGroups, shape.hostGroups) : k->workGroups;
  const long mergeLimit = groups * shape.bins;
  // Every pixel counted into the local histogram: what its local atomics added up to, where the
  // simulator tells (a work-item may count its pixels' equal bins first and add them at once; an
  // atomic_add(p, 0) beside a count kept elsewhere counts nothing), else one atomic a pixel.
  const bool added = k->local.atomicsAdded >= 0;
  const long counted = added ? k->local.atomicsAdded : k->local.atomics;
  constexpr long kPixelBytes = 4;  // one float of the gray image
  const long readLimit = 2 * kPixelBytes * shape.pixels;
  if (k->local.atomics == 0) {
    o->status = Status::Failed;
    o->message = kernel + " uses no local atomics: count into the local histogram first";
  } else if (counted < shape.pixels) {
    o->status = Status::Failed;
    o->message = kernel + " makes " + std::to_string(k->local.atomics) + " local atomics" +
                 (added ? " that add up to " + std::to_string(counted) : std::string()) + " for " +
                 std::to_string(shape.pixels) + " pixels: every pixel must be counted into the local histogram " +
                 (added ? "(its local atomics add at least one per pixel; an atomic that adds 0 counts nothing)"
                        : "(one local atomic per pixel)");
  } else if (k->global.loadBytes > readLimit && shape.pixels > 0) {
    o->status = Status::Failed;
    o->message = kernel + " reads " + std::to_string(k->global.loadBytes) + " bytes of global memory for an image of " +
                 std::to_string(shape.pixels) + " pixels (" + std::to_string(kPixelBytes * shape.pixels) +
                 " bytes; twice that allowed): each pixel is read once and counted into the local histogram, not " +
                 "read again for each bin";
  } else if (k->global.atomics > mergeLimit) {
    o->status = Status::Failed;
    o->message = kernel + " makes " + std::to_string(k->global.atomics) +
                 " global atomics, more than one per bin and " + "work-group (" + std::to_string(mergeLimit) + " for " +
                 std::to_string(groups) +
                 " groups of the assignment's 16 x 16): merge the local histogram once per group";
  } else {
    o->status = Status::Passed;
    o->message = std::to_string(k->local.atomics) + " local atomics, " + std::to_string(k->global.atomics) +
                 " global atomics for " + std::to_string(k->workGroups) + " work-groups";
  }
}

}  // namespace clgrade
