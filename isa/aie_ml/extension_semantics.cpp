// `semantics:` ops of the AIE-ML YAML: the shared expression language (isa/extension)
// over the op's operands. An operand's type is its register class and format: a vector
// or accumulator view of B bits with format F is a vector of B / bits(F) lanes (w bf16:
// 16 lanes, x bf16: 32, bm fp32: 16, w i8: 32), a scalar-side register a scalar of its
// format (i32 by default), an immediate an i32 scalar.
#include "isa/aie_ml/extension_semantics.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "isa/extension/expression.h"
#include "isa/formats/bf16.h"

namespace tlmcraft::isa::aie_ml {

namespace ext = tlmcraft::isa::extension;

struct ExtensionSemantics {
  ext::ExprProgram program;
  std::vector<ext::ElemFormat> formats;  // per operand
};

namespace {

ext::ElemFormat format_of(const ExtOperand& o) {
  ext::ElemFormat f = ext::ElemFormat::I32;
  const std::string name = o.format == "fp32" ? "f32" : o.format;
  if (!name.empty()) ext::parse_format(name, f);
  return f;
}

// Where the scalar at `mark` starts in its file (the base, or an overlay file).
ext::SourceLocation locate(const YamlErrors& L, const YAML::Mark& mark) {
  std::string file = L.file, text = L.base_text;
  int line = mark.line;
  if (L.sources) {
    file = L.sources->file_of(mark.line);
    line = L.sources->local_line(mark.line) - 1;
    if (file != L.file) {
      std::ifstream in(file);
      std::stringstream ss;
      ss << in.rdbuf();
      text = ss.str();
    }
  }
  return ext::locate_yaml_scalar(text, line, mark.column, file);
}

}  // namespace

std::shared_ptr<const ExtensionSemantics> parse_extension_semantics(YamlErrors& L, const YAML::Node& node,
                                                                    const ExtensionOp& op) {
  if (!node.IsScalar()) {
    L.error(node, op.mnemonic + ": `semantics:` is text: one statement per line (\"d = max(a, b)\")");
    return nullptr;
  }
  auto sem = std::make_shared<ExtensionSemantics>();
  std::vector<ext::OperandDecl> decls;
  for (const ExtOperand& o : op.operands) {
    const ext::ElemFormat f = format_of(o);
    const int bytes = CoreState::view_bytes(o.cls);
    if (bytes && o.format.empty()) {
      L.error(node, op.mnemonic + ": operand '" + o.name + "' (class " + o.shape + ") needs `format:` for `semantics:`");
      return nullptr;
    }
    ext::ValueType t = bytes ? ext::vector_of(f, uint32_t(bytes * 8 / ext::bit_width(f))) : ext::scalar_of(f);
    const ext::Role role = o.role == ExtOperand::Role::Read    ? ext::Role::Input
                           : o.role == ExtOperand::Role::Write ? ext::Role::Output
                                                               : ext::Role::InOut;
    decls.push_back({o.name, t, role});
    sem->formats.push_back(f);
  }
  try {
    sem->program = ext::compile_semantics(node.Scalar(), locate(L, node.Mark()), decls);
  } catch (const ext::ExtensionError& e) {
    L.errors.push_back(e.what());
    return nullptr;
  }
  return sem;
}

namespace {
// Formats as AIE-ML's action names spell them (its MAC formats: int8, fp32, ...).
std::string action_format(ext::ElemFormat f) {
  const std::string n = ext::format_name(f);
  if (n == "f32") return "fp32";
  if (n[0] == 'i') return "int" + n.substr(1);
  return n;  // bf16, u8.., bool
}
}  // namespace

NamedActions semantics_actions(const ExtensionSemantics& sem, const std::string& unit) {
  InstructionWork work;
  for (const ext::OpCount& c : sem.program.op_counts)
    work.ops.push_back({unit, c.op, action_format(c.format), uint64_t(c.per_element) * std::max<uint32_t>(1, c.lanes)});
  return actions_of(work);
}

namespace {

ext::Value read_value(const uint8_t* image, int bytes, ext::ElemFormat f, int64_t scalar) {
  if (!image) return ext::Value::scalar_int(f, scalar);
  const int lane = ext::bit_width(f) / 8;
  const int lanes = bytes / lane;
  if (f == ext::ElemFormat::BF16) {
    std::vector<uint16_t> bits(static_cast<size_t>(lanes));
    std::memcpy(bits.data(), image, size_t(bytes));
    return ext::Value::from_bf16_bits(bits, true);
  }
  if (f == ext::ElemFormat::F32) {
    std::vector<float> v(static_cast<size_t>(lanes));
    std::memcpy(v.data(), image, size_t(bytes));
    return ext::Value::vector_float(f, v);
  }
  std::vector<int64_t> v(static_cast<size_t>(lanes));
  for (int i = 0; i < lanes; ++i) {
    int64_t x = 0;
    std::memcpy(&x, image + i * lane, size_t(lane));  // little-endian; sign handled by the format's wrap
    v[size_t(i)] = x;
  }
  return ext::Value::vector_int(f, v);
}

void write_value(const ext::Value& v, uint8_t* image, int bytes) {
  const int lane = ext::bit_width(v.format) / 8;
  if (v.format == ext::ElemFormat::BF16) {
    const std::vector<uint16_t> bits = v.bf16_bits();
    std::memcpy(image, bits.data(), std::min(size_t(bytes), bits.size() * 2));
  } else if (v.format == ext::ElemFormat::F32) {
    std::memcpy(image, v.floats.data(), std::min(size_t(bytes), v.floats.size() * 4));
  } else {
    for (size_t i = 0; i < v.ints.size() && int(i) * lane < bytes; ++i) std::memcpy(image + i * size_t(lane), &v.ints[i], size_t(lane));
  }
}

}  // namespace

bool run_extension_semantics(const ExtensionSemantics& sem, const ExtensionOp& op, ExtensionIo& io, std::string& error) {
  std::vector<ext::Value> inputs;
  for (uint32_t i : sem.program.inputs) {
    const int bytes = CoreState::view_bytes(op.operands[i].cls);
    inputs.push_back(read_value(io.in[i], bytes, sem.formats[i], io.scalar[i]));
  }
  std::vector<ext::Value> outputs;
  try {
    outputs = ext::evaluate(sem.program, inputs);
  } catch (const std::exception& e) {
    error = std::string("evaluation failed: ") + e.what();
    return false;
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    const uint32_t i = sem.program.outputs[k];
    if (io.out[i]) write_value(outputs[k], io.out[i], CoreState::view_bytes(op.operands[i].cls));
    else io.scalar_out[i] = outputs[k].ints.empty() ? 0 : outputs[k].ints[0];
  }
  return true;
}

}  // namespace tlmcraft::isa::aie_ml
