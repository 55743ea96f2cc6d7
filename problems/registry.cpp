#include "registry.h"

#include <algorithm>
#include <type_traits>
#include <utility>
#include <cmath>

#include "../algorithms/core/errors.h"
#include "../algorithms/scheme/obstacle.h"
#include "../algorithms/scheme/problem_grid_checks.h"
#include "problem_interface.h"
#include "problem_list.h"

namespace bsde {
namespace {

template <class Problem>
std::array<double, 3> constructed_driver_z_gradient(double T, const ProblemParameters& given) {
    return driver_z_gradient(Problem(T, given), T);
}

template <class Problem>
void constructed_grid_check(const SchemeSettings& settings) {
    check_problem_against_grid(Problem(settings.T, settings.problem_parameters), settings);
}

template <class P, class = void>
struct has_spots : std::false_type {};
template <class P>
struct has_spots<P, std::void_t<decltype(std::declval<const P&>().spot_domain(std::vector<SpotRange>{}))>>
    : std::true_type {};

template <class Problem>
SpotDomain constructed_spot_domain(const SchemeSettings& settings, const std::vector<SpotRange>& spots) {
    return Problem(settings.T, settings.problem_parameters).spot_domain(spots);
}

template <class Problem>
constexpr auto spot_domain_of() -> SpotDomain (*)(const SchemeSettings&, const std::vector<SpotRange>&) {
    if constexpr (has_spots<Problem>::value)
        return &constructed_spot_domain<Problem>;
    else
        return nullptr;
}

// A problem's entry, once the build has checked its interface (problem_interface.h).
template <class P>
ProblemInfo problem_info() {
    static_assert(check_problem_interface<P>());
    return ProblemInfo{P::name,
                       P::alias,
                       P::description,
                       P::dimension,
                       P::default_T,
                       P::default_R,
                       P::default_L,
                       has_terminal_kink<P>::value,
                       has_obstacle<P>::value,
                       records_exercise_boundary<P>,
                       feynman_kac_applies<P>,
                       declared_parameters<P>(),
                       driver_z_advice<P>(),
                       &constructed_driver_z_gradient<P>,
                       &constructed_grid_check<P>,
                       spot_domain_of<P>()};
}

}  // namespace

const std::vector<ProblemInfo>& problem_infos() {
#define BSDE_PROBLEM_INFO(P) problem_info<P>(),
    static const std::vector<ProblemInfo> infos = [] {
        std::vector<ProblemInfo> listed{BSDE_PROBLEMS(BSDE_PROBLEM_INFO)};
        check_problem_definitions(listed);
        return listed;
    }();
#undef BSDE_PROBLEM_INFO
    return infos;
}

void check_problem_definitions(const std::vector<ProblemInfo>& problems) {
    for (std::size_t a = 0; a < problems.size(); ++a) {
        const ProblemInfo& first = problems[a];
        for (std::size_t b = a + 1; b < problems.size(); ++b)
            for (const std::string& called : {problems[b].name, problems[b].alias})
                if (called == first.name || called == first.alias)
                    throw DefinitionError("problems '" + first.name + "' and '" + problems[b].name +
                                          "' are both called '" + called + "' (problems/problem_list.h: each "
                                          "problem's name and alias must differ from every other problem's)");
        for (std::size_t p = 0; p < first.parameters.size(); ++p)
            for (std::size_t q = p + 1; q < first.parameters.size(); ++q)
                if (first.parameters[p].name == first.parameters[q].name)
                    throw DefinitionError("problem '" + first.name + "' declares parameter '" +
                                          first.parameters[p].name + "' twice");
    }
}

void validate_for_problem(const SchemeSettings& settings, const ProblemInfo& problem,
                          const std::string& unstable_advice) {
    SchemeSettings stability_unchecked = settings;
    stability_unchecked.allow_unstable = true;
    validate(stability_unchecked, problem.dimension);
    problem.check_grid(settings);
    if (!settings.allow_unstable) require_stable(settings, problem.dimension, unstable_advice);
}

void set_problem_terms(SchemeSettings& settings, const ProblemInfo& problem) {
    settings.driver_z_gradient = problem.driver_z_gradient(settings.T, settings.problem_parameters);
    settings.driver_z_advice = problem.driver_z_advice;
    settings.terminal_kinked = problem.terminal_kinked;
}

SchemeSettings member_settings(const SchemeSettings& settings, const ProblemInfo& problem,
                               const ProblemParameters& member) {
    SchemeSettings s = settings;
    s.problem_parameters = member;
    set_problem_terms(s, problem);
    return s;
}

std::string drift_warning(const SchemeSettings& settings, const ProblemInfo& problem) {
    std::string given, removing;
    int drifts = 0;
    for (const ParameterInfo& parameter : problem.parameters) {
        if (!parameter.removing_default) continue;
        removing += (drifts++ ? " and " : "") + std::string(parameter.name) + " = " + parameter.removing_default;
        const auto value = settings.problem_parameters.find(parameter.name);
        if (value != settings.problem_parameters.end())
            given += (given.empty() ? "--" : ", --") + value->first + " " + format_number(value->second);
    }
    const std::array<double, 3>& c = settings.driver_z_gradient;
    const double size = std::hypot(c[0], c[1], c[2]);
    if (given.empty() || !(size * std::sqrt(settings.T) > 1e-12)) return "";
    const std::string gradient = format_components(c, problem.dimension, "%.4g");
    return given + ": the price does not depend on the drift, but this one gives the driver a z term, df/dz = " +
           gradient + " (|df/dz| sqrt(T) = " + format_number(size * std::sqrt(settings.T), "%.3g") +
           "), and the scheme's error grows with it; " + (drifts > 1 ? "the defaults, " : "the default, ") + removing +
           (drifts > 1 ? ", remove it and leave" : ", removes it and leaves") +
           " the price as it is (docs/scheme.md, Pricing with bs-call, bs-put and exchange)";
}

const ProblemInfo* problem_named(const std::string& name) {
    for (const ProblemInfo& info : problem_infos())
        if (name == info.name || name == info.alias) return &info;
    return nullptr;
}

const ProblemInfo& find_problem(const std::string& name) {
    if (const ProblemInfo* info = problem_named(name)) return *info;
    std::string known;  // each problem's shorter name, so that the line stays short as problems are added
    for (const ProblemInfo& info : problem_infos())
        known += (known.empty() ? "" : ", ") + (info.alias.size() < info.name.size() ? info.alias : info.name);
    throw InputError("--problem " + quoted(name) + ": no such problem; known problems: " + known +
                     " (bsde problems lists them with their other names)");
}

const std::vector<ParameterUse>& problem_parameter_uses() {
    static const std::vector<ParameterUse> uses = [] {
        std::vector<ParameterUse> found;
        for (const ProblemInfo& problem : problem_infos())
            for (const ParameterInfo& parameter : problem.parameters) {
                auto use = std::find_if(found.begin(), found.end(),
                                        [&](const ParameterUse& u) { return u.name == parameter.name; });
                if (use == found.end()) use = found.insert(found.end(), ParameterUse{parameter.name, {}});
                use->problems.push_back({&problem, parameter});  // once per problem (check_problem_definitions)
            }
        return found;
    }();
    return uses;
}

bool is_problem_parameter(const std::string& name) {
    const std::vector<ParameterUse>& uses = problem_parameter_uses();
    return std::any_of(uses.begin(), uses.end(), [&](const ParameterUse& use) { return use.name == name; });
}

}  // namespace bsde
