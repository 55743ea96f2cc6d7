// The host's own ceiling for omp's scaling: how much faster all cores run perfectly parallel FP64 work than one
// core runs the same work, with no memory traffic and nothing shared. bsde's omp backend cannot scale better than
// this over its serial backend.
//
// Work: per item a chain of `rounds` times x <- fma(x, a, b) and exp(-x) (FP64, as a node of ex2's pass does one
// exp and some multiply-adds), 'items' items per step, split among the threads by
// `#pragma omp parallel for schedule(dynamic, 16)` as the pass is (algorithms/backends/backend_omp.cpp), `steps` steps (one
// parallel region each, as a backward step). The same work on one thread first, then on all.
// Build (no Boost): g++ -O3 -fopenmp -static tools/profiling/host_scaling.cpp -o build/bin/host_scaling
// Run: build/bin/host_scaling [items per step = 8192] [steps = 300] [rounds = 64]
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// One step: out[i] from the chain of item i.
void step(std::vector<double>& out, int rounds) {
    const int items = static_cast<int>(out.size());
#pragma omp parallel for schedule(dynamic, 16)
    for (int i = 0; i < items; ++i) {
        double x = 1e-3 * i;
        double sum = 0.0;
        for (int r = 0; r < rounds; ++r) {
            x = std::fma(x, 0.999, 1e-3);
            sum += std::exp(-x);
        }
        out[i] = sum;
    }
}

// Seconds for `steps` steps on `threads` threads; checksum into *check so the work is not optimised away.
double seconds(int threads, int items, int steps, int rounds, double* check) {
    omp_set_num_threads(threads);
    std::vector<double> out(items);
    step(out, rounds);  // warm-up: threads started
    const auto start = std::chrono::steady_clock::now();
    for (int s = 0; s < steps; ++s) step(out, rounds);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    *check = out[items / 2];
    return elapsed.count();
}

}  // namespace

int main(int argc, char** argv) {
    const int items = argc > 1 ? std::atoi(argv[1]) : 8192;
    const int steps = argc > 2 ? std::atoi(argv[2]) : 300;
    const int rounds = argc > 3 ? std::atoi(argv[3]) : 64;
    if (items < 1 || steps < 1 || rounds < 1) {
        std::fprintf(stderr, "host_scaling: items, steps and rounds must be positive integers\n");
        return 2;
    }
    const int all = omp_get_num_procs();
    double check_one = 0.0, check_all = 0.0;
    const double one = seconds(1, items, steps, rounds, &check_one);
    const double many = seconds(all, items, steps, rounds, &check_all);
    std::printf("items %d, steps %d, rounds %d (check %.6g %.6g)\n", items, steps, rounds, check_one, check_all);
    std::printf("1 thread %.4f s, %d threads %.4f s: %.2fx, %.1f %% of linear\n", one, all, many, one / many,
                100.0 * one / many / all);
    return 0;
}
