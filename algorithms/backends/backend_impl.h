// The backend operations, written once over a backend context (HostContext<...> or CudaContext)
// and instantiated by each backend's translation unit.
#pragma once
#include <algorithm>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <thrust/iterator/zip_iterator.h>
#include <thrust/system_error.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>

#include "../../problems/problem_list.h"
#include "backend.h"
#include "copy_links.h"
#include "../sweep/backward_sweep.h"
#include "../interpolation/bicubic.h"
#include "../core/raw_pointer.h"
#include "../interpolation/spline_fitter.h"
#include "../interpolation/tensor_spline.h"
#include "../interpolation/tensor_spline_3d.h"

namespace bsde {

// One function's 2D interpolant at the point (x1, x2): locate, then evaluate.
template <class Evaluator>
struct Interpolant2DAtPoint {
    Evaluator evaluate;
    const double* values;
    const double* data;
    __host__ __device__ double operator()(double x1, double x2) const {
        return evaluate(values, data, evaluate.locate(Vec2{{x1, x2}}));
    }
};

// One function's 3D interpolant at the point (x1, x2, x3): locate, then evaluate.
template <class Evaluator>
struct Interpolant3DAtPoint {
    Evaluator evaluate;
    const double* values;
    const double* data;
    __host__ __device__ double operator()(const thrust::tuple<double, double, double>& x) const {
        return evaluate(values, data, evaluate.locate(Vec3{{thrust::get<0>(x), thrust::get<1>(x), thrust::get<2>(x)}}));
    }
};

template <class Context>
class BackendImpl final : public BackendOps {
public:
    std::string description() const override {
        return guarded([](Context& context) { return context.description(); });
    }

    std::vector<double> solve_tridiagonal(const std::vector<double>& lower, const std::vector<double>& diag,
                                          const std::vector<double>& upper, const std::vector<double>& rhs,
                                          int m, int count) const override {
        return guarded([&](Context& context) {
            Vector<double> a(lower.begin(), lower.end()), b(diag.begin(), diag.end()),
                c(upper.begin(), upper.end()), x(rhs.begin(), rhs.end());
            context.solve_tridiagonal(raw(a), raw(b), raw(c), raw(x), m, count);
            return to_host(context, x);
        });
    }

    std::vector<double> spline_moments(const std::vector<double>& values, int M, int columns, double dx,
                                       SplineBoundary boundary, SplineSolve solve) const override {
        return guarded([&](Context& context) {
            SplineFitter<Context> fitter(context, M, boundary, dx, solve);
            Vector<double> v(values.begin(), values.end()), moments(values.size());
            fitter.fit(raw(v), raw(moments), columns);
            return to_host(context, moments);
        });
    }

    std::vector<double> spline_evaluate(const std::vector<double>& values, const std::vector<double>& moments,
                                        double x_min, double dx, const std::vector<double>& points) const override {
        return guarded([&](Context& context) {
            Vector<double> v(values.begin(), values.end()), m(moments.begin(), moments.end()),
                x(points.begin(), points.end()), out(points.size());
            const int M = static_cast<int>(values.size()) - 1;
            thrust::transform(context.policy(), x.begin(), x.end(), out.begin(),
                              SplineAtPoint{UniformGridLocator{x_min, dx, M}, CellCubicColumn{raw(v), raw(m)}});
            return to_host(context, out);
        });
    }

    std::vector<double> interpolate_2d(InterpolationKind kind, const std::vector<double>& values, int M, double x_min,
                                       double dx, const std::vector<double>& x1, const std::vector<double>& x2,
                                       SplineSolve spline_solve) const override {
        return guarded([&](Context& context) {
            if (kind == InterpolationKind::bicubic)
                return interpolate_2d_with(BicubicFitter<Context>(context, M, x_min, dx), context, values, x1, x2);
            return interpolate_2d_with(TensorSplineFitter<Context>(context, M, x_min, dx, spline_solve), context, values,
                                       x1, x2);
        });
    }

    std::vector<double> interpolate_3d(const std::vector<double>& values, int M, double x_min, double dx,
                                       const std::vector<double>& x1, const std::vector<double>& x2,
                                       const std::vector<double>& x3, SplineSolve spline_solve) const override {
        return guarded([&](Context& context) {
            TensorSpline3DFitter<Context> fitter(context, M, x_min, dx, spline_solve);
            Vector<double> v(values.begin(), values.end()), data(fitter.data_size()), p1(x1.begin(), x1.end()),
                p2(x2.begin(), x2.end()), p3(x3.begin(), x3.end()), out(x1.size());
            fitter.fit(raw(v), raw(data), 1);
            auto points = thrust::make_zip_iterator(thrust::make_tuple(p1.begin(), p2.begin(), p3.begin()));
            thrust::transform(context.policy(), points, points + x1.size(), out.begin(),
                              Interpolant3DAtPoint<TensorSpline3DEvaluator>{fitter.evaluator(), raw(v), raw(data)});
            return to_host(context, out);
        });
    }

