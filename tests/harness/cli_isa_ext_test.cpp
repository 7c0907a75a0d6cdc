// ISA overlays through bench/sweep and their provenance (docs/isa-extensions.md): a sweep
// over two overlays runs a kernel that uses the added instruction under each, records each
// overlay's path and SHA-256, and keeps the variants apart. PLENA ReLU C1, serial timing.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/provenance.h"
#include "harness/suite_runner.h"
#include "harness/sweep_spec.h"
#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

// V_RELU_V with `cycles` cycles: one fused V_MAX_VF step with f0 (0.0 in the kernels).
std::string relu_overlay(int cycles) {
  return "isa: plena\nlatency_classes:\n  - {name: vector_relu, cycles: " + std::to_string(cycles) +
         ", doc: \"one max pass\"}\ninstructions:\n  - mnemonic: V_RELU_V\n    opcode: 0x3A\n    class: V\n"
         "    unit: vector\n    latency_class: vector_relu\n    operands:\n      - {name: rd, kind: gp, field: rd}\n"
         "      - {name: rs1, kind: gp, field: rs1}\n      - {name: rmask, kind: flag, field: rs3}\n"
         "    doc: \"ReLU of every lane.\"\n    operation: \"max(x, 0)\"\n    fused: [\"V_MAX_VF rd, rs1, f0, rmask\"]\n";
}

TEST(IsaExtProvenance, RecordsPathAndSha256AndSeparatesVariants) {
  test::ScratchDir dir;
  const std::string a = dir.file("a.yaml"), copy = dir.file("copy.yaml"), b = dir.file("b.yaml");
  test::write_text(a, "isa: plena\n");
  test::write_text(copy, "isa: plena\n");
  test::write_text(b, "isa: plena\n# another overlay\n");
  VariantSpec v;
  v.isa_ext = {a};
  const json p = variant_provenance("plena", v);
  ASSERT_EQ(p["isa_ext"].size(), 1u);
  EXPECT_EQ(p["isa_ext"][0]["path"], a);
  // sha256sum of the 11 bytes "isa: plena\n".
  EXPECT_EQ(p["isa_ext"][0]["sha256"], "47f5a244b037afe972a82e1fb982a070a0a4f9c1747ca1492353ae41c91182c3");
  EXPECT_EQ(variant_label(p), "isa-ext " + a + " (sha256 47f5a244b037)");
  EXPECT_EQ(variant_worker_args(v), (std::vector<std::string>{"--isa-ext", a}));
  // The id follows the content: a copy elsewhere is the same variant, other bytes are not,
  // and no overlay keeps the shipped ISA's id.
  const std::string id = provenance_variant(p);
  v.isa_ext = {copy};
  EXPECT_EQ(provenance_variant(variant_provenance("plena", v)), id);
  v.isa_ext = {b};
  EXPECT_NE(provenance_variant(variant_provenance("plena", v)), id);
  v.isa_ext.clear();
  const json stock = variant_provenance("plena", v);
  EXPECT_NE(provenance_variant(stock), id);
  EXPECT_TRUE(stock["isa_ext"].empty());
}

TEST(IsaExtSweepSpec, GridOverOverlays) {
  SweepSpec s;
  s.base.isa_ext = {"base.yaml"};
  s.grid.push_back(parse_grid_option("isa_ext=none,a.yaml,a.yaml+b.yaml"));
  const auto vs = expand_variants(s);
  ASSERT_EQ(vs.size(), 3u);
  EXPECT_EQ(vs[0].isa_ext, (std::vector<std::string>{"base.yaml"}));
  EXPECT_EQ(vs[1].isa_ext, (std::vector<std::string>{"base.yaml", "a.yaml"}));
  EXPECT_EQ(vs[2].isa_ext, (std::vector<std::string>{"base.yaml", "a.yaml", "b.yaml"}));
  EXPECT_EQ(vs[1].name, "isa_ext=a.yaml");
  // A sweep file's isa_ext values are relative to it.
  test::ScratchDir dir;
  test::write_text(dir.file("s.yaml"), "platform: plena\nisa_ext: [x.yaml]\ngrid:\n  isa_ext: [none, y.yaml+z.yaml]\n"
                                       "variants:\n  - {name: v, isa_ext: w.yaml}\n");
  const SweepSpec f = load_sweep_yaml(dir.file("s.yaml"));
  const auto fv = expand_variants(f);
  ASSERT_EQ(fv.size(), 2u);
  EXPECT_EQ(fv[1].isa_ext, (std::vector<std::string>{dir.file("x.yaml"), dir.file("w.yaml"), dir.file("y.yaml"),
                                                      dir.file("z.yaml")}));
}

