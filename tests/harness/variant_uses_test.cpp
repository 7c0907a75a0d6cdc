// Each instruction an ISA variant adds is reported with its uses (harness/variant_uses.h,
// docs/report-schema.md `isa_variant_uses`): the sentences, the suite totals, and the
// counts each platform supplies, through `run`, `bench` and `sweep`.
#include "harness/variant_uses.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

// A report as evaluate() and add_ppa_estimates leave it: the area's lines are the variant's
// figures x ppa.area_scale (here 0.5), and the platform counted two of the instructions.
json counted_report() {
  return {{"units", json::array()},
          {"added_instructions",
           {{"A", {{"static", 1}, {"executions", 4}}},
            {"B", {{"static", 0}, {"executions", 0}}},
            {"C", {{"static", 2}, {"executions", 0}}}}},
          {"area",
           {{"isa_extension",
             {{{"name", "A"}, {"kind", "instruction"}, {"mm2", 0.001}},
              {{"name", "B"}, {"kind", "instruction"}, {"mm2", 0.0025}},
              {{"name", "C"}, {"kind", "instruction"}, {"mm2", 0.5}}}}}}};
}

const std::vector<AddedArea> kVariant = {{"A", "instruction", 0.002, ""},
                                         {"gp write port", "register_port", 0.1, ""},
                                         {"B", "instruction", 0.005, ""},
                                         {"C", "instruction", 1.0, ""},
                                         {"D", "instruction", 0, "no area for action 'x'"}};

TEST(VariantUses, OneLinePerAddedInstructionWithTheReportsArea) {
  json rep = counted_report();
  add_variant_uses(rep, kVariant);
  const json& u = rep.at("isa_variant_uses");
  ASSERT_EQ(u.size(), 4u);  // the register port is no instruction
  EXPECT_EQ(u[0], json({{"name", "A"},
                        {"static", 1},
                        {"executions", 4},
                        {"mm2", 0.001},
                        {"text", "A: placed 1 time, executed 4 times (area +0.001000 mm2)"}}));
  EXPECT_EQ(u[1]["text"], "B: added, 0 uses (area +0.002500 mm2 with no effect on cycles)");
  EXPECT_EQ(u[2]["text"], "C: placed 2 times, never executed (area +0.500000 mm2 with no effect on cycles)");
  // D: not in the platform's counts (listed as 0), and not priced.
  EXPECT_EQ(u[3]["mm2"], nullptr);
  EXPECT_EQ(u[3]["text"], "D: added, 0 uses (area not priced: no area for action 'x'; no effect on cycles)");
}

TEST(VariantUses, NotCountedNotRunOrNoInstructionsSaySoOrAddNothing) {
  json rep = counted_report();
  rep.erase("added_instructions");
  rep.erase("area");  // no ppa section: the variant's own figure
  add_variant_uses(rep, std::vector<AddedArea>{kVariant[0]});
  EXPECT_EQ(rep["isa_variant_uses"][0]["static"], nullptr);
  EXPECT_EQ(rep["isa_variant_uses"][0]["text"], "A: added (area +0.002000 mm2); the platform does not count its uses");
  json unrun = {{"status", "assemble_error"}};
  add_variant_uses(unrun, kVariant);
  EXPECT_FALSE(unrun.contains("isa_variant_uses"));
  json ports_only = counted_report();
  add_variant_uses(ports_only, std::vector<AddedArea>{kVariant[1]});
  EXPECT_FALSE(ports_only.contains("isa_variant_uses"));
  json no_pricing = counted_report();  // a platform without a pricing of variants (nullopt)
  add_variant_uses(no_pricing, std::nullopt);
  EXPECT_FALSE(no_pricing.contains("isa_variant_uses"));
}