    SolveResult solve(const std::string& problem, const SchemeSettings& settings) const override {
        if (settings.gpus > 1)  // slab g on device g
            return solve_split(
                problem, settings, [&] { return Context::slab_links(settings.gpus); }, [](int slab) { return slab; },
                " x " + std::to_string(settings.gpus));
        return guarded([&](Context& context) {
#define BSDE_SOLVE_IF_NAMED(P)                                          \
            if (problem == P::name || problem == P::alias) return solve_with<P>(context, settings);
            BSDE_PROBLEMS(BSDE_SOLVE_IF_NAMED)
#undef BSDE_SOLVE_IF_NAMED
            throw InputError("--problem " + quoted(problem) + ": no such problem");
        });
    }
    SolveResult solve_batch(const std::string& problem, const SchemeSettings& settings,
                            const std::vector<ProblemParameters>& members) const override {
        return guarded([&](Context& context) {
#define BSDE_SOLVE_IF_NAMED(P)                                          \
            if (problem == P::name || problem == P::alias) return solve_with<P>(context, settings, members);
            BSDE_PROBLEMS(BSDE_SOLVE_IF_NAMED)
#undef BSDE_SOLVE_IF_NAMED
            throw InputError("--problem " + quoted(problem) + ": no such problem");
        });
    }

    SolveResult solve_in_slabs(const std::string& problem, const SchemeSettings& settings, int slabs) const override {
        SchemeSettings split = settings;
        split.gpus = slabs;
        return solve_split(
            problem, split, [&] { return std::make_unique<CopySlabLinks>(slabs); }, [](int) { return 0; },
            ", " + std::to_string(slabs) + " slabs");
    }

    std::vector<double> pass_around_slabs(const std::vector<double>& values, int slabs) const override {
        const std::unique_ptr<SlabLinks> links = Context::slab_links(slabs);
        std::vector<double> first_sums;
        on_slab_threads(*links, [](int slab) { return slab; }, [&](Context& context, SlabLink& link, int g) {
            std::vector<double> mine(values);
            for (double& v : mine) v += g;
            Vector<double> sent(mine.begin(), mine.end()), received(values.size());
            const std::size_t count = values.size();
            link.exchange({{(g + 1) % slabs, raw(sent), nullptr, count},
                           {(g + slabs - 1) % slabs, nullptr, raw(received), count}});
            link.add_up(raw(received), static_cast<int>(count));
            if (g == 0) first_sums = to_host(context, received);
        });
        return first_sums;
    }

private:
    template <class T>
    using Vector = typename Context::template vector<T>;

    // body(context, link, g) for each slab g of `links` on a thread of its own, with a context of its own on device
    // device_of(g); the first failure, in time, is thrown once every thread has ended (the others stopped by
    // SlabLinks::abort).
    template <class DeviceOf, class Body>
    static void on_slab_threads(SlabLinks& links, const DeviceOf& device_of, const Body& body) {
        std::exception_ptr first_failure;
        std::mutex failure_mutex;
        std::vector<std::thread> threads;
        for (int g = 0; g < links.slabs(); ++g)
            threads.emplace_back([&, g] {
                try {
                    Context::select_device(device_of(g));
                    guarded([&](Context& context) {
                        const std::unique_ptr<SlabLink> link = links.link(g, context.endpoint());
                        body(context, *link, g);
                        context.synchronize();
                        return 0;
                    });
                } catch (...) {
                    {
                        std::lock_guard<std::mutex> lock(failure_mutex);
                        if (!first_failure) first_failure = std::current_exception();
                    }
                    links.abort();
                }
            });
        for (std::thread& thread : threads) thread.join();
        if (first_failure) std::rethrow_exception(first_failure);
    }

    // The solve of a grid split into settings.gpus slabs (slabs.h), the settings checked (check_slabs) before the links
    // are made (make_links()), slab g on device device_of(g); `placement` follows the device's description in the
    // result.
    template <class MakeLinks, class DeviceOf>
    static SolveResult solve_split(const std::string& problem, const SchemeSettings& settings, const MakeLinks& make_links,
                                   const DeviceOf& device_of, const std::string& placement) {
#define BSDE_SOLVE_IF_NAMED(P)                                                                                        \
        if (problem == P::name || problem == P::alias)                                                                \
            return with_interpolation_family<P::dimension>(settings.interpolation, [&](auto family) {                 \
                check_slabs(settings, P::dimension, has_obstacle<P>::value, 1);                                       \
                const std::unique_ptr<SlabLinks> links = make_links();                                                \
                SolveResult result = sweep_in_slabs<P, decltype(family)>(settings, *links, device_of);               \
                result.device = guarded([](Context& context) { return context.description(); }) + placement;         \
                return result;                                                                                        \
            });
        BSDE_PROBLEMS(BSDE_SOLVE_IF_NAMED)
#undef BSDE_SOLVE_IF_NAMED
        throw InputError("--problem " + quoted(problem) + ": no such problem");
    }