#ifdef TLMCRAFT_EXE
int run(const std::string& args, const std::string& out_file, const std::string& err_file) {
  const std::string cmd = std::string("'") + TLMCRAFT_EXE + "' " + args + " > '" + out_file + "' 2> '" + err_file + "'";
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}
#endif

TEST(IsaExtSweep, TwoOverlaysTimeTheAddedInstruction) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  test::write_text(dir.file("relu2.yaml"), relu_overlay(2));
  test::write_text(dir.file("relu3.yaml"), relu_overlay(3));
  // The baseline kernel with its V_MAX_VF replaced by the overlay's V_RELU_V.
  ASSERT_EQ(run("baseline -p plena --task relu --config C1", dir.file("base.asm"), dir.file("e0")), 0);
  std::string kernel = test::read_text(dir.file("base.asm"));
  const std::string max_line = "V_MAX_VF gp2, gp2, f0, 0";
  ASSERT_NE(kernel.find(max_line), std::string::npos) << kernel;
  kernel.replace(kernel.find(max_line), max_line.size(), "V_RELU_V gp2, gp2, 0");
  std::filesystem::create_directories(dir.file("k"));
  test::write_text(dir.file("k/relu_C1.asm"), kernel);

  const std::string store = dir.file("s.jsonl");
  ASSERT_EQ(run("sweep --platform plena --task relu --config C1 --trials 1 --jobs 2 --quiet --kernels '" + dir.file("k") +
                    "' --grid 'isa_ext=" + dir.file("relu2.yaml") + "," + dir.file("relu3.yaml") + "' --out '" + store +
                    "' --json",
                dir.file("o"), dir.file("e")),
            0)
      << test::read_text(dir.file("e"));
  std::map<std::string, json> by_overlay;
  for (const auto& r : read_jsonl(store).records) by_overlay[r["provenance"]["isa_ext"][0]["path"]] = r;
  ASSERT_EQ(by_overlay.size(), 2u);
  const json& r2 = by_overlay[dir.file("relu2.yaml")];
  const json& r3 = by_overlay[dir.file("relu3.yaml")];
  EXPECT_EQ(r2["status"], "pass");
  EXPECT_EQ(r3["status"], "pass");
  // The baseline (V_MAX_VF, vector_max = 4 cycles in the default config) takes 68 cycles;
  // its four V_MAX_VF (1 block x 4 rows) each become one V_RELU_V of 2 or 3 cycles, in
  // serial mode one after another: 68 - 4 x (4 - 2) = 60 and 68 - 4 x (4 - 3) = 64.
  EXPECT_EQ(r2["cycles"], 60);
  EXPECT_EQ(r3["cycles"], 64);
  EXPECT_NE(r2["job"]["variant"], r3["job"]["variant"]);
  EXPECT_EQ(r2["provenance"]["isa_ext"][0]["sha256"].get<std::string>().size(), 64u);

  // A bad overlay stops the sweep before any job, naming the overlay's line (exit 2).
  test::write_text(dir.file("bad.yaml"), "isa: plena\ninstructionz: []\n");
  EXPECT_EQ(run("sweep --platform plena --task relu --config C1 --quiet --kernels '" + dir.file("k") +
                    "' --isa-ext '" + dir.file("bad.yaml") + "' --out '" + dir.file("s2.jsonl") + "'",
                dir.file("o2"), dir.file("e2")),
            2);
  EXPECT_NE(test::read_text(dir.file("e2")).find(dir.file("bad.yaml") + ":2:1: unknown top-level key 'instructionz'"),
            std::string::npos)
      << test::read_text(dir.file("e2"));
  // run: the same kernel without the overlay does not assemble; with it, it passes.
  EXPECT_EQ(run("run -p plena --task relu --config C1 --json '" + dir.file("k/relu_C1.asm") + "'", dir.file("o3"),
                dir.file("e3")),
            1);
  ASSERT_EQ(run("run -p plena --task relu --config C1 --json --seed 1 --isa-ext '" + dir.file("relu2.yaml") + "' '" +
                    dir.file("k/relu_C1.asm") + "'",
                dir.file("o4"), dir.file("e4")),
            0)
      << test::read_text(dir.file("e4"));
  const json rep = json::parse(test::read_text(dir.file("o4")));
  EXPECT_EQ(rep["cycles"], 60);
  EXPECT_EQ(rep["provenance"]["isa_ext"][0]["path"], dir.file("relu2.yaml"));