TEST(VariantUses, SuiteTotalsSumTheRunsThatCounted) {
  // Three runs: A used in t1/C1 (1 placed, 4 executed) and t2/C1 (2, 6); B in none; a
  // fourth record from another platform has no lines and is left out.
  const auto use = [](const char* name, int placed, int executed) {
    return json{{"name", name}, {"static", placed}, {"executions", executed}, {"mm2", 0.25}};
  };
  const std::vector<json> records = {
      {{"task", "t1"}, {"config", "C1"}, {"isa_variant_uses", {use("A", 1, 4), use("B", 0, 0)}}},
      {{"task", "t2"}, {"config", "C1"}, {"isa_variant_uses", {use("A", 2, 6), use("B", 0, 0)}}},
      {{"task", "t3"}, {"config", "C2"}, {"isa_variant_uses", {use("A", 0, 0), use("B", 0, 0)}}},
      {{"task", "t4"}, {"config", "C1"}}};
  const json t = suite_variant_uses(records);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0]["static"], 3);       // 1 + 2 + 0
  EXPECT_EQ(t[0]["executions"], 10);  // 4 + 6 + 0
  EXPECT_EQ(t[0]["runs"], 3);
  EXPECT_EQ(t[0]["used_by"], json({"t1/C1", "t2/C1"}));
  EXPECT_EQ(t[0]["text"], "A: executed 10 times in 2 of 3 runs (t1/C1, t2/C1), placed 3 times (area +0.250000 mm2)");
  EXPECT_EQ(t[1]["text"], "B: added, 0 uses in 3 runs (area +0.250000 mm2 with no effect on cycles)");
  EXPECT_EQ(variant_uses_text(t, ""), "isa variant:  " + t[0]["text"].get<std::string>() +
                                          "\nisa variant:  " + t[1]["text"].get<std::string>() + "\n");
  EXPECT_TRUE(suite_variant_uses({records[3]}).empty());
  // A hand-edited results file: what is not a count or a name reads as 0 or "?", no throw.
  const json odd = suite_variant_uses({{{"task", 7},
                                        {"isa_variant_uses",
                                         {{{"name", "A"}, {"static", 1}, {"executions", "x"}, {"unpriced", 3}},
                                          {{"name", 2}, {"static", "y"}},
                                          "z"}}}});
  ASSERT_EQ(odd.size(), 2u);
  EXPECT_EQ(odd[0]["text"], "A: placed 1 time, never executed in 1 run (area not priced: ?; no effect on cycles)");
  EXPECT_EQ(odd[1]["text"], "?: added (area not priced: ?); no run counts its uses");
}

#ifdef TLMCRAFT_EXE
int run(const std::string& args, const std::string& out_file) {
  const std::string cmd = std::string("SYSC_DISABLE_COPYRIGHT_MESSAGE=1 '") + TLMCRAFT_EXE + "' " + args + " > '" +
                          out_file + "' 2> '" + out_file + ".err'";
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// The report's area line for `name` (the uses carry the same figure).
double area_line(const json& report, const std::string& name) {
  for (const json& l : report["area"]["isa_extension"])
    if (l["name"] == name) return l["mm2"].get<double>();
  ADD_FAILURE() << "no area line " << name;
  return -1;
}
#endif

const std::string kSrc = TLMCRAFT_SOURCE_DIR;

TEST(VariantUses, PlenaLoopOfFourPlacesOnceAndRunsFourTimes) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  // V_SILU_V once in a loop of 4 iterations: static 1, dynamic 4. V_SILU (the semantics
  // overlay) is added but never written: 0 and 0.
  test::write_text(dir.file("k.asm"),
                   "S_ADDI_INT gp3, gp0, 64\nC_LOOP_START gp1, 4\n  V_SILU_V gp3, gp3, 0\n"
                   "C_LOOP_END gp1\n");
  const std::string overlays = " --isa-ext " + kSrc + "/examples/isa_ext/plena/silu_composed.yaml --isa-ext " + kSrc +
                               "/examples/isa_ext/plena/silu_semantics.yaml ";
  ASSERT_EQ(run("run -p plena --json" + overlays + dir.file("k.asm"), dir.file("o")), 0);
  const json rep = json::parse(test::read_text(dir.file("o")));
  const json& u = rep.at("isa_variant_uses");
  ASSERT_EQ(u.size(), 2u);
  EXPECT_EQ(u[0]["name"], "V_SILU_V");
  EXPECT_EQ(u[0]["static"], 1);
  EXPECT_EQ(u[0]["executions"], 4);
  EXPECT_EQ(u[0]["mm2"].get<double>(), area_line(rep, "V_SILU_V"));
  EXPECT_EQ(u[1]["name"], "V_SILU");
  EXPECT_EQ(u[1]["static"], 0);
  EXPECT_EQ(u[1]["executions"], 0);
  EXPECT_EQ(rep["added_instructions"]["V_SILU"], json({{"static", 0}, {"executions", 0}}));
  // The text report prints the same sentences.
  ASSERT_EQ(run("run -p plena" + overlays + dir.file("k.asm"), dir.file("t")), 0);
  const std::string text = test::read_text(dir.file("t"));
  EXPECT_NE(text.find("  isa variant:  " + u[0]["text"].get<std::string>() + "\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  isa variant:  V_SILU: added, 0 uses (area +"), std::string::npos) << text;
  // With the composed overlay alone: its one line.
  ASSERT_EQ(
      run("run -p plena --json --isa-ext " + kSrc + "/examples/isa_ext/plena/silu_composed.yaml " + dir.file("k.asm"),
          dir.file("o2")),
      0);
  EXPECT_EQ(json::parse(test::read_text(dir.file("o2")))["isa_variant_uses"].size(), 1u);
#endif
}

