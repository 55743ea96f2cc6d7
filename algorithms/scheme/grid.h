// Time and space grids (scheme.md, "Grids").
#pragma once

namespace bsde {

struct TimeGrid {
    int N;      // steps
    double T;   // terminal time
    double dt() const { return T / N; }
};

// Uniform grid in W-space: M intervals per dimension, w_i = -R + i dx, centre w = 0 at i = M / 2;
// in 2D (M + 1)^2 points, point i_1 (M + 1) + i_2; in 3D (M + 1)^3, point (i_1 (M + 1) + i_2)(M + 1) + i_3.
struct SpaceGrid {
    int M;
    double R;
    int dimension = 1;
    double dx() const { return 2 * R / M; }
    int points() const {
        int p = 1;
        for (int k = 0; k < dimension; ++k) p *= M + 1;
        return p;
    }
    int centre() const {  // (M/2, .., M/2)
        int i = 0;
        for (int k = 0; k < dimension; ++k) i = i * (M + 1) + M / 2;
        return i;
    }
    double point(int i) const { return -R + i * dx(); }  // coordinate of index i along one axis
};

// Convergence order the space grid is matched to: q = min(K_y + 1, K_z, 3).
int matched_order(int Ky, int Kz);

// M = 2 ceil(R / dx0) with dx0 = dt^((q+1)/4), q = order or, when order is 0, matched_order(Ky, Kz)
// (the paper's rule); a ratio within round-off of an integer is not rounded up.
int space_intervals(int Ky, int Kz, int N, double T, double R, int order = 0);

}  // namespace bsde
