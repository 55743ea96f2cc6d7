// Every problem the program knows, one line each: BSDE_PROBLEMS(X) calls X(type) per problem.
// Adding a problem (docs/architecture.md, "Adding a problem"): write its header, include it here and add its line (the line before
// it ends in a backslash). Its name and alias must differ from every other problem's, and its parameters' names from
// each other and from bsde's options (--T, --K, ...); it may read only the parameters it declares. bsde refuses to
// start otherwise, naming the problem (DefinitionError, exit code 5), and so fails the test
// registry/problem_definitions_are_checked.
#pragma once
#include "allen_cahn_bsde.h"
#include "american_option.h"
#include "bergman_2d.h"
#include "bergman_option.h"
#include "black_scholes_option.h"
#include "exchange_option.h"
#include "geometric_basket.h"
#include "hjb_bsde.h"
#include "log_sine_bsde.h"
#include "logistic_bsde.h"
#include "sine_sum_3d.h"
#include "sine_sum_bsde.h"

#define BSDE_PROBLEMS(X)  \
    X(logistic_bsde)      \
    X(log_sine_bsde)      \
    X(black_scholes_call) \
    X(black_scholes_put)  \
    X(sine_sum_bsde)      \
    X(exchange_option)    \
    X(american_put)       \
    X(american_call)      \
    X(american_exchange)  \
    X(allen_cahn_1d)      \
    X(allen_cahn_2d)      \
    X(hjb_1d)             \
    X(hjb_2d)             \
    X(bergman_option)     \
    X(bergman_2d)         \
    X(sine_sum_3d_bsde)   \
    X(geometric_basket)