TEST(VariantUses, AieMlSiluOpInTheBlockLoopRunsSixteenTimes) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  // The relu baseline at C1 (one tile, one block, a zero-overhead loop of 16 iterations)
  // with its max replaced by the overlay's VSILU.BF16 (latency 8: seven NOPs before the
  // store reads w2) computes SiLU: VSILU.BF16 is placed once and issues 16 times; the two
  // ops of split_products.yaml are added and never placed.
  ASSERT_EQ(run("baseline -p aie_ml --task relu --config C1", dir.file("relu.aie")), 0);
  std::string kernel = test::read_text(dir.file("relu.aie"));
  const std::string max = "  VMAX.BF16 x1, x0, x2\n  NOP    ; wait (exposed pipeline)\n";
  ASSERT_NE(kernel.find(max), std::string::npos) << kernel;
  kernel.replace(kernel.find(max), max.size(),
                 "  VSILU.BF16 w2, w0\n  NOP\n  NOP\n  NOP\n  NOP\n  NOP\n  NOP\n  NOP\n");
  test::write_text(dir.file("silu.aie"), kernel);
  ASSERT_EQ(run("run -p aie_ml --task silu --config C1 --trials 1 --seed 1 --json --isa-ext " + kSrc +
                    "/examples/isa_ext/aie_ml/silu.yaml --isa-ext " + kSrc +
                    "/examples/isa_ext/aie_ml/split_products.yaml " + dir.file("silu.aie"),
                dir.file("o")),
            0)
      << test::read_text(dir.file("o"));
  const json rep = json::parse(test::read_text(dir.file("o")));
  EXPECT_EQ(rep["status"], "pass");
  const json& u = rep.at("isa_variant_uses");
  ASSERT_EQ(u.size(), 3u);
  EXPECT_EQ(u[0]["name"], "VSILU.BF16");
  EXPECT_EQ(u[0]["static"], 1);
  EXPECT_EQ(u[0]["executions"], 16);
  EXPECT_EQ(u[1]["name"], "VMULS.E.BF16");
  EXPECT_EQ(u[2]["name"], "VMULC.E.BF16");
  for (size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(u[i]["static"], 0);
    EXPECT_EQ(u[i]["executions"], 0);
    EXPECT_NE(u[i]["text"].get<std::string>().find(": added, 0 uses (area +"), std::string::npos);
  }
#endif
}

TEST(VariantUses, CoralQuadMacOnTheGemmBaselineIsAddedWithNoUse) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  // clang's gemm C1 loop does not hold the chain vqmacc replaces (quad_mac.yaml's header):
  // the peephole places none; the area line (0.002493 mm2: isa check's figure) buys nothing.
  ASSERT_EQ(run("run -p coral --task gemm --config C1 --baseline --trials 1 --seed 1 --isa-ext " + kSrc +
                    "/examples/isa_ext/coral/quad_mac.yaml",
                dir.file("t")),
            0);
  EXPECT_NE(test::read_text(dir.file("t"))
                .find("  isa variant:  vqmacc: added, 0 uses (area +0.002493 mm2 with no effect on cycles)\n"),
            std::string::npos)
      << test::read_text(dir.file("t"));
