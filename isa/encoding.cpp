// Encoder, decoder and disassembler generated from the ISA description.
#include "isa/encoding.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace tlmcraft::isa {

namespace {

uint32_t ones(int width) { return width >= 32 ? 0xFFFFFFFFu : ((1u << width) - 1u); }

// Where an operand's value lives: its kind's own bits (immediates) or its field's bits.
bool operand_bits(const IsaSpec& spec, const OperandSpec& op, int& lsb, int& width) {
  if (op.field < 0) return false;
  const OperandKind& k = spec.kinds()[op.kind];
  if (k.has_bits()) {
    lsb = k.lsb, width = k.msb - k.lsb + 1;
    return true;
  }
  const FieldSpec& f = spec.fields()[op.field];
  if (!f.has_bits()) return false;
  lsb = f.lsb, width = f.width();
  return true;
}

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", v);
  return buf;
}

}  // namespace

uint32_t encode(const IsaSpec& spec, const Instruction& in) {
  const InstructionSpec& ins = spec.instructions().at(in.id);
  uint32_t word = (ins.opcode & ones(spec.opcode_msb() - spec.opcode_lsb() + 1)) << spec.opcode_lsb();
  for (const auto& op : ins.operands) {
    int lsb, width;
    if (!operand_bits(spec, op, lsb, width)) continue;
    // Two's complement for signed kinds falls out of the mask.
    const uint32_t v = uint32_t(uint64_t(in.field[op.field])) & ones(width);
    word |= v << lsb;
  }
  return word;
}

bool decode(const IsaSpec& spec, uint32_t word, Instruction& out, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  const uint32_t opcode = (word >> spec.opcode_lsb()) & ones(spec.opcode_msb() - spec.opcode_lsb() + 1);
  const InstructionSpec* ins = spec.find_opcode(opcode);
  if (!ins) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "unknown opcode 0x%02X in word %s", opcode, hex(word).c_str());
    return fail(buf);
  }
  Instruction in;
  in.id = ins->id;
  in.opcode = opcode;
  for (const auto& op : ins->operands) {
    int lsb, width;
    if (!operand_bits(spec, op, lsb, width)) continue;
    const OperandKind& k = spec.kinds()[op.kind];
    int64_t v = int64_t((word >> lsb) & ones(width));
    if (k.is_signed && width < 64 && (v >> (width - 1)) & 1) v -= int64_t(1) << width;
    if (v < spec.operand_min(op) || v > spec.operand_max(op))
      return fail(ins->mnemonic + " in word " + hex(word) + ": " + op.name + " = " + std::to_string(v) +
                  " is not valid; expected " + spec.describe_operand(op));
    in.field[op.field] = v;
  }
  out = in;
  return true;
}

std::string disassemble(const IsaSpec& spec, const Instruction& in) {
  if (in.id >= spec.instructions().size()) return "<invalid instruction id " + std::to_string(in.id) + ">";
  const InstructionSpec& ins = spec.instructions()[in.id];
  // Values first, so trailing defaults can be dropped.
  std::vector<int64_t> values;
  for (const auto& op : ins.operands) values.push_back(op.field >= 0 ? in.field[op.field] : op.default_value);
  size_t n = values.size();
  while (n > 0 && ins.operands[n - 1].optional && values[n - 1] == ins.operands[n - 1].default_value) --n;
  std::string s = ins.mnemonic;
  bool first = true;
  for (size_t i = 0; i < n; ++i) {
    const OperandSpec& op = ins.operands[i];
    if (op.omissible) continue;  // the short form
    const OperandKind& k = spec.kinds()[op.kind];
    s += first ? " " : ", ";
    first = false;
    if (k.type == KindType::Register) s += spec.register_classes()[k.register_class].prefix + std::to_string(values[i]);
    else if (k.type == KindType::Zero) s += "0";
    else s += std::to_string(values[i]);
  }
  return s;
}

std::vector<uint32_t> encode_program(const IsaSpec& spec, const Program& program) {
  std::vector<uint32_t> words;
  words.reserve(program.code.size());
  for (const auto& in : program.code) words.push_back(encode(spec, in));
  return words;
}

bool decode_program(const IsaSpec& spec, const std::vector<uint32_t>& words, Program& out, std::string* error) {
  Program p;
  p.isa = spec.name();
  p.code.reserve(words.size());
  for (size_t i = 0; i < words.size(); ++i) {
    Instruction in;
    std::string why;
    if (!decode(spec, words[i], in, &why)) {
      if (error) *error = "word " + std::to_string(i) + " (byte offset " + std::to_string(i * 4) + "): " + why;
      return false;
    }
    p.code.push_back(in);
  }
  out = std::move(p);
  return true;
}

std::string disassemble_program(const IsaSpec& spec, const Program& program) {
  std::string s;
  for (const auto& in : program.code) s += disassemble(spec, in) + "\n";
  return s;
}

std::vector<uint8_t> words_to_bytes(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> b;
  b.reserve(words.size() * 4);
  for (uint32_t w : words)
    for (int i = 0; i < 4; ++i) b.push_back(uint8_t(w >> (8 * i)));
  return b;
}

bool bytes_to_words(const std::vector<uint8_t>& bytes, std::vector<uint32_t>& words, std::string* error) {
  if (bytes.size() % 4 != 0) {
    if (error) *error = std::to_string(bytes.size()) + " bytes is not a whole number of 4-byte instruction words";
    return false;
  }
  words.clear();
  words.reserve(bytes.size() / 4);
  for (size_t i = 0; i < bytes.size(); i += 4)
    words.push_back(uint32_t(bytes[i]) | uint32_t(bytes[i + 1]) << 8 | uint32_t(bytes[i + 2]) << 16 |
                    uint32_t(bytes[i + 3]) << 24);
  return true;
}

bool write_binary_file(const std::string& path, const std::vector<uint32_t>& words, std::string* error) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  const auto bytes = words_to_bytes(words);
  if (f) f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!f) {
    if (error) *error = path + ": cannot write the binary file";
    return false;
  }
  return true;
}

bool read_binary_file(const std::string& path, std::vector<uint32_t>& words, std::string* error) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    if (error) *error = path + ": cannot open the binary file";
    return false;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::string why;
  if (!bytes_to_words(bytes, words, &why)) {
    if (error) *error = path + ": " + why;
    return false;
  }
  return true;
}

}  // namespace tlmcraft::isa
