// Host-side facts about every problem in problem_list.h: names, defaults, description.
#pragma once
#include <string>
#include <vector>

#include "problem_support.h"

namespace bsde {

struct ProblemInfo {
    std::string name, alias, description;
    int dimension;
    double default_T, default_R;
    int default_L;
    std::vector<ParameterInfo> parameters;  // what --NAME VALUE sets (problem_support.h)
};

const std::vector<ProblemInfo>& problem_infos();

// The problem called `name` (its name or alias); throws InputError listing the known ones.
const ProblemInfo& find_problem(const std::string& name);

// A parameter name and the problems that declare it, in the order of problem_infos(): the command line's
// --NAME options and their help.
struct ParameterUse {
    std::string name;
    std::vector<std::pair<const ProblemInfo*, ParameterInfo>> problems;
};
const std::vector<ParameterUse>& problem_parameter_uses();

}  // namespace bsde