#endif
}

TEST(IsaExtCli, IsaCheckAndDocTakeOverlays) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  test::write_text(dir.file("relu2.yaml"), relu_overlay(2));
  // An overlay file is checked merged over the ISA its `isa:` names.
  ASSERT_EQ(run("isa check '" + dir.file("relu2.yaml") + "'", dir.file("o1"), dir.file("e1")), 0)
      << test::read_text(dir.file("e1"));
  EXPECT_NE(test::read_text(dir.file("o1")).find("(1 fused)"), std::string::npos);
  // A misspelt key in an entry: its own line and column (line 14 holds `dco:`).
  std::string typo = relu_overlay(2);
  typo.replace(typo.find("    doc:"), 8, "    dco:");
  test::write_text(dir.file("typo.yaml"), typo);
  EXPECT_EQ(run("isa check plena --isa-ext '" + dir.file("typo.yaml") + "'", dir.file("o2"), dir.file("e2")), 2);
  EXPECT_EQ(test::read_text(dir.file("e2")).rfind(dir.file("typo.yaml") + ":14:5: unknown key 'dco' in instructions entry", 0),
            0u)
      << test::read_text(dir.file("e2"));
  // isa doc shows the added instruction only with the overlay.
  ASSERT_EQ(run("isa doc plena --isa-ext '" + dir.file("relu2.yaml") + "'", dir.file("o3"), dir.file("e3")), 0);
  EXPECT_NE(test::read_text(dir.file("o3")).find("`V_RELU_V rd, rs1, rmask`"), std::string::npos);
  ASSERT_EQ(run("isa doc plena", dir.file("o4"), dir.file("e4")), 0);
  EXPECT_EQ(test::read_text(dir.file("o4")).find("V_RELU_V"), std::string::npos);
#endif
}

// Every class of error in an overlay makes `isa check` exit 2 (an input error) and names
// file:line:col and the reason; nothing else is printed. One overlay per class, built from
// a correct PLENA entry (lines 3..13 below) with one thing wrong.
std::string plena_entry(const std::string& operands_extra, const std::string& tail) {
  return "isa: plena\n"                                                             // 1
         "instructions:\n"                                                          // 2
         "  - mnemonic: V_X\n"                                                      // 3
         "    opcode: 0x3A\n"                                                       // 4
         "    class: V\n"                                                           // 5
         "    unit: vector\n"                                                       // 6
         "    latency_class: vector_add\n"                                          // 7
         "    doc: \"x\"\n"                                                         // 8
         "    operation: \"x\"\n"                                                   // 9
         "    operands:\n"                                                          // 10
         "      - {name: rd,  kind: gp, field: rd,  role: write, value: vrow}\n"    // 11
         "      - {name: rs1, kind: gp, field: rs1, role: read,  value: vrow}\n" +  // 12
         operands_extra + tail;
}

