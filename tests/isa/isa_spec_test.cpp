// The PLENA description against the operand/opcode contract (briefs: plena-operands),
// lookups, and the hazard helpers the timing model uses.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

#include "isa/encoding.h"
#include "tests/isa/test_support.h"

namespace tlmcraft::isa {
namespace {

using test::plena;

// Opcode table copied by hand from the PLENA compiler's operation.svh (via the contract).
const std::map<std::string, uint32_t> kOpcodes = {
    {"M_MM", 0x01},          {"M_TMM", 0x02},           {"M_BMM", 0x03},          {"M_BTMM", 0x04},
    {"M_BMM_WO", 0x05},      {"M_MM_WO", 0x06},         {"M_MV", 0x07},           {"M_TMV", 0x08},
    {"M_BMV", 0x09},         {"M_BTMV", 0x0A},          {"M_MV_WO", 0x0B},        {"M_BMV_WO", 0x0C},
    {"V_ADD_VV", 0x0D},      {"V_ADD_VF", 0x0E},        {"V_SUB_VV", 0x0F},       {"V_SUB_VF", 0x10},
    {"V_MUL_VV", 0x11},      {"V_MUL_VF", 0x12},        {"V_EXP_V", 0x13},        {"V_RECI_V", 0x14},
    {"V_RED_SUM", 0x15},     {"V_RED_MAX", 0x16},       {"S_ADD_FP", 0x17},       {"S_SUB_FP", 0x18},
    {"S_MAX_FP", 0x19},      {"S_MUL_FP", 0x1A},        {"S_EXP_FP", 0x1B},       {"S_RECI_FP", 0x1C},
    {"S_SQRT_FP", 0x1D},     {"S_LD_FP", 0x1E},         {"S_ST_FP", 0x1F},        {"S_MAP_V_FP", 0x20},
    {"S_ADD_INT", 0x21},     {"S_ADDI_INT", 0x22},      {"S_SUB_INT", 0x23},      {"S_MUL_INT", 0x24},
    {"S_LUI_INT", 0x25},     {"S_LD_INT", 0x26},        {"S_ST_INT", 0x27},       {"H_PREFETCH_M", 0x28},
    {"H_PREFETCH_V", 0x29},  {"H_STORE_V", 0x2A},       {"C_SET_ADDR_REG", 0x2B}, {"C_SET_SCALE_REG", 0x2C},
    {"C_SET_STRIDE_REG", 0x2D}, {"C_SET_V_MASK_REG", 0x2E}, {"C_LOOP_START", 0x2F}, {"C_LOOP_END", 0x30},
    {"V_PS_V", 0x31},        {"V_SHFT_V", 0x32},        {"C_HADAMARD_TRANSFORM", 0x33}, {"C_BREAK", 0x34},
    {"V_MAX_VF", 0x35},      {"V_MIN_VF", 0x36},        {"V_TOPK", 0x37},
};

TEST(PlenaSpec, HasExactlyTheContractOpcodes) {
  const IsaSpec& s = plena();
  EXPECT_EQ(s.name(), "plena");
  EXPECT_EQ(s.display_name(), "PLENA");
  ASSERT_EQ(s.instructions().size(), kOpcodes.size());
  for (const auto& [m, op] : kOpcodes) {
    const InstructionSpec* ins = s.find(m);
    ASSERT_NE(ins, nullptr) << m;
    EXPECT_EQ(ins->opcode, op) << m;
    ASSERT_EQ(s.find_opcode(op), ins) << m;
    EXPECT_EQ(ins->cls, m[0]) << m;  // class letter = first letter of the mnemonic in PLENA
    EXPECT_FALSE(ins->doc.empty()) << m;
    EXPECT_FALSE(ins->operation.empty()) << m;
  }
  EXPECT_EQ(s.find("M_MMM"), nullptr);
  EXPECT_EQ(s.find("m_mm"), nullptr);  // mnemonics are case-sensitive
  EXPECT_EQ(s.find_opcode(0x00), nullptr);
  EXPECT_EQ(s.find_opcode(0x38), nullptr);
}

TEST(PlenaSpec, OnlyThreeInstructionsAreUnimplemented) {
  std::vector<std::string> off;
  for (const auto& i : plena().instructions())
    if (!i.implemented) off.push_back(i.mnemonic);
  EXPECT_EQ(off, (std::vector<std::string>{"V_PS_V", "V_TOPK", "C_HADAMARD_TRANSFORM"}));
}

TEST(PlenaSpec, FieldsMatchTheEncodingContract) {
  const IsaSpec& s = plena();
  EXPECT_EQ(s.word_bits(), 32);
  EXPECT_EQ(s.opcode_lsb(), 0);
  EXPECT_EQ(s.opcode_msb(), 5);
  ASSERT_EQ(s.fields().size(), 6u);
  // Positions 0..5 are isa::PlenaField kRd..kImm.
  EXPECT_EQ(s.field_index("rd"), kRd);
  EXPECT_EQ(s.field_index("rs1"), kRs1);
  EXPECT_EQ(s.field_index("rs2"), kRs2);
  EXPECT_EQ(s.field_index("rs3"), kRs3);
  EXPECT_EQ(s.field_index("funct1"), kFunct1);
  EXPECT_EQ(s.field_index("imm"), kImm);
  const int expect_lsb[] = {6, 10, 14, 18, 22};
  for (int f = 0; f < 5; ++f) {
    EXPECT_EQ(s.fields()[f].lsb, expect_lsb[f]);
    EXPECT_EQ(s.fields()[f].msb, expect_lsb[f] + 3);
  }
  EXPECT_TRUE(s.fields()[kImm].immediate);
  const OperandKind& i18 = s.kinds()[s.kind_index("imm18")];
  const OperandKind& i22 = s.kinds()[s.kind_index("imm22")];
  EXPECT_EQ(i18.lsb, 14);
  EXPECT_EQ(i18.msb, 31);
  EXPECT_EQ(i18.max, 262143);  // 2^18 - 1
  EXPECT_EQ(i22.lsb, 10);
  EXPECT_EQ(i22.msb, 31);
  EXPECT_EQ(i22.max, 4194303);  // 2^22 - 1
}

TEST(PlenaSpec, RegisterClasses) {
  const IsaSpec& s = plena();
  const auto& gp = s.register_classes()[s.register_class_index("gp")];
  const auto& fp = s.register_classes()[s.register_class_index("fp")];
  const auto& a = s.register_classes()[s.register_class_index("addr")];
  EXPECT_EQ(gp.count, 16);
  EXPECT_EQ(gp.zero_register, 0);
  EXPECT_TRUE(gp.zero_writes_dropped);
  EXPECT_EQ(fp.prefix, "f");
  EXPECT_EQ(fp.count, 8);
  EXPECT_EQ(fp.zero_register, 0);
  EXPECT_EQ(a.prefix, "a");
  EXPECT_EQ(a.count, 8);
  EXPECT_EQ(a.zero_register, -1);
  EXPECT_EQ(gp.range_text(), "gp0-gp15");
}

// Operand syntax and fields of every instruction, as the contract table lists them:
// "<kind>:<field>" per operand (zero placeholders without a field as "zero:-").
TEST(PlenaSpec, OperandsMatchTheContractTable) {
  const std::map<std::string, std::string> table = {
      {"M_MM", "zero:rd gp:rs1 gp:rs2"}, {"M_TMM", "zero:rd gp:rs1 gp:rs2"},
      {"M_MV", "zero:rd gp:rs1 gp:rs2"}, {"M_TMV", "zero:rd gp:rs1 gp:rs2"},
      {"M_BMV", "zero:rd gp:rs1 gp:rs2"}, {"M_BTMV", "zero:rd gp:rs1 gp:rs2"},
      {"M_BMM", "gp:rd gp:rs1 gp:rs2"}, {"M_BTMM", "gp:rd gp:rs1 gp:rs2"},
      // The other _WO forms take the template compiler's unused middle operand (omissible).
      {"M_MM_WO", "gp:rd gp:rs1 imm18:imm"}, {"M_BMM_WO", "gp:rd zero:- imm18:imm"},
      {"M_MV_WO", "gp:rd zero:- imm18:imm"}, {"M_BMV_WO", "gp:rd zero:- imm18:imm"},
      {"V_ADD_VV", "gp:rd gp:rs1 gp:rs2 flag:rs3"}, {"V_SUB_VV", "gp:rd gp:rs1 gp:rs2 flag:rs3"},
      {"V_MUL_VV", "gp:rd gp:rs1 gp:rs2 flag:rs3"}, {"V_ADD_VF", "gp:rd gp:rs1 fp:rs2 flag:rs3"},
      {"V_MUL_VF", "gp:rd gp:rs1 fp:rs2 flag:rs3"}, {"V_MAX_VF", "gp:rd gp:rs1 fp:rs2 flag:rs3"},
      {"V_MIN_VF", "gp:rd gp:rs1 fp:rs2 flag:rs3"}, {"V_SUB_VF", "gp:rd gp:rs1 fp:rs2 flag:rs3 flag:funct1"},
      {"V_EXP_V", "gp:rd gp:rs1 flag:rs3"}, {"V_RECI_V", "gp:rd gp:rs1 flag:rs3"},
      {"V_SHFT_V", "gp:rd gp:rs1 gp:rs2 flag:rs3"}, {"V_RED_SUM", "fp:rd gp:rs1 [flag:rs3]"},
      {"V_RED_MAX", "fp:rd gp:rs1 [flag:rs3]"}, {"V_PS_V", "gp:rd gp:rs1 [flag:rs3]"},
      {"V_TOPK", "gp:rd gp:rs1 [flag:rs3]"}, {"S_ADD_FP", "fp:rd fp:rs1 fp:rs2"},
      {"S_SUB_FP", "fp:rd fp:rs1 fp:rs2"}, {"S_MAX_FP", "fp:rd fp:rs1 fp:rs2"},
      {"S_MUL_FP", "fp:rd fp:rs1 fp:rs2"}, {"S_EXP_FP", "fp:rd fp:rs1"}, {"S_RECI_FP", "fp:rd fp:rs1"},
      {"S_SQRT_FP", "fp:rd fp:rs1"}, {"S_LD_FP", "fp:rd gp:rs1 imm18:imm"}, {"S_ST_FP", "fp:rd gp:rs1 imm18:imm"},
      {"S_MAP_V_FP", "gp:rd gp:rs1 imm18:imm"}, {"S_ADD_INT", "gp:rd gp:rs1 gp:rs2"},
      {"S_SUB_INT", "gp:rd gp:rs1 gp:rs2"}, {"S_MUL_INT", "gp:rd gp:rs1 gp:rs2"},
      {"S_ADDI_INT", "gp:rd gp:rs1 imm18:imm"}, {"S_LUI_INT", "gp:rd imm22:imm"},
      {"S_LD_INT", "gp:rd gp:rs1 imm18:imm"}, {"S_ST_INT", "gp:rd gp:rs1 imm18:imm"},
      // precision widens the contract's flag to a 0..15 HBM format selector (same funct1 field);
      // the optional 6th operand is the 0 the template compiler sometimes writes.
      {"H_PREFETCH_M", "gp:rd gp:rs1 addr:rs2 flag:rs3 precision:funct1 [zero:-]"},
      {"H_PREFETCH_V", "gp:rd gp:rs1 addr:rs2 flag:rs3 precision:funct1 [zero:-]"},
      {"H_STORE_V", "gp:rd gp:rs1 addr:rs2 flag:rs3 precision:funct1 [zero:-]"}, {"C_SET_ADDR_REG", "addr:rd gp:rs1 gp:rs2"},
      {"C_SET_SCALE_REG", "gp:rd"}, {"C_SET_STRIDE_REG", "gp:rd"}, {"C_SET_V_MASK_REG", "gp:rd"},
      {"C_LOOP_START", "gp:rd imm22:imm"}, {"C_LOOP_END", "gp:rd [zero:-]"},
      {"C_BREAK", "[zero:-] [zero:-] [zero:-]"}, {"C_HADAMARD_TRANSFORM", "gp:rd gp:rs1"},
  };
  const IsaSpec& s = plena();
  ASSERT_EQ(table.size(), s.instructions().size());
  for (const auto& ins : s.instructions()) {
    std::string got;
    for (const auto& op : ins.operands) {
      std::string one = s.kinds()[op.kind].name + ":" + (op.field >= 0 ? s.fields()[op.field].name : "-");
      if (op.optional) one = "[" + one + "]";
      got += (got.empty() ? "" : " ") + one;
    }
    EXPECT_EQ(got, table.at(ins.mnemonic)) << ins.mnemonic;
  }
}

TEST(PlenaSpec, UnitsAndLatencyClassesFollowTheContract) {
  const IsaSpec& s = plena();
  auto unit = [&](const char* m) { return s.find(m)->unit; };
  auto lat = [&](const char* m) { return s.find(m)->latency_class; };
  EXPECT_EQ(unit("M_BTMV"), "matrix");
  EXPECT_EQ(unit("V_RED_MAX"), "vector");
  EXPECT_EQ(unit("S_MAP_V_FP"), "scalar_fp");
  EXPECT_EQ(unit("S_ST_FP"), "scalar_fp");
  EXPECT_EQ(unit("S_LUI_INT"), "scalar_int");
  EXPECT_EQ(unit("H_PREFETCH_M"), "hbm_prefetch");
  EXPECT_EQ(unit("H_STORE_V"), "hbm_store");
  EXPECT_EQ(unit("C_BREAK"), "control");
  EXPECT_EQ(lat("M_TMV"), "matrix_mm");
  EXPECT_EQ(lat("M_BMV"), "matrix_bmv");
  EXPECT_EQ(lat("M_BMV_WO"), "matrix_wo");
  EXPECT_EQ(lat("V_SHFT_V"), "vector_add");
  EXPECT_EQ(lat("V_MUL_VF"), "vector_mul");
  EXPECT_EQ(lat("V_EXP_V"), "vector_exp");
  EXPECT_EQ(lat("V_RECI_V"), "vector_reci");
  EXPECT_EQ(lat("V_MIN_VF"), "vector_max");
  EXPECT_EQ(lat("V_RED_MAX"), "vector_max");
  EXPECT_EQ(lat("V_RED_SUM"), "vector_sum");
  EXPECT_EQ(lat("S_MAP_V_FP"), "map_v_fp");
  EXPECT_EQ(lat("S_LD_INT"), "scalar");
  EXPECT_EQ(lat("C_LOOP_END"), "control");
  EXPECT_EQ(lat("H_PREFETCH_V"), "hbm");
}

TEST(PlenaSpec, SyntaxLines) {
  EXPECT_EQ(plena().find("M_MM")->syntax(), "M_MM 0, rs1, rs2");
  EXPECT_EQ(plena().find("V_SUB_VF")->syntax(), "V_SUB_VF rd, rs1, rs2, rmask, rorder");
  EXPECT_EQ(plena().find("V_RED_SUM")->syntax(), "V_RED_SUM rd, rs1[, rmask]");
  EXPECT_EQ(plena().find("C_LOOP_END")->syntax(), "C_LOOP_END rd[, 0]");
  EXPECT_EQ(plena().find("C_BREAK")->syntax(), "C_BREAK [0, 0, 0]");
}

Instruction one(const std::string& text) {
  auto a = test::assemble_text(text);
  EXPECT_TRUE(a.ok) << text;
  return a.program.code.empty() ? Instruction{} : a.program.code[0];
}

std::string regs(const IsaSpec& s, const std::vector<RegisterRef>& v) {
  std::string out;
  for (const auto& r : v) out += (out.empty() ? "" : " ") + s.register_classes()[r.reg_class].prefix + std::to_string(r.number);
  return out;
}

std::string res(const IsaSpec& s, const std::vector<uint16_t>& v) {
  std::string out;
  for (auto r : v) out += (out.empty() ? "" : " ") + s.resources()[r].name;
  return out;
}

TEST(PlenaSpec, AccessesFollowTheRoles) {
  const IsaSpec& s = plena();
  // V_RED_SUM f3, gp4: f3 is accumulated (readwrite), gp4 is the row address, V_MASK implicit.
  Accesses a = s.accesses(one("V_RED_SUM f3, gp4"));
  EXPECT_EQ(regs(s, a.reads), "f3 gp4");
  EXPECT_EQ(regs(s, a.writes), "f3");
  EXPECT_EQ(res(s, a.resource_reads), "V_MASK");
  EXPECT_EQ(res(s, a.resource_writes), "");
  // M_MM 0, gp2, gp3: two address reads, the accumulator read and written.
  a = s.accesses(one("M_MM 0, gp2, gp3"));
  EXPECT_EQ(regs(s, a.reads), "gp2 gp3");
  EXPECT_EQ(regs(s, a.writes), "");
  EXPECT_EQ(res(s, a.resource_reads), "ACC");
  EXPECT_EQ(res(s, a.resource_writes), "ACC");
  // S_ST_INT stores gp[rd]: rd is read, nothing is written.
  a = s.accesses(one("S_ST_INT gp5, gp6, 3"));
  EXPECT_EQ(regs(s, a.reads), "gp5 gp6");
  EXPECT_EQ(regs(s, a.writes), "");
  // gp0 is constant: S_ADDI_INT gp7, gp0, 1 reads nothing and writes gp7.
  a = s.accesses(one("S_ADDI_INT gp7, gp0, 1"));
  EXPECT_EQ(regs(s, a.reads), "");
  EXPECT_EQ(regs(s, a.writes), "gp7");
  // C_SET_ADDR_REG a2, gp1, gp9 writes an address register.
  a = s.accesses(one("C_SET_ADDR_REG a2, gp1, gp9"));
  EXPECT_EQ(regs(s, a.reads), "gp1 gp9");
  EXPECT_EQ(regs(s, a.writes), "a2");
  // H_PREFETCH_M reads its three registers plus SCALE and STRIDE.
  a = s.accesses(one("H_PREFETCH_M gp1, gp2, a3, 1, 0"));
  EXPECT_EQ(regs(s, a.reads), "gp1 gp2 a3");
  EXPECT_EQ(res(s, a.resource_reads), "SCALE STRIDE");
  a = s.accesses(one("C_SET_STRIDE_REG gp4"));
  EXPECT_EQ(regs(s, a.reads), "gp4");
  EXPECT_EQ(res(s, a.resource_writes), "STRIDE");
  // C_LOOP_END gp4 decrements its counter: read and written.
  Program p;
  std::vector<Diagnostic> d;
  ASSERT_TRUE(assemble(s, "C_LOOP_START gp4, 2\nC_LOOP_END gp4\n", "k.asm", p, d));
  a = s.accesses(p.code[0]);
  EXPECT_EQ(regs(s, a.reads), "");
  EXPECT_EQ(regs(s, a.writes), "gp4");
  a = s.accesses(p.code[1]);
  EXPECT_EQ(regs(s, a.reads), "gp4");
  EXPECT_EQ(regs(s, a.writes), "gp4");
}

TEST(PlenaSpec, YamlPathHonoursTheEnvironment) {
  ::unsetenv("TLMCRAFT_ISA_DIR");
  EXPECT_EQ(isa_yaml_path("plena"), std::string(TLMCRAFT_SOURCE_DIR) + "/isa/plena/plena.yaml");
  ::setenv("TLMCRAFT_ISA_DIR", "/nonexistent-dir", 1);
  EXPECT_EQ(isa_yaml_path("plena"), "/nonexistent-dir/plena/plena.yaml");
  ::setenv("TLMCRAFT_ISA_DIR", (std::string(TLMCRAFT_SOURCE_DIR) + "/isa").c_str(), 1);
  EXPECT_EQ(isa_yaml_path("plena"), std::string(TLMCRAFT_SOURCE_DIR) + "/isa/plena/plena.yaml");
  ::unsetenv("TLMCRAFT_ISA_DIR");
}

TEST(PlenaSpec, ParseIntegerAcceptsDecimalAndHex) {
  int64_t v = 0;
  EXPECT_TRUE(parse_integer("128", v));
  EXPECT_EQ(v, 128);
  EXPECT_TRUE(parse_integer("0x1F", v));
  EXPECT_EQ(v, 31);
  EXPECT_TRUE(parse_integer("0XfF", v));
  EXPECT_EQ(v, 255);
  EXPECT_TRUE(parse_integer("-5", v));
  EXPECT_EQ(v, -5);
  EXPECT_TRUE(parse_integer("99999999999999999999999", v));  // saturates, never wraps
  EXPECT_EQ(v, INT64_MAX);
  EXPECT_FALSE(parse_integer("", v));
  EXPECT_FALSE(parse_integer("0x", v));
  EXPECT_FALSE(parse_integer("12a", v));
  EXPECT_FALSE(parse_integer("gp1", v));
}

}  // namespace
}  // namespace tlmcraft::isa
