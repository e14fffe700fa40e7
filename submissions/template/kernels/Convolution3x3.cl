/*
 * Task 1: 3x3 convolution.
 *
 * Write the kernel Convolution: d_Dst(x, y) = (sum over dy, dx in -1..1 of d_Src(x + dx, y + dy) *
 * c_Kernel[3 * (dy + 1) + (dx + 1)]) * c_Kernel[9] + c_Kernel[10]
 * (correlation order, not flipped; c_Kernel[9] is the multiplier, c_Kernel[10] the offset).
 * Pixels outside the image count as 0 (their taps are skipped).
 *
 * Buffers: one float per pixel, pixel (x, y) at y * Pitch + x; Pitch = Width rounded up to 32.
 * The program is built with no options. The host launches one work-item per pixel:
 *   global {roundup(Width, TILE_X), roundup(Height, TILE_Y)}, local {TILE_X, TILE_Y},
 * once per channel. Width and Height need not be multiples of the tile size.
 *
 * What earns the points: load the work-group's tile plus a one-pixel halo into local memory
 * (all work-items of the group cooperate), synchronise, then compute from local memory.
 * Never write outside the image (x < Width, y < Height).
 * You may change TILE_X / TILE_Y; the host reads the group size from reqd_work_group_size.
 */

#define TILE_X 32
#define TILE_Y 16

__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    // TODO: declare a local tile of (TILE_Y + 2) x (TILE_X + 2) floats, load the group's pixels and
    // the one-pixel halo into it (0 outside the image), barrier, then compute this work-item's
    // pixel from the tile and store it if it lies inside the image.
}
