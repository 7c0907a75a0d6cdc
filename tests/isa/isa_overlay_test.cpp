// ISA overlays (isa/isa_overlay.h, docs/isa-extensions.md "The overlay file"): merged over
// the shipped PLENA description, every message names the overlay's own file:line:col, and
// the variant in force (isa/isa_variant.h) reaches the loaders without leaking.
#include "isa/isa_overlay.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "isa/assembler.h"
#include "isa/fused.h"
#include "isa/isa_spec.h"
#include "isa/isa_variant.h"

namespace tlmcraft::isa {
namespace {

namespace fs = std::filesystem;

class Overlay : public ::testing::Test {
 protected:
  fs::path dir = fs::temp_directory_path() / ("tlmcraft-overlay-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string p = (dir / name).string();
    std::ofstream(p) << text;
    return p;
  }
  static std::string base() { return isa_yaml_path_in("", "plena"); }
  // The error text of loading PLENA with `overlays` ("" when it loads).
  static std::string load_error(const std::vector<std::string>& overlays) {
    try {
      IsaSpec::load(base(), overlays);
    } catch (const IsaSpecError& e) {
      return e.what();
    }
    return "";
  }
};

// V_RELU_V: one fused step (V_MAX_VF with f0, which kernels keep at 0.0).
const char* kRelu =
    "# ReLU as one instruction\n"
    "isa: plena\n"
    "latency_classes:\n"
    "  - {name: vector_relu, cycles: 2, doc: \"one max pass\"}\n"
    "instructions:\n"
    "  - mnemonic: V_RELU_V\n"
    "    opcode: 0x3A\n"
    "    class: V\n"
    "    unit: vector\n"
    "    latency_class: vector_relu\n"
    "    operands:\n"
    "      - {name: rd, kind: gp, field: rd}\n"
    "      - {name: rs1, kind: gp, field: rs1}\n"
    "      - {name: rmask, kind: flag, field: rs3}\n"
    "    doc: \"ReLU of every lane.\"\n"
    "    operation: \"VRAM[gp[rd]] = max(VRAM[gp[rs1]], 0)\"\n"
    "    fused:\n"
    "      - \"V_MAX_VF rd, rs1, f0, rmask\"\n";

TEST_F(Overlay, AddsAnInstructionAndALatencyClass) {
  const IsaSpec shipped = IsaSpec::load(base());
  const IsaSpec spec = IsaSpec::load(base(), {write("relu.yaml", kRelu)});
  ASSERT_EQ(spec.instructions().size(), shipped.instructions().size() + 1);
  const InstructionSpec* relu = spec.find("V_RELU_V");
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ(relu->opcode, 0x3Au);
  EXPECT_EQ(spec.default_cycles("vector_relu"), 2);
  // Its entry starts on line 6 of the overlay, and says so.
  EXPECT_EQ(spec.where_line(relu->line), (dir / "relu.yaml").string() + ":6");
  EXPECT_EQ(spec.source_files(), (std::vector<std::string>{base(), (dir / "relu.yaml").string()}));
  // It assembles and expands into its step.
  Program prog;
  std::vector<Diagnostic> diags;
  ASSERT_TRUE(assemble(spec, "V_RELU_V gp2, gp3, 1\n", "k.asm", prog, diags));
  std::vector<Instruction> steps;
  std::string err;
  ASSERT_TRUE(expand_fused(spec, prog.code[0], steps, err)) << err;
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(spec.instruction(steps[0]).mnemonic, "V_MAX_VF");
}

TEST_F(Overlay, UnknownTopLevelKeyNamesTheOverlayLine) {
  const std::string p = write("bad.yaml", "isa: plena\nbogus: 1\n");
  EXPECT_EQ(load_error({p}), p + ":2:1: unknown top-level key 'bogus' in an ISA overlay (known keys: isa, parameters, "
                                 "fields, register_classes, register_ports, operand_kinds, resources, units, "
                                 "latency_classes, classes, instructions)");
}

TEST_F(Overlay, MisspeltKeyInAnEntryNamesTheOverlayLine) {
  std::string text = kRelu;
  text.replace(text.find("    doc:"), 8, "    dco:");
  const std::string p = write("typo.yaml", text);
  // Line 15 of the overlay holds `dco:` (column 5); the schema's message, the overlay's position.
  const std::string e = load_error({p});
  EXPECT_EQ(e.substr(0, e.find('\n')),
            p + ":15:5: unknown key 'dco' in instructions entry (known keys: mnemonic, opcode, class, unit, "
                "latency_class, operands, reads, writes, implemented, doc, operation, notes, loop, loop_counter, fused, "
                "compose, semantics, replaces, timing, actions)");
}

TEST_F(Overlay, ExistingMnemonicNeedsReplace) {
  // V_EXP_V is the shipped ISA's: without `replace: true` it is an error at the overlay's
  // mnemonic value (line 3, column 15), naming where the shipped one is.
  const std::string p = write("dup.yaml", "isa: plena\ninstructions:\n  - mnemonic: V_EXP_V\n    opcode: 0x13\n");
  const int shipped_line = IsaSpec::load(base()).find("V_EXP_V")->line;
  EXPECT_EQ(load_error({p}), p + ":3:15: mnemonic V_EXP_V is already defined (" + base() + ":" +
                                 std::to_string(shipped_line) + ":5): give the entry `replace: true` to replace it");
}

TEST_F(Overlay, ClashingOpcodeNamesTheOverlayLine) {
  // V_RELU_V given V_EXP_V's opcode 0x13: the loader's clash check, at the overlay's
  // `opcode:` value (line 7, column 13), naming the shipped instruction's line.
  std::string text = kRelu;
  text.replace(text.find("0x3A"), 4, "0x13");
  const std::string p = write("clash.yaml", text);
  const int exp_line = IsaSpec::load(base()).find("V_EXP_V")->line;
  const std::string e = load_error({p});
  EXPECT_EQ(e.substr(0, e.find('\n')), p + ":7:13: duplicate opcode 0x13: V_RELU_V reuses the opcode of V_EXP_V (line " +
                                            std::to_string(exp_line) + ")");
}

TEST_F(Overlay, ReplaceSwapsTheEntryInPlace) {
  // A copy of the shipped V_EXP_V with another doc, replacing it: same id, new text.
  const std::string p = write("exp.yaml",
                              "isa: plena\ninstructions:\n  - mnemonic: V_EXP_V\n    replace: true\n    opcode: 0x13\n"
                              "    class: V\n    unit: vector\n    latency_class: vector_exp\n    operands:\n"
                              "      - {name: rd, kind: gp, field: rd}\n      - {name: rs1, kind: gp, field: rs1}\n"
                              "      - {name: rmask, kind: flag, field: rs3}\n    doc: \"e to the x, replaced\"\n"
                              "    operation: \"exp\"\n");
  const IsaSpec shipped = IsaSpec::load(base());
  const IsaSpec spec = IsaSpec::load(base(), {p});
  EXPECT_EQ(spec.instructions().size(), shipped.instructions().size());
  EXPECT_EQ(spec.find("V_EXP_V")->id, shipped.find("V_EXP_V")->id);
  EXPECT_EQ(spec.find("V_EXP_V")->doc, "e to the x, replaced");
  // replace: true with nothing to replace is an error too.
  const std::string q = write("new.yaml", std::string(kRelu).insert(std::string(kRelu).find("    opcode"), "    replace: true\n"));
  EXPECT_EQ(load_error({q}), q + ":6:5: 'replace: true' but instructions has no entry V_RELU_V to replace");
}

TEST_F(Overlay, WrongIsaNameIsAnError) {
  const std::string p = write("aie.yaml", "isa: aie_ml\ninstructions: []\n");
  EXPECT_EQ(load_error({p}), p + ":1:6: this overlay extends ISA 'aie_ml', but it is applied to ISA 'plena'");
  const std::string q = write("none.yaml", "instructions: []\n");
  EXPECT_EQ(load_error({q}), q + ":1:1: missing required key 'isa' (the ISA this overlay extends, e.g. `isa: plena`)");
}

TEST_F(Overlay, SecondOverlaySeesTheFirstAndErrorsNameTheirOwnFile) {
  const std::string a = write("a.yaml", kRelu);
  // b.yaml adds V_RELU_V again: its line 3, column 15; the first definition is a.yaml's line 6.
  const std::string b = write("b.yaml", "isa: plena\ninstructions:\n  - mnemonic: V_RELU_V\n");
  EXPECT_EQ(load_error({a, b}),
            b + ":3:15: mnemonic V_RELU_V is already defined (" + a + ":6:5): give the entry `replace: true` to replace it");
}

TEST_F(Overlay, YamlSyntaxErrorNamesTheOverlay) {
  const std::string p = write("syntax.yaml", "isa: plena\ninstructions: [\n");
  const std::string e = load_error({p});
  EXPECT_EQ(e.rfind(p + ":3:1: YAML syntax error: ", 0), 0u) << e;
}

TEST_F(Overlay, FusedStepErrorsNameTheOverlayLine) {
  std::string text = kRelu;
  text.replace(text.find("V_MAX_VF rd"), 8, "V_MAXX_V");
  const std::string p = write("step.yaml", text);
  const std::string e = load_error({p});
  // The step's own line and column (line 18, after its opening quote).
  EXPECT_EQ(e.rfind(p + ":18:10: instruction V_RELU_V: step 1 ('V_MAXX_V rd, rs1, f0, rmask'): unknown instruction "
                        "'V_MAXX_V'", 0),
            0u)
      << e;
}

TEST_F(Overlay, OverlayIsaNameAndSourceMap) {
  std::string where;
  EXPECT_EQ(overlay_isa_name(write("r.yaml", kRelu), &where), "plena");
  EXPECT_EQ(where, (dir / "r.yaml").string() + ":2:6");
  SourceMap m;
  EXPECT_EQ(m.add_file("base.yaml", 10), 0);
  EXPECT_EQ(m.add_file("o.yaml", 3), 11);  // 10 lines + one spare
  EXPECT_EQ(m.where(12, 4), "o.yaml:2:5");
  EXPECT_EQ(m.where(9, 0), "base.yaml:10:1");
  EXPECT_EQ(m.where_line(12), "o.yaml:1");
}

TEST_F(Overlay, ScopedVariantReachesTheLoadersAndEnds) {
  const std::string p = write("relu.yaml", kRelu);
  EXPECT_EQ(load_isa_spec("plena").find("V_RELU_V"), nullptr);
  {
    const ScopedIsaVariant scope(IsaVariant{"", {p}});
    EXPECT_NE(load_isa_spec("plena").find("V_RELU_V"), nullptr);
    EXPECT_NE(cached_isa_spec("plena")->find("V_RELU_V"), nullptr);
    // An overlay for another ISA is left to that ISA's loader.
    EXPECT_EQ(isa_source("simd").overlays.size(), 0u);
  }
  EXPECT_TRUE(current_isa_variant().empty());
  EXPECT_EQ(cached_isa_spec("plena")->find("V_RELU_V"), nullptr);
}

}  // namespace
}  // namespace tlmcraft::isa
