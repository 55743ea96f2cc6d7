// Host-side facts about every problem in problem_list.h: names, defaults, description.
#pragma once
#include <string>
#include <vector>

namespace bsde {

struct ProblemInfo {
    std::string name, alias, description;
    int dimension;
    double default_T, default_R;
    int default_L;
};

const std::vector<ProblemInfo>& problem_infos();

// The problem called `name` (its name or alias); throws InputError listing the known ones.
const ProblemInfo& find_problem(const std::string& name);

}  // namespace bsde
