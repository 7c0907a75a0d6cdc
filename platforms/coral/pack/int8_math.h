// Coral's int8 arithmetic: the rounding helpers of its integer formulation, the lookup
// tables tasks supply as inputs, and the per-configuration requantisation shifts. Every
// definition here is quoted in the tasks' notes and in docs/tasks.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tasks/expr.h"
#include "tasks/integer_formulation.h"

namespace tlmcraft::tasks::coral {

// floor((2a + b) / (2b)) for b > 0: a / b rounded half up.
int64_t rdiv(int64_t a, int64_t b);
// floor(sqrt(v)) for v >= 0, exactly.
int64_t isqrt(int64_t v);
// (v + 2^(s-1)) >> s (arithmetic shift; round half up, RVV vxrm = rnu); s >= 1.
int64_t rshift(int64_t v, int s);
int64_t sat8(int64_t v);

// The 256-entry tables: GELU and SiLU (int8, index = x + 128, x in Q5: "gelu_lut",
// "silu_lut") and exp (int32, round(32767 exp(-k/16)): "exp_q15").
std::vector<int64_t> gelu_table();
std::vector<int64_t> silu_table();
std::vector<int64_t> exp_q15_table();

// The standard deviation of int8 values uniform in [-128, 127].
constexpr double kSigmaUniformInt8 = 73.9003;  // sqrt((256^2 - 1) / 12)
// max(1, round(log2(sigma_a sigma_b sqrt(K) / 32))): maps an accumulator of K products
// of operands with those spreads to int8 values with a spread of about 32.
int shift_for(double sigma_a, double sigma_b, int64_t k);

// The named integer constants of a Coral task configuration (shifts); empty if none.
std::vector<IntegerConstant> constants(const std::string& task, const Params& params);
// One constant by name; throws std::out_of_range if the task has no such constant.
int64_t constant(const std::string& task, const Params& params, const std::string& name);

}  // namespace tlmcraft::tasks::coral