#endif
}

TEST(VariantUses, BenchAndSweepSumTheUsesOverTheSuite) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  // V_RELU_V: one fused V_MAX_VF step (no operator used twice, no temporary: 0 mm2).
  test::write_text(dir.file("relu.yaml"),
                   "isa: plena\nlatency_classes:\n  - {name: vector_relu, cycles: 2, doc: \"one max pass\"}\n"
                   "instructions:\n  - mnemonic: V_RELU_V\n    opcode: 0x3A\n    class: V\n"
                   "    unit: vector\n    latency_class: vector_relu\n    operands:\n"
                   "      - {name: rd, kind: gp, field: rd}\n      - {name: rs1, kind: gp, field: rs1}\n"
                   "      - {name: rmask, kind: flag, field: rs3}\n    doc: \"ReLU\"\n    operation: \"max(x, 0)\"\n"
                   "    fused: [\"V_MAX_VF rd, rs1, f0, rmask\"]\n");
  // The relu C1 baseline runs its one V_MAX_VF line 4 times (1 block x 4 rows): replaced by
  // V_RELU_V it is placed once and executed 4 times.
  ASSERT_EQ(run("baseline -p plena --task relu --config C1", dir.file("base.asm")), 0);
  std::string kernel = test::read_text(dir.file("base.asm"));
  const std::string max_line = "V_MAX_VF gp2, gp2, f0, 0";
  ASSERT_NE(kernel.find(max_line), std::string::npos);
  kernel.replace(kernel.find(max_line), max_line.size(), "V_RELU_V gp2, gp2, 0");
  std::filesystem::create_directories(dir.file("k"));
  test::write_text(dir.file("k/relu_C1.asm"), kernel);
  const std::string common =
      "--platform plena --task relu --config C1 --trials 1 --jobs 1 -q --isa-ext " + dir.file("relu.yaml");
  ASSERT_EQ(run("bench " + common + " --kernels " + dir.file("k") + " --out " + dir.file("b.jsonl"), dir.file("b")), 0);
  EXPECT_NE(test::read_text(dir.file("b"))
                .find("\nisa variant:  V_RELU_V: executed 4 times in 1 of 1 runs (relu/C1), "
                      "placed 1 time (area +0.000000 mm2)\n"),
            std::string::npos)
      << test::read_text(dir.file("b"));
  ASSERT_EQ(run("bench " + common + " --json --out " + dir.file("b2.jsonl"), dir.file("b2")), 0);
  const json summary = json::parse(test::read_text(dir.file("b2")));
  EXPECT_EQ(summary["isa_variant_uses"][0]["text"],
            "V_RELU_V: added, 0 uses in 1 run (area +0.000000 mm2 with no effect on cycles)");
  // A sweep over the shipped ISA and the overlay: only the overlay's variant has the line.
  ASSERT_EQ(run("sweep --platform plena --task relu --config C1 --trials 1 --jobs 1 -q --json --grid 'isa_ext=none," +
                    dir.file("relu.yaml") + "' --out " + dir.file("s.jsonl") + " --html " + dir.file("s.html"),
                dir.file("s")),
            0)
      << test::read_text(dir.file("s.err"));
  const json sweep = json::parse(test::read_text(dir.file("s")));
  EXPECT_TRUE(sweep["variants"][0]["isa_variant_uses"].empty());
  EXPECT_EQ(sweep["variants"][1]["isa_variant_uses"][0]["text"], summary["isa_variant_uses"][0]["text"]);
  EXPECT_NE(test::read_text(dir.file("s.html"))
                .find("<ul id=\"sweep-variant-uses\"><li>v2 V_RELU_V: added, 0 uses in 1 run (area +0.000000 mm2 "
                      "with no effect on cycles)</li></ul>"),
            std::string::npos);
  // The HTML report lists it under the variants.
  ASSERT_EQ(run("report " + dir.file("b.jsonl") + " -o " + dir.file("r.html"), dir.file("r")), 0);
  EXPECT_NE(test::read_text(dir.file("r.html")).find("<table id=\"variant-uses\">"), std::string::npos);
#endif
}

}  // namespace
}  // namespace tlmcraft::harness
