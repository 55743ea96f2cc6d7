// Every problem the program knows, one line each: BSDE_PROBLEMS(X) calls X(type) per problem.
// Adding a problem: write its header, include it here and add its line.
#pragma once
#include "black_scholes_option.h"
#include "exchange_option.h"
#include "log_sine_bsde.h"
#include "logistic_bsde.h"
#include "sine_sum_bsde.h"

#define BSDE_PROBLEMS(X) \
    X(logistic_bsde)     \
    X(log_sine_bsde)     \
    X(black_scholes_call) \
    X(black_scholes_put)  \
    X(sine_sum_bsde)      \
    X(exchange_option)
