// YAML validation: bad ISA descriptions are rejected with the file, line and column of
// the problem. Each test writes a small toy ISA into a temporary folder.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "isa/assembler.h"
#include "isa/isa_spec.h"

namespace tlmcraft::isa {
namespace {

namespace fs = std::filesystem;

// A valid 16-bit toy ISA. Line numbers (1-based) matter for the expected messages:
// line 20 is the first instruction entry, its operands are on lines 26-27.
const char* kHead =
    "name: toy\n"                                               // 1
    "word_bits: 16\n"                                           // 2
    "opcode: {lsb: 0, msb: 3}\n"                                // 3
    "fields:\n"                                                 // 4
    "  - {name: rd, lsb: 4, msb: 7}\n"                          // 5
    "  - {name: rs, lsb: 8, msb: 11}\n"                         // 6
    "  - {name: imm, immediate: true}\n"                        // 7
    "register_classes:\n"                                       // 8
    "  - {name: r, prefix: r, count: 16, zero_register: 0, zero_writes_dropped: true}\n"  // 9
    "operand_kinds:\n"                                          // 10
    "  - {name: reg, type: register, register_class: r}\n"     // 11
    "  - {name: imm8, type: immediate, lsb: 8, msb: 15}\n"     // 12
    "units: [{name: alu}]\n"                                    // 13
    "latency_classes: [{name: one}]\n"                          // 14
    "classes: [{letter: A, name: Arith}]\n"                     // 15
    "# padding so instruction lines are easy to count\n"        // 16
    "#\n"                                                       // 17
    "#\n"                                                       // 18
    "instructions:\n";                                          // 19

const char* kAdd =
    "  - mnemonic: ADD\n"             // 20
    "    opcode: 1\n"                 // 21
    "    class: A\n"                  // 22
    "    unit: alu\n"                 // 23
    "    latency_class: one\n"        // 24
    "    operands:\n"                 // 25
    "      - {name: rd, kind: reg, field: rd, role: write}\n"  // 26
    "      - {name: rs, kind: reg, field: rs}\n"               // 27
    "    doc: add\n"                  // 28
    "    operation: r[rd] += r[rs]\n";  // 29

std::string instr(const std::string& mnemonic, int opcode, const std::string& operands) {
  return "  - mnemonic: " + mnemonic + "\n    opcode: " + std::to_string(opcode) +
         "\n    class: A\n    unit: alu\n    latency_class: one\n    operands:\n" + operands +
         "    doc: d\n    operation: o\n";
}

class Validation : public ::testing::Test {
 protected:
  fs::path dir;
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("tlmcraft_isa_" + std::to_string(::getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  std::string path_of(const std::string& name) { return (dir / name).string(); }

  // Loads text from <dir>/toy.yaml; returns the error text ("" if it loaded).
  std::string load_error(const std::string& text) {
    const std::string p = path_of("toy.yaml");
    std::ofstream(p) << text;
    try {
      IsaSpec::load(p);
    } catch (const IsaSpecError& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(Validation, ToyIsaLoadsAndAssembles) {
  const std::string p = path_of("toy.yaml");
  std::ofstream(p) << kHead << kAdd;
  const IsaSpec s = IsaSpec::load(p);
  EXPECT_EQ(s.name(), "toy");
  EXPECT_EQ(s.display_name(), "TOY");  // default: upper-case name
  ASSERT_EQ(s.instructions().size(), 1u);
  EXPECT_EQ(s.instructions()[0].line, 20);
  Program prog;
  std::vector<Diagnostic> d;
  ASSERT_TRUE(assemble(s, "ADD r3, r4 ; comment\n", "t.asm", prog, d));
  ASSERT_EQ(prog.code.size(), 1u);
  EXPECT_EQ(prog.code[0].field[0], 3);
  EXPECT_EQ(prog.code[0].field[1], 4);
}

TEST_F(Validation, DuplicateOpcodeNamesBothInstructions) {
  const std::string err = load_error(std::string(kHead) + kAdd + instr("SUB", 1, "      - {name: rd, kind: reg, field: rd}\n"));
  // SUB starts on line 30; its opcode value is on line 31, column 13.
  EXPECT_EQ(err, path_of("toy.yaml") + ":31:13: duplicate opcode 0x1: SUB reuses the opcode of ADD (line 20)");
}

TEST_F(Validation, DuplicateMnemonic) {
  const std::string err = load_error(std::string(kHead) + kAdd + instr("ADD", 2, "      - {name: rd, kind: reg, field: rd}\n"));
  EXPECT_EQ(err, path_of("toy.yaml") + ":30:15: duplicate mnemonic ADD (first defined at line 20)");
}

TEST_F(Validation, FieldOverlappingTheImmediate) {
  // rs (bits 11:8) and imm8 (bits 15:8) share bits 11:8.
  const std::string err = load_error(std::string(kHead) + kAdd +
                                     instr("ADDI", 2,
                                           "      - {name: rs, kind: reg, field: rs}\n"
                                           "      - {name: k, kind: imm8, field: imm}\n"));
  EXPECT_EQ(err, path_of("toy.yaml") +
                     ":30:5: ADDI: operand rs (field rs, bits 11:8) overlaps the immediate k (imm8, bits 15:8)");
}

TEST_F(Validation, UnknownOperandKind) {
  const std::string err =
      load_error(std::string(kHead) + kAdd + instr("NEG", 3, "      - {name: rd, kind: regx, field: rd}\n"));
  // The operand map is on line 36, the value "regx" at column 26.
  EXPECT_EQ(err, path_of("toy.yaml") + ":36:26: NEG operand 'rd': unknown operand kind 'regx' (known: reg, imm8)");
}

TEST_F(Validation, FieldOutsideTheWord) {
  std::string head = kHead;
  head.replace(head.find("{name: rs, lsb: 8, msb: 11}"), 27, "{name: rs, lsb: 8, msb: 16}");
  const std::string err = load_error(head + kAdd);
  EXPECT_EQ(err, path_of("toy.yaml") + ":6:5: field rs bits 16:8 lie outside the 16-bit word (bits 15:0)");
}

TEST_F(Validation, FieldOverlappingTheOpcode) {
  std::string head = kHead;
  head.replace(head.find("{name: rd, lsb: 4, msb: 7}"), 26, "{name: rd, lsb: 3, msb: 7}");
  EXPECT_EQ(load_error(head + kAdd), path_of("toy.yaml") + ":5:5: field rd (bits 7:3) overlaps the opcode (bits 3:0)");
}

TEST_F(Validation, UnknownRegisterClassOfAKindUsedByOperands) {
  // Operands of a kind whose register class is unknown used to index the class table at -1
  // (fuzz_isa_yaml finding, UBSan); now the one error is reported.
  std::string head = kHead;
  head.replace(head.find("register_class: r}"), 18, "register_class: Vr}");
  std::string add = kAdd;
  add.replace(add.find("field: rs}"), 10, "field: rs, optional: true, default: 99}");
  EXPECT_EQ(load_error(head + add), path_of("toy.yaml") + ":11:49: operand kind reg: unknown register class 'Vr' (known: r)");
}

TEST_F(Validation, OpcodeTooLargeForItsBits) {
  const std::string err = load_error(std::string(kHead) + kAdd + instr("BIG", 16, "      - {name: rd, kind: reg, field: rd}\n"));
  EXPECT_EQ(err, path_of("toy.yaml") + ":31:13: instruction BIG: opcode 16 does not fit the opcode bits 3:0 (0..15)");
}

TEST_F(Validation, UnknownKeyIsATypo) {
  std::string add = kAdd;
  add.replace(add.find("role: write"), 11, "rol: write");
  const std::string err = load_error(std::string(kHead) + add);
  EXPECT_NE(err.find(":26:42: unknown key 'rol' in ADD operand"), std::string::npos) << err;
}

TEST_F(Validation, UnknownUnitAndRoleAndResource) {
  std::string bad = std::string(kHead) + kAdd;
  bad.replace(bad.find("unit: alu\n    latency"), 9, "unit: fpu");
  bad.replace(bad.find("role: write"), 11, "role: writ");
  bad += "    reads: [ACC]\n";  // line 30, no resources declared
  const std::string err = load_error(bad);
  EXPECT_NE(err.find(":23:11: instruction ADD: unknown unit 'fpu' (known: alu)"), std::string::npos) << err;
  EXPECT_NE(err.find(":26:48: ADD operand 'rd': unknown role 'writ' (read, write or readwrite)"), std::string::npos) << err;
  EXPECT_NE(err.find(":30:13: instruction ADD: unknown resource 'ACC' in reads (known: )"), std::string::npos) << err;
}

TEST_F(Validation, AllErrorsAreReportedTogether) {
  std::string bad = std::string(kHead) + kAdd + instr("ADD", 1, "      - {name: rd, kind: nope, field: rd}\n");
  const std::string err = load_error(bad);
  // Three problems: duplicate mnemonic, duplicate opcode, unknown kind; one per line.
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 2) << err;
  EXPECT_NE(err.find("duplicate mnemonic ADD"), std::string::npos);
  EXPECT_NE(err.find("duplicate opcode 0x1"), std::string::npos);
  EXPECT_NE(err.find("unknown operand kind 'nope'"), std::string::npos);
}

TEST_F(Validation, RequiredOperandAfterOptional) {
  const std::string err = load_error(std::string(kHead) + kAdd +
                                     instr("X", 4,
                                           "      - {name: rd, kind: reg, field: rd, optional: true}\n"
                                           "      - {name: rs, kind: reg, field: rs}\n"));
  EXPECT_EQ(err, path_of("toy.yaml") +
                     ":37:9: instruction X: operand 'rs' is required but follows an optional operand (optional "
                     "operands must come last)");
}

TEST_F(Validation, ImmediateKindRangeMustFitItsBits) {
  std::string head = kHead;
  head.replace(head.find("{name: imm8, type: immediate, lsb: 8, msb: 15}"), 46,
               "{name: imm8, type: immediate, lsb: 8, msb: 15, max: 300}");
  EXPECT_EQ(load_error(head + kAdd),
            path_of("toy.yaml") + ":12:5: operand kind imm8: range 0..300 does not fit its 8 bits (0..255)");
}

TEST_F(Validation, YamlSyntaxError) {
  const std::string err = load_error("name: toy\nfields: [\n");
  EXPECT_EQ(err.rfind(path_of("toy.yaml") + ":", 0), 0u) << err;
  EXPECT_NE(err.find("YAML syntax error"), std::string::npos) << err;
}

TEST_F(Validation, MissingFile) {
  try {
    IsaSpec::load(path_of("absent.yaml"));
    FAIL() << "expected an error";
  } catch (const IsaSpecError& e) {
    EXPECT_EQ(std::string(e.what()), path_of("absent.yaml") +
                                         ": cannot open the ISA description (set TLMCRAFT_ISA_DIR to the folder "
                                         "holding <isa>/<isa>.yaml)");
  }
}

TEST_F(Validation, NotAMapping) {
  EXPECT_EQ(load_error("- just\n- a list\n"),
            path_of("toy.yaml") +
                ":1:1: an ISA description must be a mapping with keys name, word_bits, fields, instructions, ...");
}

}  // namespace
}  // namespace tlmcraft::isa
