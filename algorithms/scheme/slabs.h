// The grid split along its first axis into G slabs (--gpus G, settings.gpus): slab g owns a run of the M + 1 rows
// i_1 (as even as possible, the first slabs one row more) and holds them with a halo of rows on each side, cut at the
// grid's edges. Each step computes a slab's owned rows and then receives its halo rows' values from the slabs that
// own them (slab_link.h), so every held row has the whole grid's values; a slab's own fit along axis 1 then equals the
// whole grid's to rounding on the rows its passes read (slab_halo).
#pragma once
#include <string>
#include <vector>

#include "settings.h"

namespace bsde {

// The most GPUs --gpus takes: those of one host.
constexpr int max_gpus = 64;

struct SlabRows {
    int first, last;              // the rows held, of 0..M
    int owned_first, owned_last;  // the rows owned, within them
    int count() const { return last - first + 1; }
    int owned_count() const { return owned_last - owned_first + 1; }
    static SlabRows whole(int M) { return {0, M, 0, M}; }
};

// Slab `slab` of `slabs` of a grid of M intervals per axis, with `halo` rows each side. slabs <= M + 1.
SlabRows slab_rows(int M, int slabs, int slab, int halo);

// The halo, in rows: the farthest a step's rules move a grid point along axis 1, in cells at variance K dt (the smooth
// rule's largest node; for a kinked terminal layer also the young layers' rule of 2 L nodes and the kink rule, 8.5
// standard deviations across the kink and its Gauss-Hermite nodes along it), plus the cubic stencil's 3 rows, plus the
// spline inverse band's half-width (spline_inverse_band.h): the fit of a slab, with its own ends at the cut, differs
// from the whole grid's by less than rounding on the rows at least that far inside (the inverse's entries decay as
// (2 - sqrt 3)^k, and the tridiagonal solve's influence alike). For N steps of the settings' scheme in `dimension`
// dimensions; kinked: the problem's terminal data have a kink.
int slab_halo(const SchemeSettings& s, int N, int dimension, bool kinked);

// Why the grid of a problem of this dimension cannot be split (a 1D problem, an interpolation other than the tensor
// spline, a problem with an obstacle, a batch, the start-up on a finer grid), "" where it can.
std::string why_not_split(const SchemeSettings& s, int dimension, bool has_obstacle, int members);

// Throws InputError where the settings' --gpus cannot take the problem (why_not_split) or asks for more slabs than
// the grid's rows.
void check_slabs(const SchemeSettings& s, int dimension, bool has_obstacle, int members);

// The results of a split grid's slabs, each over the rows it holds, as one result over the whole grid: each slab's
// owned rows of the grid vectors (w, y, z, the exact solution, the state map's) in place; y_0, z_0 and the members'
// solutions of the slab that owns w = 0; the largest errors and Picard figures over the slabs; the slowest slab's
// times; the memory (storage_bytes, device_bytes_measured) summed over the slabs.
class SlabResults {
public:
    explicit SlabResults(int slabs) : results_(slabs), rows_(slabs, SlabRows{0, 0, 0, 0}) {}
    // Slab `slab`'s result; the slabs' threads each give their own.
    void take(int slab, SolveResult result, const SlabRows& rows, bool owns_centre);
    SolveResult combined(int dimension) const;

private:
    std::vector<SolveResult> results_;
    std::vector<SlabRows> rows_;
    int centre_owner_ = -1;
};

}  // namespace bsde