    // Each slab's sweep on a thread of its own (on_slab_threads), the slabs' results as one (SlabResults).
    template <class Problem, class Interpolation, class DeviceOf>
    static SolveResult sweep_in_slabs(const SchemeSettings& settings, SlabLinks& links, const DeviceOf& device_of) {
        const Problem problem(settings.T, settings.problem_parameters);
        SlabResults results(links.slabs());
        on_slab_threads(links, device_of, [&](Context& context, SlabLink& link, int g) {
            BackwardSweep<Problem, Interpolation, Context> sweep(context, problem, settings, g, link);
            results.take(g, sweep.run(), sweep.rows(), sweep.owns_centre());
        });
        SolveResult result = results.combined(Problem::dimension);
        result.problem = Problem::name;
        if constexpr (Interpolation::solves_spline_moments)
            result.spline_solve = to_string(resolve_spline_solve(settings.spline_solve, Context::runs_on_gpu));
        return result;
    }

    static std::vector<double> to_host(const Context& context, const Vector<double>& v) {
        std::vector<double> out(v.size());
        context.copy_to_host(v.begin(), v.end(), out.begin());
        return out;
    }

    // Fits one function and evaluates its interpolant at the points (x1[k], x2[k]).
    template <class Fitter>
    static std::vector<double> interpolate_2d_with(Fitter&& fitter, Context& context, const std::vector<double>& values,
                                                   const std::vector<double>& x1, const std::vector<double>& x2) {
        Vector<double> v(values.begin(), values.end()), data(fitter.data_size()), p1(x1.begin(), x1.end()),
            p2(x2.begin(), x2.end()), out(x1.size());
        fitter.fit(raw(v), raw(data), 1);
        using Evaluator = decltype(fitter.evaluator());
        thrust::transform(context.policy(), p1.begin(), p1.end(), p2.begin(), out.begin(),
                          Interpolant2DAtPoint<Evaluator>{fitter.evaluator(), raw(v), raw(data)});
        return to_host(context, out);
    }

    // The interpolation chosen (validate() rejects those of the other dimension).
    template <class Problem>
    static SolveResult solve_with(Context& context, const SchemeSettings& settings,
                                  const std::vector<ProblemParameters>& members = {}) {
        return with_interpolation_family<Problem::dimension>(settings.interpolation, [&](auto family) {
            return sweep_with<Problem, decltype(family)>(context, settings, members);
        });
    }

    // The members' problems, or with none the settings' problem alone.
    template <class Problem, class Interpolation>
    static SolveResult sweep_with(Context& context, const SchemeSettings& settings,
                                  const std::vector<ProblemParameters>& members) {
        std::vector<Problem> problems;
        if (members.empty()) problems.emplace_back(settings.T, settings.problem_parameters);
        for (std::size_t b = 0; b < members.size(); ++b) {
            try {
                problems.emplace_back(settings.T, members[b]);
            } catch (const InputError& e) {
                throw InputError("member " + std::to_string(b + 1) + ": " + e.what());
            }
        }
        BackwardSweep<Problem, Interpolation, Context> sweep(context, problems, settings);
        SolveResult result = sweep.run();
        result.problem = Problem::name;
        result.device = context.description();
        if constexpr (Interpolation::solves_spline_moments)
            result.spline_solve = to_string(resolve_spline_solve(settings.spline_solve, Context::runs_on_gpu));
        return result;
    }

    // f(context) on a new context. Library failures surface as DeviceError (exit code 4) with the library's
    // message; a Thrust failure also with the place of the context's last Thrust call (thrust_calls.h).
    template <class F>
    static auto guarded(F&& f) -> decltype(f(std::declval<Context&>())) {
        try {
            Context context;
            try {
                return f(context);
            } catch (const thrust::system_error& e) {
                const std::string site = context.last_site();
                throw DeviceError((site.empty() ? "" : site + ": ") + "Thrust: " + e.what());
            }
        } catch (const std::bad_alloc&) {
            throw DeviceError("out of memory while allocating the solver's arrays");
        }
    }
};

}  // namespace bsde
