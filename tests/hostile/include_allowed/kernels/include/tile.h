/* The tile geometry, shared by the kernels. */
#define TILE_X 128
#define TILE_Y 2
#define STRIP_TILES 16

/* The local strip: STRIP_TILES * TILE_Y + 2 rows of TILE_X + 2 pixels, stored densely. */
#define STRIP_W (TILE_X + 2)
#define STRIP_H (STRIP_TILES * TILE_Y + 2)
#define GROUP_ITEMS (TILE_X * TILE_Y)
#define LOADS ((STRIP_W * STRIP_H + GROUP_ITEMS - 1) / GROUP_ITEMS)

