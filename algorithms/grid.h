// Time and space grids (scheme.md, "Grids").
#pragma once

namespace bsde {

struct TimeGrid {
    int N;      // steps
    double T;   // terminal time
    double dt() const { return T / N; }
};

// Uniform grid in W-space: M intervals, M + 1 points w_i = -R + i dx, centre w = 0 at i = M / 2.
struct SpaceGrid {
    int M;
    double R;
    double dx() const { return 2 * R / M; }
    int points() const { return M + 1; }
    int centre() const { return M / 2; }
    double point(int i) const { return -R + i * dx(); }
};

// Convergence order the space grid is matched to: q = min(K_y + 1, K_z, 3).
int matched_order(int Ky, int Kz);

// M = 2 ceil(R / dx0) with dx0 = dt^((q+1)/4), q = order or, when order is 0, matched_order(Ky, Kz)
// (the paper's rule); a ratio within round-off of an integer is not rounded up.
int space_intervals(int Ky, int Kz, int N, double T, double R, int order = 0);

}  // namespace bsde
