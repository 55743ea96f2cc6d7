// Visits k = 0 .. count() - 1 of a rows x columns index space in tiles of tile_rows by tile_columns, tile after tile
// (across the columns first), a tile's row contiguous: on a GPU a warp's 32 visits lie along one row, so that its
// loads and stores of neighbouring columns share lines, and the warps of a block take tile_rows neighbouring rows of
// the same columns, whose lines the others have just brought into L1. A visit past the space's edge (the last
// tiles' spare places) is not inside.
#pragma once
#include "host_device.h"

namespace bsde {

template <int tile_rows, int tile_columns>
struct TiledVisits {
    int rows, columns;
    struct Place {
        int row, column;
        bool inside;
    };
    __host__ __device__ int tiles_across() const { return (columns + tile_columns - 1) / tile_columns; }
    __host__ __device__ int count() const {
        return (rows + tile_rows - 1) / tile_rows * tiles_across() * tile_rows * tile_columns;
    }
    __host__ __device__ Place operator()(int k) const {
        const int tile = k / (tile_rows * tile_columns), in_tile = k % (tile_rows * tile_columns);
        const int row = tile / tiles_across() * tile_rows + in_tile / tile_columns;
        const int column = tile % tiles_across() * tile_columns + in_tile % tile_columns;
        return {row, column, row < rows && column < columns};
    }
};

}  // namespace bsde
