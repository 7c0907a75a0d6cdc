// Numerics policies of the platforms: what the memory holds for an input (MXFP8 on
// PLENA, BF16 on AIE-ML, integers on Coral) and how float references round.
#pragma once
#include <cstdint>
#include <random>
#include <string>

#include "tasks/spec.h"
#include "tasks/tensor.h"

namespace tlmcraft::tasks {

// v rounded to the nearest integer, halves away from zero (integer generators and tables).
int64_t round_half_away(double v);
// Nearest BF16 value of v (one rounding, ties to even).
double bf16(double v);
// v rounded to one of its two BF16 neighbours at random, up with probability equal to its
// distance from the lower one (unbiased stochastic rounding). Used to perturb a reference's
// stages and measure how far BF16 staging can move each output (rounding_slack).
double bf16_stochastic(double v, std::mt19937_64& rng);

// How a float reference rounds. PLENA: every materialised stage and every FP_MEM
// constant is BF16. AIE-ML: full precision until the output. Both: BF16 outputs.
struct FloatNumerics {
  bool stage_bf16 = false;
  int64_t vlen = 64;  // PLENA reductions work on rows of VLEN lanes (see reduce_sum)
  std::mt19937_64* perturb = nullptr;  // unstaged stages rounded stochastically to BF16 (rounding_slack)
  // Outputs left unrounded: rounding_slack measures a staged platform's deviation before
  // the output's own rounding, which the tolerance covers (a BF16-rounded sample hides a
  // deviation below half a step).
  bool raw_outputs = false;
  double r(double v) const { return stage_bf16 ? bf16(v) : perturb ? bf16_stochastic(v, *perturb) : v; }  // after a stage
  double c(double v) const { return r(v); }                                                               // a constant
  double out(double v) const { return raw_outputs ? v : bf16(v); }                                         // an output element
  // The numerics of a part a reference computes without staging (PLENA's FlashAttention
  // softmax, whose staging depends on the kernel's blocks): exact, perturbed alike.
  FloatNumerics unstaged() const { return FloatNumerics{false, vlen, perturb, raw_outputs}; }
  static FloatNumerics for_platform(const PlatformId& p);
};

// A platform's numerics policy, registered by its pack (platforms/<p>/pack/).
struct NumericsRegistration {
  std::string input_type;          // element type of inputs, weights and kv ("mxfp8", "bf16", "int8")
  std::string output_type;         // element type of outputs
  bool stage_bf16 = false;         // float references round every materialised stage to BF16
  // Empty: float references. Otherwise the name of the integer formulation (registered by
  // the pack, tasks/integer_formulation.h) that gives references, constants and tables.
  std::string integer_formulation;
};
// Throws std::invalid_argument if `p` already has a policy.
void register_numerics(const PlatformId& p, NumericsRegistration numerics);
// Throws std::invalid_argument naming the platform if its pack registered none.
const NumericsRegistration& platform_numerics(const PlatformId& p);

// The element type tensor `t` has on platform p ("mxfp8", "bf16", "int8", "int32").
std::string element_type(const TensorSpec& t, PlatformId p);

// Replaces generated values by the values the platform's memory holds: PLENA inputs
// go through the MXFP8 round trip (blocks of 8 in row-major order), AIE-ML inputs are
// rounded to BF16, Coral inputs must already be integers and are saturated to their
// element type's range.
void to_memory_values(const TensorSpec& t, PlatformId p, Tensor& tensor);

}  // namespace tlmcraft::tasks
