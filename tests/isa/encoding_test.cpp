// Encoding: hand-derived words, decode errors, binary files, and the round trip
// assemble -> encode -> decode -> disassemble -> assemble for every instruction.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "isa/encoding.h"
#include "tests/isa/test_support.h"

namespace tlmcraft::isa {
namespace {

using test::assemble_text;
using test::plena;

uint32_t word_of(const std::string& text) {
  auto a = assemble_text(text);
  EXPECT_TRUE(a.ok) << text << (a.lines.empty() ? "" : "\n" + a.lines[0]);
  return a.program.code.empty() ? 0 : encode(plena(), a.program.code[0]);
}

TEST(Encoding, HandDerivedWords) {
  // op 0x01 | rs1 2 << 10 (0x800) | rs2 3 << 14 (0xC000)
  EXPECT_EQ(word_of("M_MM 0, gp2, gp3"), 0x0000C801u);
  // op 0x22 | rd 1 << 6 (0x40) | imm 128 << 14 (0x200000)
  EXPECT_EQ(word_of("S_ADDI_INT gp1, gp0, 128"), 0x00200062u);
  // op 0x25 | rd 5 << 6 (0x140) | imm 0x3FFFFF << 10 (0xFFFFFC00)
  EXPECT_EQ(word_of("S_LUI_INT gp5, 0x3FFFFF"), 0xFFFFFD65u);
  // op 0x29 | rd 3<<6 (0xC0) | rs1 2<<10 (0x800) | rs2 a1 1<<14 (0x4000) | rs3 1<<18 (0x40000) | funct1 1<<22 (0x400000)
  EXPECT_EQ(word_of("H_PREFETCH_V gp3, gp2, a1, 1, 1"), 0x004448E9u);
  // op 0x10 | rd 2<<6 (0x80) | rs1 1<<10 (0x400) | rorder 1<<22 (0x400000)
  EXPECT_EQ(word_of("V_SUB_VF gp2, gp1, f0, 0, 1"), 0x00400490u);
  // op 0x06 | rd 15<<6 (0x3C0) | rs1 14<<10 (0x3800) | imm 262143<<14 (0xFFFFC000)
  EXPECT_EQ(word_of("M_MM_WO gp15, gp14, 262143"), 0xFFFFFBC6u);
  // op 0x34, no fields
  EXPECT_EQ(word_of("C_BREAK"), 0x00000034u);
}

TEST(Encoding, LoopWords) {
  auto a = assemble_text("C_LOOP_START gp4, 8\nC_LOOP_END gp4\n");
  ASSERT_TRUE(a.ok);
  // op 0x2F | rd 4<<6 (0x100) | imm 8<<10 (0x2000)
  EXPECT_EQ(encode(plena(), a.program.code[0]), 0x0000212Fu);
  // op 0x30 | rd 4<<6
  EXPECT_EQ(encode(plena(), a.program.code[1]), 0x00000130u);
}

TEST(Encoding, DecodeRejectsBadWords) {
  Instruction in;
  std::string err;
  EXPECT_FALSE(decode(plena(), 0x00000000u, in, &err));
  EXPECT_EQ(err, "unknown opcode 0x00 in word 0x00000000");
  EXPECT_FALSE(decode(plena(), 0x0000003Fu, in, &err));
  EXPECT_EQ(err, "unknown opcode 0x3F in word 0x0000003F");
  // V_ADD_VF with rs2 = 9: 0x0E | 9 << 14 = 0x2400E; f9 does not exist.
  EXPECT_FALSE(decode(plena(), 0x0002400Eu, in, &err));
  EXPECT_EQ(err, "V_ADD_VF in word 0x0002400E: rs2 = 9 is not valid; expected an fp register (f0-f7)");
  // V_ADD_VV with rmask (rs3) = 2: 0x0D | 2 << 18 = 0x8000D.
  EXPECT_FALSE(decode(plena(), 0x0008000Du, in, &err));
  EXPECT_EQ(err, "V_ADD_VV in word 0x0008000D: rmask = 2 is not valid; expected a flag (0 or 1)");
  // M_MM with its placeholder rd = 1: 0x01 | 1 << 6.
  EXPECT_FALSE(decode(plena(), 0x00000041u, in, &err));
  EXPECT_EQ(err, "M_MM in word 0x00000041: rd = 1 is not valid; expected the placeholder 0 (or gp0)");
  // C_LOOP_START with count 0 (op 0x2F, rd 1).
  EXPECT_FALSE(decode(plena(), 0x0000006Fu, in, &err));
  EXPECT_EQ(err, "C_LOOP_START in word 0x0000006F: count = 0 is not valid; expected an unsigned 22-bit immediate (1..4194303)");
}

TEST(Encoding, DecodeIgnoresUnusedBits) {
  // M_MM 0, gp2, gp3 with funct1 bits set (used by newer PLENA variants, not by this ISA).
  Instruction in;
  ASSERT_TRUE(decode(plena(), 0x0000C801u | (3u << 22), in));
  EXPECT_EQ(disassemble(plena(), in), "M_MM 0, gp2, gp3");
  EXPECT_EQ(in.line, 0u);
}

TEST(Encoding, DisassemblyDropsTrailingDefaults) {
  auto a = assemble_text("V_RED_SUM f1, gp2, 0\nV_RED_MAX f1, gp2, 1\nC_BREAK 0, 0, 0\nM_BMM 0, gp1, gp2\n");
  ASSERT_TRUE(a.ok);
  EXPECT_EQ(disassemble_program(plena(), a.program),
            "V_RED_SUM f1, gp2\nV_RED_MAX f1, gp2, 1\nC_BREAK\nM_BMM gp0, gp1, gp2\n");
}

// The canonical source line for `ins` with every encoded field nonzero: registers
// 1..count-1, immediates their maximum (high) or about a third of it, odd; placeholders
// 0, and trailing optional placeholders left out as the disassembler does.
std::string nonzero_text(const IsaSpec& s, const InstructionSpec& ins, bool high) {
  std::string t = ins.mnemonic;
  size_t n = ins.operands.size();
  while (n > 0 && ins.operands[n - 1].optional && ins.operands[n - 1].placeholder) --n;
  for (size_t i = 0; i < n; ++i) {
    const OperandSpec& op = ins.operands[i];
    if (op.omissible) continue;  // the canonical (disassembled) form leaves it out
    const OperandKind& k = s.kinds()[op.kind];
    std::string v;
    if (k.type == KindType::Zero) {
      v = "0";
    } else if (k.type == KindType::Register) {
      const int count = s.register_classes()[k.register_class].count;
      v = s.register_classes()[k.register_class].prefix + std::to_string(1 + (ins.id + i) % (count - 1));
    } else {
      const int64_t lo = s.operand_min(op), hi = s.operand_max(op);
      v = std::to_string(high ? hi : std::max<int64_t>(lo, hi / 3) | 1);
    }
    t += (t.size() > ins.mnemonic.size() ? ", " : " ") + v;
  }
  return t;
}

TEST(Encoding, RoundTripEveryInstruction) {
  const IsaSpec& s = plena();
  AssembleOptions opt;
  opt.allow_unimplemented = true;
  size_t checked = 0;
  for (const auto& ins : s.instructions()) {
    for (bool high : {false, true}) {
      const std::string text = nonzero_text(s, ins, high);
      // Loop instructions must be balanced; wrap them with their partner.
      std::string src = text + "\n";
      size_t pick = 0;
      if (ins.loop == LoopRole::Start) {
        src += "C_LOOP_END gp" + std::to_string(1 + (ins.id + ins.loop_counter) % 15) + "\n";
      } else if (ins.loop == LoopRole::Break) {  // leaves the loop: no end needed
        src = "C_LOOP_START gp1, 5\n" + src;
        pick = 1;
      } else if (ins.loop == LoopRole::End) {
        src = "C_LOOP_START gp" + std::to_string(1 + (ins.id + ins.loop_counter) % 15) + ", 5\n" + src;
        pick = 1;
      }
      auto a = assemble_text(src, opt);
      ASSERT_TRUE(a.ok) << src << (a.lines.empty() ? "" : a.lines[0]);
      EXPECT_TRUE(a.diags.empty()) << a.lines[0];
      const Instruction first = a.program.code[pick];
      ASSERT_EQ(first.id, ins.id);
      // Every encoded operand except placeholders holds a nonzero value.
      for (const auto& op : ins.operands) {
        if (op.field < 0 || op.placeholder) continue;
        EXPECT_NE(first.field[op.field], 0) << text << " " << op.name;
      }

      const uint32_t w = encode(s, first);
      Instruction back;
      std::string err;
      ASSERT_TRUE(decode(s, w, back, &err)) << text << ": " << err;
      EXPECT_EQ(back.id, first.id) << text;
      EXPECT_EQ(back.opcode, ins.opcode) << text;
      EXPECT_EQ(back.field, first.field) << text;

      const std::string dis = disassemble(s, back);
      EXPECT_EQ(dis, text) << "canonical text differs";
      std::string src2 = dis + "\n";
      if (ins.loop == LoopRole::Start) src2 += "C_LOOP_END gp" + std::to_string(first.field[kRd]) + "\n";
      if (ins.loop == LoopRole::End) src2 = "C_LOOP_START gp" + std::to_string(first.field[kRd]) + ", 5\n" + src2;
      if (ins.loop == LoopRole::Break) src2 = "C_LOOP_START gp1, 5\n" + src2;
      auto again = assemble_text(src2, opt);
      ASSERT_TRUE(again.ok) << dis;
      EXPECT_EQ(again.program.code[pick].field, first.field) << dis;
      EXPECT_EQ(encode(s, again.program.code[pick]), w) << dis;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2 * s.instructions().size());
}

TEST(Encoding, ProgramAndBinaryFile) {
  auto a = assemble_text("M_MM 0, gp2, gp3\nS_ADDI_INT gp1, gp0, 128\nC_BREAK\n");
  ASSERT_TRUE(a.ok);
  const auto words = encode_program(plena(), a.program);
  EXPECT_EQ(words, (std::vector<uint32_t>{0x0000C801u, 0x00200062u, 0x00000034u}));
  // Little-endian: the low byte first.
  const auto bytes = words_to_bytes(words);
  ASSERT_EQ(bytes.size(), 12u);
  EXPECT_EQ(bytes[0], 0x01);
  EXPECT_EQ(bytes[1], 0xC8);
  EXPECT_EQ(bytes[2], 0x00);
  EXPECT_EQ(bytes[4], 0x62);
  EXPECT_EQ(bytes[6], 0x20);

  const auto path = (std::filesystem::temp_directory_path() / ("tlmcraft_isa_bin_" + std::to_string(::getpid()))).string();
  std::string err;
  ASSERT_TRUE(write_binary_file(path, words, &err)) << err;
  std::vector<uint32_t> read;
  ASSERT_TRUE(read_binary_file(path, read, &err)) << err;
  EXPECT_EQ(read, words);
  Program p;
  ASSERT_TRUE(decode_program(plena(), read, p, &err)) << err;
  EXPECT_EQ(disassemble_program(plena(), p), "M_MM 0, gp2, gp3\nS_ADDI_INT gp1, gp0, 128\nC_BREAK\n");

  // A truncated file is rejected with its size.
  std::ofstream(path, std::ios::binary | std::ios::app) << char(0x7);
  EXPECT_FALSE(read_binary_file(path, read, &err));
  EXPECT_EQ(err, path + ": 13 bytes is not a whole number of 4-byte instruction words");
  std::filesystem::remove(path);
  EXPECT_FALSE(read_binary_file(path, read, &err));
  EXPECT_EQ(err, path + ": cannot open the binary file");

  // A bad word names its index and byte offset.
  EXPECT_FALSE(decode_program(plena(), {0x0000C801u, 0x0u}, p, &err));
  EXPECT_EQ(err, "word 1 (byte offset 4): unknown opcode 0x00 in word 0x00000000");
}

}  // namespace
}  // namespace tlmcraft::isa
