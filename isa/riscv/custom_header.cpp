// `tlmcraft isa header`: C wrappers for the custom instructions (GNU `.insn`, which both
// binutils and clang-16's integrated assembler take), and the `.insn` text the peephole
// pass writes.
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "isa/riscv/compose_vtype.h"
#include "isa/riscv/custom_ext.h"
#include "isa/riscv/step_encoder.h"

namespace tlmcraft::isa::riscv {
namespace {

std::string hex(uint32_t v) {
  std::ostringstream o;
  o << "0x" << std::hex << v;
  return o.str();
}

std::string c_name(const std::string& mnemonic) {
  std::string s = mnemonic;
  for (char& c : s)
    if (c == '.') c = '_';
  return s;
}

// ".insn r 0x0b, 1, 3, " with the funct bits; an unmasked masked-capable form sets vm.
std::string insn_prefix(const CustomInsn& in) {
  switch (in.format) {
    case CustomFormat::R:
      return ".insn r " + hex(in.opcode) + ", " + std::to_string(in.funct3) + ", " +
             std::to_string(in.funct7 | (in.masked ? 1u : 0u)) + ", ";
    case CustomFormat::R4:
      return ".insn r4 " + hex(in.opcode) + ", " + std::to_string(in.funct3) + ", " + std::to_string(in.funct2) + ", ";
    case CustomFormat::I: return ".insn i " + hex(in.opcode) + ", " + std::to_string(in.funct3) + ", ";
  }
  return "";
}

std::vector<Field> format_fields(CustomFormat f) {
  if (f == CustomFormat::R4) return {Field::Rd, Field::Rs1, Field::Rs2, Field::Rs3};
  if (f == CustomFormat::I) return {Field::Rd, Field::Rs1, Field::Imm};
  return {Field::Rd, Field::Rs1, Field::Rs2};
}

// The asm operand text of each field: "%[name]" or x0 where no operand uses it.
std::vector<std::string> asm_fields(const CustomInsn& in) {
  std::vector<std::string> out;
  for (Field f : format_fields(in.format)) {
    const CustomOperand* o = in.operand(f);
    out.push_back(o ? "%[" + o->name + "]" : f == Field::Imm ? "0" : "x0");
  }
  return out;
}

struct VecType {
  const char* c;    // "vint32m1_t"
  const char* suffix;  // "i32m1"
  const char* sew;  // "e32"
  const char* lmul; // "m1"
};

std::string scalar_type(ValueClass c) { return c == ValueClass::F ? "float" : "int32_t"; }
std::string constraint(ValueClass c, const std::string& vconstraint) {
  return c == ValueClass::F ? "f" : c == ValueClass::V ? vconstraint : "r";
}

// One wrapper. `vt` null for scalar instructions.
std::string wrapper(const CustomInsn& in, const VecType* vt) {
  const std::string name = c_name(in.mnemonic) + (vt ? std::string("_") + vt->suffix : "");
  auto type_of = [&](ValueClass c) { return c == ValueClass::V ? std::string(vt->c) : scalar_type(c); };
  const CustomOperand* rd = nullptr;
  std::vector<std::string> params, inputs;
  for (const auto& o : in.operands) {
    if (o.write) rd = &o;
    if (!o.read) continue;
    if (o.value == ValueClass::Imm) continue;  // see the macro form below
    params.push_back(type_of(o.value) + " " + o.name + (o.write ? "_in" : ""));
    if (!o.write) inputs.push_back("[" + o.name + "] \"" + constraint(o.value, "vr") + "\"(" + o.name + ")");
  }
  if (vt) {
    params.push_back("size_t vl");
    inputs.push_back("[vl] \"r\"(vl)");
  }
  std::string text = vt ? "vsetvli zero, %[vl], " + std::string(vt->sew) + ", " + vt->lmul + ", ta, ma\\n\\t" : "";
  const auto fields = asm_fields(in);
  text += insn_prefix(in);
  for (size_t k = 0; k < fields.size(); ++k) text += (k ? ", " : "") + fields[k];
  const std::string ret = rd ? type_of(rd->value) : "void";
  std::ostringstream o;
  o << "/* " << in.mnemonic << (in.doc.empty() ? "" : ": " + in.doc) << " */\n";
  o << "static inline __attribute__((always_inline)) " << ret << " " << name << "(";
  for (size_t k = 0; k < params.size(); ++k) o << (k ? ", " : "") << params[k];
  o << (params.empty() ? "void" : "") << ") {\n";
  if (rd) o << "  " << ret << " " << rd->name << (rd->read ? " = " + rd->name + "_in" : "") << ";\n";
  o << "  __asm__ " << (rd ? "" : "volatile ") << "(\"" << text << "\"\n          : ";
  if (rd) o << "[" << rd->name << "] \"" << (rd->read ? "+" : "=") << constraint(rd->value, "vr") << "\"(" << rd->name << ")";
  o << "\n          : ";
  for (size_t k = 0; k < inputs.size(); ++k) o << (k ? ", " : "") << inputs[k];
  // No "vl"/"vtype" clobbers: clang-16 does not know those names, and its vsetvli
  // insertion already treats an asm statement as changing vl and vtype (it sets them again
  // before the next vector intrinsic).
  o << ");\n";
  if (rd) o << "  return " << rd->name << ";\n";
  o << "}\n";
  return o.str();
}

// I-format instructions take their immediate as a compile-time constant: a macro.
std::string immediate_macro(const CustomInsn& in) {
  const CustomOperand* rd = in.operand(Field::Rd);
  const CustomOperand* rs1 = in.operand(Field::Rs1);
  const CustomOperand* imm = in.operand(Field::Imm);
  std::ostringstream o;
  o << "/* " << in.mnemonic << (in.doc.empty() ? "" : ": " + in.doc) << " (imm: a constant in [-2048, 2047]) */\n";
  o << "#define " << c_name(in.mnemonic) << "(" << (rs1 ? rs1->name + ", " : "") << imm->name << ") __extension__ ({ \\\n";
  if (rd) o << "  " << scalar_type(rd->value) << " " << rd->name << "_; \\\n";
  o << "  __asm__ (\"" << insn_prefix(in) << (rd ? "%[rd]" : "x0") << ", " << (rs1 ? "%[rs1]" : "x0") << ", %[imm]\" \\\n";
  o << "           : " << (rd ? "[rd] \"=" + constraint(rd->value, "vr") + "\"(" + rd->name + "_)" : "") << " \\\n";
  o << "           : " << (rs1 ? "[rs1] \"" + constraint(rs1->value, "vr") + "\"(" + rs1->name + "), " : "")
    << "[imm] \"i\"(" << imm->name << ")); \\\n";
  o << "  " << (rd ? rd->name + "_" : "(void)0") << "; })\n";
  return o.str();
}

}  // namespace

std::string insn_directive(const CustomInsn& in, const std::vector<std::string>& field_values) {
  std::string s = insn_prefix(in);
  for (size_t k = 0; k < field_values.size(); ++k) s += (k ? ", " : "") + field_values[k];
  return s;
}

namespace {

// The register number `token` names in class `c` (ABI or numeric names), or -1.
int register_number(const std::string& token, ValueClass c) {
  static const char* const x[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                                    "a1",   "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
  static const char* const f[32] = {"ft0", "ft1", "ft2",  "ft3",  "ft4", "ft5", "ft6",  "ft7",
                                    "fs0", "fs1", "fa0",  "fa1",  "fa2", "fa3", "fa4",  "fa5",
                                    "fa6", "fa7", "fs2",  "fs3",  "fs4", "fs5", "fs6",  "fs7",
                                    "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};
  const char prefix = c == ValueClass::X ? 'x' : c == ValueClass::F ? 'f' : 'v';
  for (int i = 0; i < 32; ++i) {
    if (token == std::string(1, prefix) + std::to_string(i)) return i;
    if (c == ValueClass::X && (token == x[i] || (i == 8 && token == "fp"))) return i;
    if (c == ValueClass::F && token == f[i]) return i;
  }
  return -1;
}

// The instruction word of `in` with `ops` (its operands in overlay order; a trailing
// "v0.t" masks a maskable instruction), or false when an operand does not parse.
bool encode_word(const CustomInsn& in, const std::vector<Token>& ops, uint32_t& word) {
  const bool masked = ops.size() == in.operands.size() + 1 && in.masked && ops.back().text == "v0.t";
  word = in.match | (in.masked && !masked ? 1u << 25 : 0u);
  for (size_t k = 0; k < in.operands.size(); ++k) {
    const CustomOperand& o = in.operands[k];
    if (o.value == ValueClass::Imm) {
      char* end = nullptr;
      const long v = std::strtol(ops[k].text.c_str(), &end, 0);
      if (ops[k].text.empty() || *end || v < -2048 || v > 2047) return false;
      word |= (uint32_t(v) & 0xfff) << 20;
      continue;
    }
    const int r = register_number(ops[k].text, o.value);
    if (r < 0) return false;
    const unsigned shift = o.field == Field::Rd ? 7 : o.field == Field::Rs1 ? 15 : o.field == Field::Rs2 ? 20 : 27;
    word |= uint32_t(r) << shift;
  }
  return true;
}

}  // namespace

std::string expand_custom_mnemonics(const std::string& source, const CustomExtensions& ext) {
  std::string out;
  size_t pos = 0;
  while (pos < source.size()) {
    size_t nl = source.find('\n', pos);
    if (nl == std::string::npos) nl = source.size();
    std::string line = source.substr(pos, nl - pos);
    pos = nl + 1;
    // The statement after an optional "label:"; a comment ends it.
    const size_t hash = line.find('#');
    std::string code = line.substr(0, hash);
    size_t start = 0;
    if (const size_t colon = code.find(':'); colon != std::string::npos && code.find('"') == std::string::npos)
      start = colon + 1;
    Token mn;
    std::vector<Token> ops;
    split_instruction(code.substr(start), mn, ops);
    for (const auto& in : ext.instructions()) {
      if (mn.text != in.mnemonic) continue;
      // GNU as takes x and f registers in `.insn r`, not v: vector ones become the word.
      uint32_t word = 0;
      if ((in.is_vector() || ops.size() == in.operands.size() + 1) && encode_word(in, ops, word)) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%08x", word);
        line = code.substr(0, start) + " .insn " + hex + (hash == std::string::npos ? "" : " " + line.substr(hash));
        break;
      }
      if (ops.size() != in.operands.size()) continue;
      std::vector<std::string> fields;
      for (Field f : format_fields(in.format)) {
        const CustomOperand* o = in.operand(f);
        std::string v = f == Field::Imm ? "0" : "x0";
        for (size_t k = 0; o && k < in.operands.size(); ++k)
          if (&in.operands[k] == o) v = ops[k].text;
        fields.push_back(v);
      }
      line = code.substr(0, start) + " " + insn_directive(in, fields) + (hash == std::string::npos ? "" : " " + line.substr(hash));
      break;
    }
    out += line;
    if (nl < source.size()) out += "\n";
  }
  return out;
}

std::string fingerprint(const CustomExtensions& ext) {
  std::ostringstream o;
  for (const auto& in : ext.instructions()) {
    o << in.mnemonic << "|" << in.match << "|" << in.mask << "|" << to_string(in.format) << "|" << in.masked;
    for (const auto& op : in.operands) o << "|" << op.name << to_string(op.field) << to_string(op.value) << op.read << op.write;
    for (const auto& st : in.steps) o << "|" << st.text;
    o << "\n";
  }
  return o.str();
}

std::string custom_c_header(const CustomExtensions& ext) {
  static const VecType kVec[] = {
      {"vint8m1_t", "i8m1", "e8", "m1"},     {"vint8m2_t", "i8m2", "e8", "m2"},     {"vint8m4_t", "i8m4", "e8", "m4"},
      {"vint8m8_t", "i8m8", "e8", "m8"},     {"vint16m1_t", "i16m1", "e16", "m1"}, {"vint16m2_t", "i16m2", "e16", "m2"},
      {"vint16m4_t", "i16m4", "e16", "m4"},  {"vint16m8_t", "i16m8", "e16", "m8"}, {"vint32m1_t", "i32m1", "e32", "m1"},
      {"vint32m2_t", "i32m2", "e32", "m2"},  {"vint32m4_t", "i32m4", "e32", "m4"}, {"vint32m8_t", "i32m8", "e32", "m8"},
      {"vuint8m1_t", "u8m1", "e8", "m1"},    {"vuint8m2_t", "u8m2", "e8", "m2"},   {"vuint8m4_t", "u8m4", "e8", "m4"},
      {"vuint8m8_t", "u8m8", "e8", "m8"},    {"vuint16m1_t", "u16m1", "e16", "m1"}, {"vuint16m2_t", "u16m2", "e16", "m2"},
      {"vuint16m4_t", "u16m4", "e16", "m4"}, {"vuint16m8_t", "u16m8", "e16", "m8"}, {"vuint32m1_t", "u32m1", "e32", "m1"},
      {"vuint32m2_t", "u32m2", "e32", "m2"}, {"vuint32m4_t", "u32m4", "e32", "m4"}, {"vuint32m8_t", "u32m8", "e32", "m8"}};
  bool any_vector = false;
  for (const auto& in : ext.instructions()) any_vector = any_vector || in.is_vector();
  std::ostringstream o;
  o << "/* Custom RISC-V instructions (generated by `tlmcraft isa header`; do not edit).\n";
  for (const auto& f : ext.files()) o << "   overlay: " << f << "\n";
  o << "   Scalar instructions: one function each. Vector instructions: one function per element\n"
       "   type and group (<name>_i32m1 ...), which sets vl/vtype itself (vsetvli) before the\n"
       "   instruction; the last argument is the element count. */\n";
  o << "#ifndef TLMCRAFT_CUSTOM_INSN_H\n#define TLMCRAFT_CUSTOM_INSN_H\n#include <stddef.h>\n#include <stdint.h>\n";
  if (any_vector) o << "#include <riscv_vector.h>\n";
  for (const auto& in : ext.instructions()) {
    o << "\n";
    if (in.format == CustomFormat::I && in.operand(Field::Imm)) {
      o << immediate_macro(in);
    } else if (!in.is_vector()) {
      o << wrapper(in, nullptr);
    } else if (changes_vtype(in)) {
      // Its operands have different element types (a widening chain's narrow source and
      // wide accumulator): no one-type wrapper fits; kernels get it from the peephole.
      o << "/* " << in.mnemonic << ": steps at several element widths; placed by the peephole pass */\n";
    } else {
      for (const auto& vt : kVec) o << wrapper(in, &vt);
    }
  }
  o << "\n#endif\n";
  return o.str();
}

}  // namespace tlmcraft::isa::riscv
