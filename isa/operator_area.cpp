#include "isa/operator_area.h"

#include <map>

namespace tlmcraft::isa {
namespace {

// "i8" -> "int8", "f32" -> "fp32", "fp16" for bf16 (priced alike).
std::string canonical_format(const std::string& f) {
  static const std::map<std::string, std::string> alias = {
      {"i8", "int8"},   {"u8", "int8"},   {"i16", "int16"}, {"u16", "int16"}, {"i32", "int32"},
      {"u32", "int32"}, {"i64", "int64"}, {"f16", "fp16"},  {"bf16", "fp16"}, {"f32", "fp32"},
      {"s8", "int8"},   {"s16", "int16"}, {"s32", "int32"}, {"s64", "int64"}};
  auto it = alias.find(f);
  return it == alias.end() ? f : it->second;
}

bool adder(const std::string& f, double& um2) {
  static const std::map<std::string, double> a = {{"int8", 36},       {"int16", 70.2}, {"int32", 137},
                                                  {"int64", 2 * 137}, {"fp16", 1360},  {"fp32", 4184}};
  auto it = a.find(f);
  return it != a.end() && (um2 = it->second, true);
}

bool multiplier(const std::string& f, double& um2) {
  static const std::map<std::string, double> m = {
      {"int8", 282}, {"int16", 992.8}, {"int32", 3495}, {"fp16", 1640}, {"fp32", 7700}};
  auto it = m.find(f);
  return it != m.end() && (um2 = it->second, true);
}

// The accumulator format of a MAC on `f`.
std::string accumulator(const std::string& f) {
  if (f == "int8") return "int32";
  if (f == "int16" || f == "int32") return "int64";
  return "fp32";
}

}  // namespace

bool operator_area_um2(const std::string& op, const std::string& format, double& um2) {
  const std::string f = canonical_format(format);
  double add = 0, mul = 0;
  const bool has_add = adder(f, add), has_mul = multiplier(f, mul);
  if (op == "move") return um2 = 0, true;
  if (op == "add" || op == "cmp" || op == "logic" || op == "convert") return has_add && (um2 = add, true);
  if (op == "mul") return has_mul && (um2 = mul, true);
  if (op == "mac") return mac_area_um2(f, accumulator(f), um2);
  if (!has_add || !has_mul) return false;
  if (op == "exp" || op == "log") return um2 = 2 * mul + 2 * add, true;
  if (op == "recip" || op == "sqrt" || op == "rsqrt") return um2 = 2 * mul + add, true;
  if (op == "div") return um2 = 3 * mul + add, true;
  return false;
}

bool mac_area_um2(const std::string& format, const std::string& accumulator, double& um2) {
  double mul = 0, acc = 0;
  return multiplier(canonical_format(format), mul) && adder(canonical_format(accumulator), acc) &&
         (um2 = mul + acc, true);
}

double register_write_port_um2(int registers, int bits) { return double(registers) * double(bits) * kMux2Um2; }

bool action_area_um2(const std::string& action, double& um2) {
  const size_t a = action.find('.'), b = action.rfind('.');
  if (a == std::string::npos || b == a) return false;
  return operator_area_um2(action.substr(a + 1, b - a - 1), action.substr(b + 1), um2);
}

}  // namespace tlmcraft::isa
