// The datapath a custom instruction adds (docs/isa-extensions.md, "Coral", Area): its
// operations at 32-bit elements (custom_actions at SEW 32, VLEN/32 lanes for a vector
// instruction), each a new operator beside the core's own units (a custom instruction is
// its own functional unit), plus per temp a pipeline register and a 2:1 bypass
// multiplexer per bit. Operator areas, 45 nm: [H14] (docs/energy-area.md): int8 adder 36,
// int32 adder 137, fp16 adder 1360, fp32 adder 4184, int8 multiplier 282, int32
// multiplier 3495, fp16 multiplier 1640, fp32 multiplier 7700 um2; int16 the mean of the
// 8- and 32-bit figures. Assumptions: a comparator, logic, min/max, a shifter and an
// integer conversion cost an adder of the width; a float conversion a float adder; a move
// nothing; a MAC a multiplier plus an adder; divide, square root, reciprocal and rsqrt two
// multipliers and an adder (a Newton-Raphson step), exp and log two of each (range
// reduction and a polynomial). Flip-flop 4.522 um2 (DFF_X1), 2:1 multiplexer 1.862 um2
// (MUX2_X1), NanGate 45 nm Open Cell Library [N45].
#include <map>
#include <stdexcept>

#include "isa/riscv/custom_ext.h"

namespace tlmcraft::isa::riscv {
namespace {

struct Operators {
  double add, mul;
};

// Adder and multiplier areas (um2) of an element format.
Operators operators_of(const std::string& format) {
  static const std::map<std::string, Operators> table = {{"int8", {36, 282}},    {"int16", {86.5, 1888.5}},
                                                         {"int32", {137, 3495}}, {"bf16", {1360, 1640}},
                                                         {"f32", {4184, 7700}},  {"fp32", {4184, 7700}}};
  auto it = table.find(format);
  if (it == table.end()) throw std::invalid_argument("no operator area for format '" + format + "'");
  return it->second;
}

bool is_float(const std::string& format) { return format == "f32" || format == "fp32" || format == "bf16"; }

double operator_um2(const std::string& primitive, const std::string& format) {
  const Operators o = operators_of(format);
  const double int_add = is_float(format) ? 137 : o.add;  // comparisons of floats: an integer compare of the bits
  if (primitive == "add") return o.add;
  if (primitive == "mul") return o.mul;
  if (primitive == "mac") return o.mul + o.add;
  if (primitive == "div" || primitive == "sqrt" || primitive == "rsqrt" || primitive == "recip")
    return 2 * o.mul + o.add;
  if (primitive == "exp" || primitive == "log") return 2 * o.mul + 2 * o.add;
  if (primitive == "cmp" || primitive == "logic") return int_add;
  if (primitive == "convert") return o.add;
  if (primitive == "move") return 0;
  throw std::invalid_argument("no operator area for '" + primitive + "'");
}

constexpr double kFlipFlopUm2 = 4.522, kMux2Um2 = 1.862;  // [N45]

}  // namespace

double custom_area_mm2(const CustomInsn& in) {
  if (in.declared_area_mm2 >= 0) return in.declared_area_mm2;
  const unsigned lanes = kVlenBits / 32;
  double um2 = 0;
  for (const NamedAction& a : custom_actions(in, 4, lanes)) {
    const size_t d1 = a.name.find('.'), d2 = a.name.rfind('.');
    if (d1 == std::string::npos || d1 == d2) continue;
    const std::string unit = a.name.substr(0, d1);
    if (unit != "scalar" && unit != "fpu" && unit != "vector") continue;  // register traffic, not datapath
    um2 += double(a.count) * operator_um2(a.name.substr(d1 + 1, d2 - d1 - 1), a.name.substr(d2 + 1));
  }
  for (const CustomInsn::Name& n : in.names) {
    if (!n.temp || !in.semantics.empty()) continue;  // a semantics: datapath has no steps' temps
    const double bits = n.cls == ValueClass::V ? kVlenBits : 32;
    um2 += bits * (kFlipFlopUm2 + kMux2Um2);
  }
  return um2 * 1e-6;
}

}  // namespace tlmcraft::isa::riscv
