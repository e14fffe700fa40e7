// Technique criteria judged from simulated counters: how a kernel uses local memory, not what it
// computes. Shared by the tasks so each rule is written once.
#pragma once

#include <string>
#include <vector>

#include "counters/counters.h"
#include "model/status.h"

namespace clgrade {

/// The tile (and halo) is stored into local memory; the taps are read from it: at least one local
/// load per output of a word another work-item stored (a work-item that reads back its own store
/// shares nothing), and global reads of at most twice the tiles and halos in bytes (inside the
/// image, or as launched where that is more; in bytes, so that vector loads count what they read);
/// and the tile's stores are free of bank conflicts, wherever they are (a barrier before the tile
/// load moves no store out of the rule). `width` x `height`: the case's image, its outputs.
void judgeTileLoad(const CounterReport& counters, const std::string& kernel, long width, long height,
                   CaseOutcome* outcome);

/// What judgeTileLoad and judgeNeighboursFromLocal ask of a kernel's local loads: at least one per
/// output of a word another work-item stored (the simulator's count), or, on hardware, whose
/// instructions serve whole warps, one warp instruction per 32 outputs. "" when it does; else why not.
std::string tooFewTileReads(const CounterReport& counters, const KernelCounters& k, long outputs);

/// What the hardware counted of a kernel's global reads (ncu on NVIDIA): no simulator there to count
/// loads per work-item, so the bound is on the 32-byte sectors the loads asked for. Only the sectors
/// beyond the first of each warp request are held against the tile: a read that every work-item of a
/// warp makes at one address (the weights, which the hardware counts as global reads too) costs one
/// sector per request, as many as there are reads, and says nothing about where the taps come from.
struct GlobalReads {
  double sectors = -1;   ///< < 0: not counted
  double requests = -1;  ///< warp requests of those loads; < 0: not counted
  long workGroups = 0;
  long groupSize[2] = {0, 0};
};

/// The most 32-byte sectors `groups` work-groups of gx x gy read when each reads its tile with `halo`
/// twice over (as the simulated rule allows): each tile row is a run of (gx + 2 halo) elements of
/// `elementBytes` that may start inside a sector, so one sector more per row.
long tileSectorLimit(long gx, long gy, int halo, int elementBytes, long groups);

/// The per-tap rule on hardware counts: fails `o` when `kernel`'s sectors beyond the first of each
/// request are more than its work-groups' tiles and halos (taps read from global memory, not from the
/// tile), or its warp requests are more than 2 per work-item launched (taps read a few lanes at a
/// time, one sector per request); not measured when
/// the hardware did not count the reads or the groups; true (and `o` left as it is but for a detail
/// line) when the reads are within the bound.
bool judgeTileReadsFromHardware(const GlobalReads& reads, const std::string& kernel, int halo, int elementBytes,
                                CaseOutcome* o);

/// A discontinuity kernel, the pixels one work-item of it covers (`steps` along x when horizontal,
/// else along y) and the image it ran on.
struct NeighbourKernel {
  std::string name;
  bool horizontal = true;
  int steps = 1;
  long width = 0, height = 0;
};

/// Every kernel named reads its neighbours from a local tile, counted per tap like task 1's tile
/// (spec 5c): it reads its neighbours from local memory (tooFewTileReads: one dummy local load per
/// work-item is not the technique), and its global reads are at most twice its tiles with their
/// halo of one pixel, in bytes (16 per normal and depth; plus 4 per pixel for the flag word the
/// vertical kernel ORs into). A kernel that reads its neighbours from global memory reads three pixels
/// for each it computes, whatever local loads it makes beside. The tiles are counted inside the image
/// (at 100 x 37 the launched groups cover half as many pixels again, which would let three reads per
/// pixel pass), or as launched where that is more (a kernel that loads its whole tile, clamped, is
/// not penalised for it). In bytes, so that a tile loaded one component at a time counts as one
/// loaded as a float4. On hardware the bytes are the 32-byte sectors asked for (one more per tile
/// row, for rows that start inside a sector); not measured where the reads or the work-groups were
/// not counted.
void judgeNeighboursFromLocal(const CounterReport& counters, const std::vector<NeighbourKernel>& kernels,
                              CaseOutcome* outcome);

/// What the histogram's technique rule needs to know of the case the counts come from.
struct HistogramShape {
  int bins = 64;
  long pixels = 0;      ///< of the image
  long hostGroups = 0;  ///< work-groups of the assignment's launch (16 x 16 over the image)
};

/// Every pixel passes through a local atomic that counts it (at least one per pixel that changes the
/// word it hits, where the simulator tells: atomic_add(p, 0) counts nothing), the image is read
/// about once (global reads of at most twice its floats, where counted: a work-item that counts one
/// bin over the whole group's pixels reads them again for every bin), and the merge makes at most
/// one global atomic per bin and work-group, counted at the assignment's group size: a kernel that
/// shrinks its groups (reqd_work_group_size(8,8,1)) to allow a global atomic per pixel fails.
void judgeLocalHistogram(const CounterReport& counters, const std::string& kernel, const HistogramShape& shape,
                         CaseOutcome* outcome);

}  // namespace clgrade
