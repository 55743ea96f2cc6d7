// Host-side facts about every problem in problem_list.h: names, defaults, description.
#pragma once
#include <string>
#include <vector>

#include "problem_support.h"
#include "spots.h"

namespace bsde {

struct ProblemInfo {
    std::string name, alias, description;
    int dimension;
    double default_T, default_R;
    int default_L;
    bool terminal_kinked;                   // its terminal data have a kink (terminal_kink(): startup_refinement)
    bool reflected;                         // it declares an obstacle (obstacle.h): y is the price of N exercise dates
    bool exercise_boundary;                 // its solve records an early-exercise boundary (records_exercise_boundary)
    bool feynman_kac_startup;               // --startup auto takes feynman-kac for it (feynman_kac_applies)
    std::vector<ParameterInfo> parameters;  // what --NAME VALUE sets (problem_support.h)
    std::string driver_z_advice;            // SchemeSettings::driver_z_advice (problem_support.h)
    // Constructs the problem with T and the parameters given, which throws InputError for a parameter it does not
    // declare or a value it refuses, and returns its driver's gradient in z (SchemeSettings::driver_z_gradient).
    std::array<double, 3> (*driver_z_gradient)(double T, const ProblemParameters& given);
    // Constructs the problem with settings.T and settings.problem_parameters and runs its checks of the grid
    // (algorithms/scheme/problem_grid_checks.h): throws InputError for a setting the sweep would refuse.
    void (*check_grid)(const SchemeSettings& settings);
    // Problems with spots (the options, spots.h): constructs the problem with settings.T and
    // settings.problem_parameters and returns the domain that the spots need, one range per asset or one for all, none
    // for the problem's default (0.5 to 2 times each initial price). nullptr for a problem without spots.
    SpotDomain (*spot_domain)(const SchemeSettings& settings, const std::vector<SpotRange>& spots);
};

// Every problem of problems/problem_list.h; throws DefinitionError where check_problem_definitions finds a defect.
const std::vector<ProblemInfo>& problem_infos();

// Throws DefinitionError where two problems share a name or an alias, or one declares a parameter twice.
void check_problem_definitions(const std::vector<ProblemInfo>& problems);

// validate() with the problem's checks of the grid (ProblemInfo::check_grid) before the stability analysis, so that
// settings the problem refuses at every N are not first refused as unstable with another N as the remedy; a refusal
// for instability ends with `unstable_advice`. Throws InputError.
void validate_for_problem(const SchemeSettings& settings, const ProblemInfo& problem,
                          const std::string& unstable_advice = allow_unstable_advice);

// The problem's facts that the settings' checks and counts take: its driver's z term, for the stability analysis
// (driver_z_gradient with settings.T and settings.problem_parameters, constructing the problem, which throws
// InputError for a parameter it refuses, and driver_z_advice), and whether its terminal data are kinked
// (terminal_kinked: the multistep start-up's substeps).
void set_problem_terms(SchemeSettings& settings, const ProblemInfo& problem);

// The settings of a batch's member (bsde surface, the bench's surface cases): `settings` with the member's parameters
// and their terms (set_problem_terms, which throws InputError for a parameter the problem refuses).
SchemeSettings member_settings(const SchemeSettings& settings, const ProblemInfo& problem,
                               const ProblemParameters& member);

// A warning (empty if none) where the settings give a drift (a parameter declared by drift_parameter: the options'
// mu) whose driver's z term, settings.driver_z_gradient (set_problem_terms), is not 0 beyond rounding (|df/dz|
// sqrt(T) above 1e-12): the price does not depend on the drift, the scheme's error grows with that term.
std::string drift_warning(const SchemeSettings& settings, const ProblemInfo& problem);

// The problem called `name` (its name or alias), or nullptr.
const ProblemInfo* problem_named(const std::string& name);

// The problem called `name` (its name or alias); throws InputError listing the known ones.
const ProblemInfo& find_problem(const std::string& name);

// A parameter name and the problems that declare it, in the order of problem_infos(): the command line's
// --NAME options and their help.
struct ParameterUse {
    std::string name;
    std::vector<std::pair<const ProblemInfo*, ParameterInfo>> problems;
};
const std::vector<ParameterUse>& problem_parameter_uses();

// Whether some problem declares a parameter called `name`.
bool is_problem_parameter(const std::string& name);

}  // namespace bsde