TEST(IsaExtCli, IsaCheckErrorsExitTwoWithFileLineColumn) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  const std::string ok_tail = "    semantics: \"rd = rs1\"\n";
  struct Case {
    const char* name;
    std::string text;
    std::string error;  // after "<file>:"
  };
  const std::string all_keys =
      "mnemonic, opcode, class, unit, latency_class, operands, reads, writes, implemented, doc, operation, notes, "
      "loop, loop_counter, fused, compose, semantics, replaces, timing, actions";
  const std::vector<Case> cases = {
      // The correct entry: exit 0 (the control).
      {"ok", plena_entry("", ok_tail), ""},
      // Line 13, column 5: the misspelt key.
      {"unknown_key", plena_entry("", "    dco: \"y\"\n" + ok_tail),
       "13:5: unknown key 'dco' in instructions entry (known keys: " + all_keys + ")"},
      // Opcode 0x01 is M_MM's (isa/plena/plena.yaml line 113); line 4 column 13 is the value.
      {"clashing_encoding", [&] {
         std::string t = plena_entry("", ok_tail);
         t.replace(t.find("0x3A"), 4, "0x01");
         return t;
       }(),
       "4:13: duplicate opcode 0x1: V_X reuses the opcode of M_MM (line 120)"},
      // A value class PLENA lacks: line 12, column 63 is `vmat`.
      {"register_class", [&] {
         std::string t = plena_entry("", ok_tail);
         t.replace(t.rfind("vrow"), 4, "vmat");
         return t;
       }(),
       "12:63: V_X operand 'rs1': value class 'vmat' is not one PLENA has (known: vrow, fp, gp, imm)"},
      // A bf16 row plus a u32 register: the '+' is at line 14, column 26 (the text starts
      // at column 17, after the quote).
      {"type_error",
       plena_entry("      - {name: rs2, kind: gp, field: rs2, role: read,  value: gp}\n",
                   "    semantics: \"rd = rs1 + rs2\"\n"),
       "14:26: cannot add vector<bf16> and u32; convert with bf16(...)"},
      // fused: on a loop instruction (line 15, column 12: the list).
      {"fused_on_a_loop",
       plena_entry("", "    loop: start\n    loop_counter: rd\n    fused: [\"V_ADD_VV rd, rs1, rs1, 0\"]\n"),
       "15:12: instruction V_X: a composed instruction cannot open or leave a loop (only a loop end may carry "
       "composed steps)"},
      // fused: on AIE-ML, which has none (line 6, column 5: the key).
      {"fused_on_aie_ml",
       "isa: aie_ml\nops:\n  - mnemonic: VADD3.F\n    slot: vec\n    latency: 2\n    fused: [\"VADD.F d, a, a\"]\n"
       "    semantics: \"d = a\"\n    operands:\n      - {name: d, class: bm, role: write, format: fp32}\n"
       "      - {name: a, class: bm, format: fp32}\n",
       "6:5: unknown key 'fused' in op VADD3.F (known keys: mnemonic, slot, alt_slots, alt_operands, operands, dst, rw, access, "
       "latency, ii, real, doc, operation, macs, format, actions, compose, semantics, replaces, commutative); AIE-ML has no `fused:`: an op "
       "built from existing ops is written with `compose: {temps, steps}` (docs/isa-extensions.md)"},
      // replaces: without semantics: (line 13, column 5 is the key's value).
      {"replaces_without_semantics",
       plena_entry("", "    replaces:\n      steps: [\"V_ADD_VV rd, rs1, rs1, 0\"]\n    compose:\n"
                       "      steps: [\"V_ADD_VV rd, rs1, rs1, 0\"]\n"),
       "14:7: instruction V_X: 'replaces' needs 'semantics': it names the composition an instruction with its own "
       "semantics stands for (a composed instruction replaces its steps already)"},
      // A replaces: step checked like a compose: step: an unknown name at line 15, column 34
      // (the step's text starts at column 16, after `[` and the quote; t9 is 18 further).
      {"replaces_unknown_name",
       plena_entry("", ok_tail + "    replaces:\n      steps: [\"V_ADD_VV rd, rs1, t9, 0\"]\n"),
       "15:34: instruction V_X: replaces: step 1 ('V_ADD_VV rd, rs1, t9, 0'): unknown operand or temporary 't9' "
       "(known: rd, rs1)"},
  };
  for (const Case& c : cases) {
    const std::string file = dir.file(std::string(c.name) + ".yaml");
    test::write_text(file, c.text);
    const int rc = run("isa check '" + file + "'", dir.file("out"), dir.file("err"));
    const std::string err = test::read_text(dir.file("err"));
    if (c.error.empty()) {
      EXPECT_EQ(rc, 0) << c.name << ": " << err;
      continue;
    }
    EXPECT_EQ(rc, 2) << c.name;
    EXPECT_EQ(err, file + ":" + c.error + "\n") << c.name;
  }
#endif
}

}  // namespace
}  // namespace tlmcraft::harness
