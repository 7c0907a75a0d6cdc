// Names of formats, types and operations; the error type; Value constructors.
#include <cstring>

#include "isa/extension/expression.h"
#include "isa/extension/numerics.h"
#include "isa/formats/bf16.h"

namespace tlmcraft::isa::extension {

namespace {
struct FormatInfo {
  ElemFormat format;
  const char* name;
  int bits;
};
constexpr FormatInfo kFormats[] = {
    {ElemFormat::I8, "i8", 8},     {ElemFormat::I16, "i16", 16}, {ElemFormat::I32, "i32", 32},
    {ElemFormat::I64, "i64", 64},  {ElemFormat::U8, "u8", 8},    {ElemFormat::U16, "u16", 16},
    {ElemFormat::U32, "u32", 32},  {ElemFormat::U64, "u64", 64}, {ElemFormat::BF16, "bf16", 16},
    {ElemFormat::F32, "f32", 32},  {ElemFormat::Bool, "bool", 1}};

constexpr const char* kOpNames[] = {
    "input", "literal", "neg", "not", "add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr",
    "eq", "ne", "lt", "le", "gt", "ge", "select", "min", "max", "abs", "relu", "exp", "log", "sqrt",
    "rsqrt", "recip", "tanh", "sigmoid", "silu", "gelu", "fma", "sat", "srs", "rne", "convert",
    "reduce_add", "reduce_max", "reduce_min"};
static_assert(sizeof kOpNames / sizeof kOpNames[0] == size_t(Op::ReduceMin) + 1, "one name per Op");

std::string location_text(const std::string& file, int line, int column) {
  return (file.empty() ? std::string("<semantics>") : file) + ":" + std::to_string(line) + ":" +
         std::to_string(column);
}
}  // namespace

const char* format_name(ElemFormat f) { return kFormats[size_t(f)].name; }

bool parse_format(std::string_view name, ElemFormat& out) {
  for (const FormatInfo& info : kFormats)
    if (name == info.name) {
      out = info.format;
      return true;
    }
  return false;
}

bool is_float(ElemFormat f) { return f == ElemFormat::BF16 || f == ElemFormat::F32; }
bool is_integer(ElemFormat f) { return !is_float(f) && f != ElemFormat::Bool; }
bool is_signed(ElemFormat f) {
  return f == ElemFormat::I8 || f == ElemFormat::I16 || f == ElemFormat::I32 || f == ElemFormat::I64;
}
int bit_width(ElemFormat f) { return kFormats[size_t(f)].bits; }

std::string type_name(const ValueType& t) {
  return t.vector ? std::string("vector<") + format_name(t.format) + ">" : std::string(format_name(t.format));
}

const char* op_name(Op op) { return kOpNames[size_t(op)]; }

ExtensionError::ExtensionError(std::string file, int line, int column, const std::string& message)
    : std::runtime_error(location_text(file, line, column) + ": " + message),
      file_(std::move(file)),
      line_(line),
      column_(column),
      message_(message) {}

bool Dataflow::operator==(const Dataflow& o) const {
  if (outputs != o.outputs || nodes.size() != o.nodes.size()) return false;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const DataflowNode &a = nodes[i], &b = o.nodes[i];
    if (a.op != b.op || a.type != b.type || a.args != b.args || a.input != b.input ||
        a.int_value != b.int_value || std::memcmp(&a.float_value, &b.float_value, sizeof(float)) != 0)
      return false;
  }
  return true;
}

Value Value::scalar_int(ElemFormat f, int64_t v) { return vector_int(f, {v}).as_scalar(); }
Value Value::scalar_float(ElemFormat f, float v) { return vector_float(f, {v}).as_scalar(); }

Value Value::vector_int(ElemFormat f, const std::vector<int64_t>& lanes) {
  Value out;
  out.format = f;
  out.vector = true;
  out.ints.reserve(lanes.size());
  for (int64_t v : lanes) out.ints.push_back(detail::wrap(f, v));
  return out;
}

Value Value::vector_float(ElemFormat f, const std::vector<float>& lanes) {
  Value out;
  out.format = f;
  out.vector = true;
  out.floats.reserve(lanes.size());
  for (float v : lanes) out.floats.push_back(f == ElemFormat::BF16 ? formats::round_to_bf16(v) : v);
  return out;
}

Value Value::from_bf16_bits(const std::vector<uint16_t>& bits, bool vector) {
  Value out;
  out.format = ElemFormat::BF16;
  out.vector = vector;
  out.floats.reserve(bits.size());
  for (uint16_t b : bits) out.floats.push_back(formats::bf16_to_float(b));
  return out;
}

std::vector<uint16_t> Value::bf16_bits() const {
  if (format != ElemFormat::BF16) throw std::invalid_argument("bf16_bits() of a " + std::string(format_name(format)) + " value");
  std::vector<uint16_t> out;
  out.reserve(floats.size());
  for (float f : floats) out.push_back(formats::float_to_bf16(f));
  return out;
}

Value Value::as_scalar() const {
  Value out = *this;
  out.vector = false;
  return out;
}

}  // namespace tlmcraft::isa::extension
