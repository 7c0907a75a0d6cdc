// Composed instructions (isa/compose.h, docs/isa-extensions.md): `compose:` loads with
// its temporaries, `timing:` is read, and every bad definition is an error at the exact
// file:line:col with the reason.
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "isa/isa_doc.h"
#include "isa/isa_spec.h"
#include "tests/isa/test_support.h"

namespace tlmcraft::isa {
namespace {

using test::plena_yaml;

const char* kEntry =
    "\n  - mnemonic: V_X\n    opcode: 0x3A\n    class: V\n    unit: vector\n    latency_class: vector_exp\n"
    "    operands:\n"
    "      - {name: rd, kind: gp, field: rd, role: write, value: vrow}\n"
    "      - {name: rs1, kind: gp, field: rs1, role: read, value: vrow}\n"
    "      - {name: fs, kind: fp, field: rs2, value: fp}\n"
    "    doc: \"x\"\n    operation: \"x\"\n";

// "file:line:col" of the first `needle` after the V_X entry (1-based).
std::string at(const std::string& yaml, const std::string& needle, const std::string& after = "mnemonic: V_X") {
  const size_t p = yaml.find(needle, yaml.find(after));
  EXPECT_NE(p, std::string::npos) << needle;
  int line = 1;
  size_t bol = 0;
  for (size_t i = 0; i < p; ++i)
    if (yaml[i] == '\n') ++line, bol = i + 1;
  return "x.yaml:" + std::to_string(line) + ":" + std::to_string(p - bol + 1);
}

std::string compose(const std::string& temps, std::initializer_list<const char*> steps) {
  std::string s = "    compose:\n      temps: [" + temps + "]\n      steps:\n";
  for (const char* st : steps) s += "        - \"" + std::string(st) + "\"\n";
  return s;
}

std::string load_error(const std::string& yaml) {
  try {
    IsaSpec::parse(yaml, "x.yaml");
  } catch (const IsaSpecError& e) {
    return e.what();
  }
  return "(accepted)";
}

// What `x` reads and writes as `x gp3, gp4, f2` (rd, rs1, rs2).
Accesses accesses_of(const IsaSpec& spec, const InstructionSpec& x) {
  Instruction in;
  in.id = x.id;
  in.field[kRd] = 3;
  in.field[kRs1] = 4;
  in.field[kRs2] = 2;
  return spec.accesses(in);
}

TEST(Compose, LoadsTemporariesStepsAndTiming) {
  const std::string y = plena_yaml() + kEntry +
                        compose("t0", {"V_SUB_VF t0, rs1, fs, 0, 1", "V_MUL_VV rd, rs1, t0, 0"}) +
                        "    timing: {latency: 3, ii: 2, read_ports: 1, write_ports: 1}\n";
  const IsaSpec spec = IsaSpec::parse(y, "x.yaml");
  const InstructionSpec& x = *spec.find("V_X");
  EXPECT_TRUE(x.is_fused());
  EXPECT_EQ(x.compose.temps, std::vector<std::string>{"t0"});
  EXPECT_EQ(x.compose.temp_class, std::vector<int>{spec.register_class_index("gp")});
  EXPECT_EQ(x.compose.steps[1].text, "V_MUL_VV rd, rs1, t0, 0");
  EXPECT_EQ(x.timing.latency, 3);
  EXPECT_EQ(x.timing.ii, 2);
  // rd holds an address (value vrow): the gp register is read, the row written.
  const Accesses a = accesses_of(spec, x);
  EXPECT_EQ(a.reads.size(), 3u);  // gp3, gp4 (addresses) and f2 (value fp: the register itself)
  EXPECT_TRUE(a.writes.empty());
}

TEST(Compose, BadDefinitionsAreErrorsAtFileLineCol) {
  const std::string base = plena_yaml() + kEntry;
  const std::string p = "instruction V_X: step ";
  struct Case {
    std::string yaml, needle, message, after = "mnemonic: V_X";
  };
  const Case cases[] = {
      {base + compose("t0", {"V_EXP_V rd, rs1, 0"}) + "    semantics: \"rd = exp(rs1)\"\n", "\"rd = exp",
       "instruction V_X: 'compose' and 'semantics' both say what it computes; give exactly one of compose, fused, "
       "semantics"},
      {base + compose("t0", {"V_EXPO rd, rs1, 0"}), "V_EXPO", p + "1 ('V_EXPO rd, rs1, 0'): unknown instruction 'V_EXPO'"},
      {base + compose("t0", {"V_EXP_V rd, t9, 0"}), "t9",
       p + "1 ('V_EXP_V rd, t9, 0'): unknown operand or temporary 't9' (known: rd, rs1, fs, t0)"},
      {base + compose("t0", {"V_EXP_V rd, fs, 0"}), "fs, 0",
       p + "1 ('V_EXP_V rd, fs, 0'): type error: operand 'fs' is a fp register but V_EXP_V's rs1 is a gp register"},
      {base + compose("t0", {"V_EXP_V t0, rs1, 0", "S_ADD_FP t0, fs, fs"}), "t0, fs",
       p + "2 ('S_ADD_FP t0, fs, fs'): type error: temporary 't0' is a gp register in step 1 but a fp register here"},
      {base + compose("t0", {"V_EXP_V rd, rs1, 0", "V_ADD_VV t0, rd, rs1, 0"}), "rd, rs1",
       p + "2 ('V_ADD_VV t0, rd, rs1, 0'): output rd is read after step 1 wrote it; keep the value in a temporary and "
           "write rd last",
       "\"V_ADD_VV"},
      {base + compose("t0", {"V_EXP_V rd, rs1, 0", "V_EXP_V t0, rs1, 0"}), "rs1, 0",
       p + "2 ('V_EXP_V t0, rs1, 0'): reads input rs1 after step 1 wrote output rd (the two may name the same "
           "register); compute into a temporary and write rd in the last step",
       "V_EXP_V t0"},
      {base + compose("t0", {"V_EXP_V rd, t0, 0"}), "t0, 0",
       p + "1 ('V_EXP_V rd, t0, 0'): reads temporary 't0' before any step writes it"},
      {base + compose("t0", {"V_EXP_V rs1, rs1, 0"}), "rs1, rs1",
       p + "1 ('V_EXP_V rs1, rs1, 0'): writes rs1, whose role is read (declare role: write or readwrite)"},
      {base + compose("t0", {"V_EXP_V t0, rs1, 0", "V_EXP_V rd, t0, 0"}) + "    timing: {latency: 2, lat: 3}\n", "lat:",
       "unknown key 'lat' in instruction V_X: timing (known keys: latency, ii, read_ports, write_ports)"},
  };
  for (const Case& c : cases)
    EXPECT_EQ(load_error(c.yaml), at(c.yaml, c.needle, c.after) + ": " + c.message) << c.yaml.substr(c.yaml.find("V_X"));
}

// A post-increment (docs/isa-extensions.md, "Registers updated in place"): the step on
// the row at rd, then rd's increment. The register rd is read and written (role
// readwrite, value gp); the row is no operand of its own.
TEST(Compose, RegisterUpdatedInPlaceLoads) {
  std::string entry = kEntry;
  entry.replace(entry.find("role: write, value: vrow"), 24, "role: readwrite, value: gp");
  const std::string y = plena_yaml() + entry + compose("", {"V_EXP_V rd, rs1, 0", "S_ADDI_INT rd, rd, 64"});
  const IsaSpec spec = IsaSpec::parse(y, "x.yaml");
  const Accesses a = accesses_of(spec, *spec.find("V_X"));
  ASSERT_EQ(a.writes.size(), 1u);  // gp3 itself
  EXPECT_EQ(a.writes[0].number, 3);
  EXPECT_EQ(a.reads.size(), 3u);  // gp3, gp4 (the source row's address) and f2
  // Incremented first, then used as an address: the row would be the next one.
  const std::string pre = plena_yaml() + entry + compose("", {"S_ADDI_INT rd, rd, 64", "V_EXP_V rd, rs1, 0"});
  EXPECT_EQ(load_error(pre), at(pre, "rd, rs1, 0") + ": instruction V_X: step 2 ('V_EXP_V rd, rs1, 0'): output rd is "
                                                     "read after step 1 wrote it; keep the value in a temporary and "
                                                     "write rd last");
}

TEST(Compose, ValueClassesArePlenaOwn) {
  std::string y = plena_yaml() + kEntry + compose("t0", {"V_EXP_V t0, rs1, 0", "V_EXP_V rd, t0, 0"});
  std::string lacks = y;
  lacks.replace(lacks.find("value: vrow}"), 11, "value: vmat");
  EXPECT_EQ(load_error(lacks), at(lacks, "vmat") + ": V_X operand 'rd': value class 'vmat' is not one PLENA "
                                                   "has (known: vrow, fp, gp, imm)");
  std::string wrong = y;
  wrong.replace(wrong.find("value: fp}"), 9, "value: vrow");
  EXPECT_EQ(load_error(wrong), at(wrong, "vrow}\n    doc") + ": V_X operand 'fs': value class vrow is held in "
                                                            "a gp register, but kind fp is a fp register");
}

// A `semantics:` block is compiled when the ISA loads: a type error names its line and
// column inside the YAML file (the '+' of line 2 of the block: 6 spaces of indentation,
// "rd = rs1 " = column 16).
TEST(Compose, SemanticsTypeErrorIsReportedInsideTheYaml) {
  const std::string y = plena_yaml() + kEntry + "    semantics: |\n      s = sigmoid(rs1)\n      rd = rs1 + fs * rs1 + s\n";
  EXPECT_EQ(load_error(plena_yaml() + kEntry + "    semantics: |\n      rd = silu(rs1) * fs\n"), "(accepted)");
  std::string bad = plena_yaml() + kEntry;
  bad.replace(bad.find("{name: fs, kind: fp, field: rs2, value: fp}"), 43, "{name: n, kind: gp, field: rs2, value: gp}");
  bad += "    semantics: |\n      s = sigmoid(rs1)\n      rd = rs1 + n\n";
  EXPECT_EQ(load_error(bad), at(bad, "+ n") + ": cannot add vector<bf16> and u32; convert with bf16(...)");
  EXPECT_EQ(load_error(y), "(accepted)");
}

// The ISA reference (isa doc, the agent's prompt and grep_docs) shows what an added
// instruction computes.
TEST(Compose, TheReferenceShowsTemporariesAndSemantics) {
  const IsaSpec composed = IsaSpec::parse(
      plena_yaml() + kEntry + compose("t0", {"V_EXP_V t0, rs1, 0", "V_EXP_V rd, t0, 0"}), "x.yaml");
  EXPECT_NE(render_isa_markdown(composed, {}).find(
                "- Temporaries (hidden storage, never visible to other instructions): t0; every input is read before "
                "any output is written, so operands may name the same register\n"),
            std::string::npos);
  const IsaSpec expr = IsaSpec::parse(plena_yaml() + kEntry + "    semantics: |\n      s = silu(rs1)\n      rd = s * fs\n",
                                      "x.yaml");
  EXPECT_NE(render_isa_markdown(expr, {}).find(
                "- Semantics: `s = silu(rs1); rd = s * fs` (every input is read before any output is written)\n"),
            std::string::npos);
}

// The legacy form with two outputs, the second read after the first is written, cannot
// be made alias-safe by renaming: a load error.
TEST(Compose, LegacyFusedThatCannotBeMadeAliasSafeIsAnError) {
  const std::string y = plena_yaml() +
                        "\n  - mnemonic: V_X\n    opcode: 0x3A\n    class: V\n    unit: vector\n"
                        "    latency_class: vector_exp\n    operands:\n"
                        "      - {name: rd, kind: gp, field: rd}\n      - {name: rs1, kind: gp, field: rs1}\n"
                        "      - {name: fs, kind: fp, field: rs2}\n    doc: \"x\"\n    operation: \"x\"\n"
                        "    fused: [\"V_EXP_V rd, rs1, 0\", \"V_RED_SUM fs, rs1\"]\n";
  // V_RED_SUM reads the row at rs1 after the row at rd was written (the two may be one
  // row). Its f register fs, read and written too, is no row: it cannot alias rd's row.
  EXPECT_EQ(load_error(y), at(y, "rs1\"]") + ": instruction V_X: step 2 ('V_RED_SUM fs, rs1'): reads input rs1 after "
                                         "step 1 wrote output rd (the two may name the same register); compute "
                                         "into a temporary and write rd in the last step");
}

}  // namespace
}  // namespace tlmcraft::isa
