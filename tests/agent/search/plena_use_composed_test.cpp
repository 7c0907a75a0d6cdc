// Kernels use new instructions automatically on PLENA (issue 20), through the one
// rewriter the search agent and the co-design loop share (plena_use_composed.h on the
// matcher of isa/dataflow/): V_SILU_V (composed) and V_SILU (`semantics:` with
// `replaces:`), each added by an overlay file alone (examples/isa_ext/plena/), are found
// in kernels by their dataflow (any registers, independent set-up in between), refused
// when a temporary's row is read elsewhere or a step's input changes in between, and the
// search agent uses them on the unmodified SiLU baselines.
#include "platforms/plena/pack/agent/plena_use_composed.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "harness/evaluate.h"
#include "harness/ppa_model.h"
#include "isa/isa_variant.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"
#include "tests/agent/search/search_driver.h"
#include "tests/agent/search/plena_test_kernels.h"

namespace tlmcraft::agent::search::plena {
namespace {

std::string overlay(const std::string& name) {
  return std::string(TLMCRAFT_SOURCE_DIR) + "/examples/isa_ext/plena/" + name;
}

const isa::IsaVariant kComposed{"", {overlay("silu_composed.yaml")}};
const isa::IsaVariant kSemantics{"", {overlay("silu_semantics.yaml")}};

// The definition of `mnemonic` in the ISA in force.
ComposedDefinition definition(const std::string& mnemonic) {
  for (const ComposedDefinition& d : composed_definitions(plena_spec()))
    if (d.mnemonic == mnemonic) return d;
  ADD_FAILURE() << "no placeable instruction " << mnemonic;
  return {};
}

class PlenaPlaceComposed : public ::testing::Test {
 protected:
  void SetUp() override { setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1); }
  void use(const isa::IsaVariant& v) { scope_ = std::make_unique<isa::ScopedIsaVariant>(v); }

  // The placement of `mnemonic` in `text`: how many, and the kernel printed.
  int place(const std::string& text, std::string& out, const std::string& mnemonic = "V_SILU_V") {
    Kernel k;
    std::string error;
    EXPECT_TRUE(parse_kernel(text, k, error)) << error;
    const int n = place_composed(k, definition(mnemonic), nlohmann::json::object());
    out = print_kernel(k);
    return n;
  }
  std::string printed(const std::string& text) {
    Kernel k;
    std::string error;
    EXPECT_TRUE(parse_kernel(text, k, error)) << error;
    return print_kernel(k);
  }

 private:
  std::unique_ptr<isa::ScopedIsaVariant> scope_;
};

// Registers renamed (data gp9, scratch gp7), an independent S_ADDI_INT in between.
TEST_F(PlenaPlaceComposed, MatchesTheDataflowUnderRenamingWithIndependentSetUpInBetween) {
  use(kComposed);
  const std::string text =
      "S_ADDI_INT gp7, gp0, 512\n"
      "S_ADDI_INT gp9, gp0, 0\n"
      "C_LOOP_START gp10, 2\n"
      "  V_SUB_VF gp7, gp9, f0, 0, 1\n"
      "  V_EXP_V gp7, gp7, 0\n"
      "  S_ADDI_INT gp12, gp0, 5\n"
      "  V_ADD_VF gp7, gp7, f1, 0\n"
      "  V_RECI_V gp7, gp7, 0\n"
      "  V_MUL_VV gp9, gp9, gp7, 0\n"
      "  S_ADD_INT gp3, gp12, gp0\n"
      "  S_ADDI_INT gp9, gp9, 64\n"
      "C_LOOP_END gp10\n";
  std::string out;
  ASSERT_EQ(place(text, out), 1);
  EXPECT_EQ(out,
            "S_ADDI_INT gp7, gp0, 512\n"
            "S_ADDI_INT gp9, gp0, 0\n"
            "C_LOOP_START gp10, 2\n"
            "  S_ADDI_INT gp12, gp0, 5\n"
            "  V_SILU_V gp9, gp9, 0               ; was 5 instructions\n"
            "  S_ADD_INT gp3, gp12, gp0\n"
            "  S_ADDI_INT gp9, gp9, 64\n"
            "C_LOOP_END gp10\n");
  // x * sigmoid(x) written the other way round (rs1 and rs2 of V_MUL_VV swapped): IEEE
  // multiplication commutes, so it is the same dataflow.
  std::string swapped = text;
  swapped.replace(swapped.find("V_MUL_VV gp9, gp9, gp7"), 22, "V_MUL_VV gp9, gp7, gp9");
  EXPECT_EQ(place(swapped, out), 1);
  EXPECT_NE(out.find("  V_SILU_V gp9, gp9, 0 "), std::string::npos) << out;
  // The steps add f1 (1.0 by the kernels' convention): a kernel adding f2 is another
  // computation and is left alone.
  std::string other = text;
  other.replace(other.find("gp7, f1, 0"), 10, "gp7, f2, 0");
  EXPECT_EQ(place(other, out), 0);
}

TEST_F(PlenaPlaceComposed, RefusedWhenATemporaryRowIsReadElsewhereOrAnInputChangesInBetween) {
  use(kComposed);
  const std::string body =
      "S_ADDI_INT gp7, gp0, 512\n"
      "S_ADDI_INT gp9, gp0, 0\n"
      "V_SUB_VF gp7, gp9, f0, 0, 1\n"
      "V_EXP_V gp7, gp7, 0\n"
      "V_ADD_VF gp7, gp7, f1, 0\n"
      "V_RECI_V gp7, gp7, 0\n"
      "V_MUL_VV gp9, gp9, gp7, 0\n";
  std::string out;
  // 1 / (1 + exp(-x)) is read again from the scratch row: it must stay.
  const std::string reread = body + "V_ADD_VV gp9, gp7, gp9, 0\n";
  EXPECT_EQ(place(reread, out), 0);
  EXPECT_EQ(out, printed(reread));
  // Another register addressing the same row (gp8 = 512) reads it: refused too.
  const std::string alias = body + "S_ADDI_INT gp8, gp0, 512\nV_EXP_V gp9, gp8, 0\n";
  EXPECT_EQ(place(alias, out), 0);
  EXPECT_EQ(out, printed(alias));
  // A row elsewhere (gp8 = 576) is independent: placed.
  EXPECT_EQ(place(body + "S_ADDI_INT gp8, gp0, 576\nV_EXP_V gp9, gp8, 0\n", out), 1);
  // The scratch address changes between two steps: not the same dataflow.
  std::string moved = body;
  moved.insert(moved.find("V_ADD_VF"), "S_ADDI_INT gp7, gp7, 64\n");
  EXPECT_EQ(place(moved, out), 0);
  EXPECT_EQ(out.find("V_SILU_V"), std::string::npos);
}

// The search agent on the unmodified SiLU C1 baseline (serial) finds the placement and
// submits a kernel using V_SILU_V, evaluated on fresh seeds: 61 cycles or fewer against
// the baseline's 77 (the placement alone gives 61, PlenaComposedSilu derives it).
TEST_F(PlenaPlaceComposed, SearchAgentFindsAndUsesVSiluVOnTheSiluBaseline) {
  use(kComposed);
  const test::SearchRun r = test::run_search("plena", "silu", "C1", 8, kComposed);
  ASSERT_TRUE(r.submitted);
  EXPECT_NE(r.submitted_code.find("V_SILU_V"), std::string::npos) << r.submitted_code;
  EXPECT_EQ(r.last_evaluation.value("status", ""), "pass") << r.last_evaluation.dump();
  EXPECT_EQ(r.last_evaluation.value("baseline_cycles", 0), 77);
  EXPECT_LE(r.last_evaluation.value("cycles", 0), 61);
}

// The same for V_SILU, which has no steps of its own: its `replaces:` composition (the
// five steps) is what the search agent matches; the kernel runs V_SILU's semantics.
TEST_F(PlenaPlaceComposed, SearchAgentPlacesASemanticsInstructionByWhatItReplaces) {
  use(kSemantics);
  const test::SearchRun r = test::run_search("plena", "silu", "C1", 8, kSemantics);
  ASSERT_TRUE(r.submitted);
  EXPECT_NE(r.submitted_code.find("V_SILU gp"), std::string::npos) << r.submitted_code;
  EXPECT_EQ(r.submitted_code.find("V_EXP_V"), std::string::npos) << r.submitted_code;
  EXPECT_EQ(r.last_evaluation.value("status", ""), "pass") << r.last_evaluation.dump();
  EXPECT_LE(r.last_evaluation.value("cycles", 0), 61);
}

// Suite-wide on the PLENA baselines (the placement alone, no other transformation):
// each placement passes evaluate() on fresh seeds, and in serial timing each execution
// saves 4 vector cycles (1+1+1+2+1 = 6 cycles of steps become the new instruction's 2).
// Serial cycles are the sum of every unit's busy cycles, and the HBM transfers take what
// the HBM model says at the cycle they are issued (refresh and row-buffer state move
// with time), so
//   cycles = baseline - 4 * executions + (DMA busy cycles - the baseline's DMA busy cycles).
// SiLU runs the chain once per VLEN row (executions = n / 64) and its DMA term is 0 at
// C1..C3, 8 (C4) and 4 (C5) cycles of slower transfers: C1 77 -> 61, C2 307 -> 243,
// C3 596 -> 468, C4 2221 -> 1717, C5 4388 -> 3368 (V_SILU_V and V_SILU alike: the same
// unit, latency and interval). SwiGLU, FFN and the LLaMA decoder compute SiLU(g) with the
// same five steps in each block, four times (four rows) with the scratch row 768: the
// matcher places the first three of each block (the next chain's V_SUB_VF overwrites the
// scratch row before anything reads it), not the fourth (a later M_BMM reads VRAM the
// adapter cannot bound, so the row may be live); GELU, ReLU, softmax and LayerNorm have
// no such chain.
struct Placed {
  int uses = 0;
  uint64_t executions = 0;
  nlohmann::json report, baseline;
};

Placed place_in_baseline(const std::string& mnemonic, const std::string& task, const std::string& cfg) {
  Placed out;
  auto p = make_platform("plena");
  const auto inst = tasks::Registry::builtin().instance(task, "plena", cfg);
  Kernel kernel;
  std::string error;
  EXPECT_TRUE(parse_kernel(tasks::baseline_kernel(inst, p->config()), kernel, error)) << error;
  out.uses = place_composed(kernel, definition(mnemonic), nlohmann::json::object(), &out.executions);
  if (out.uses == 0) return out;
  EvalOptions o;
  o.task = task;
  o.config = cfg;
  o.kernel_source = print_kernel(kernel);
  o.seed = 505;
  o.trials = 2;
  out.report = evaluate(*p, o);
  o.kernel_source = tasks::baseline_kernel(inst, p->config());
  out.baseline = evaluate(*p, o);
  return out;
}

// The cycle relation above; returns the DMA term.
int64_t expect_cycles_follow(const Placed& r) {
  const int64_t x = int64_t(r.executions);
  EXPECT_EQ(busy(r.baseline, "vector") - busy(r.report, "vector"), 4 * x);
  const int64_t dma = busy(r.report, "dma.prefetch") + busy(r.report, "dma.store") - busy(r.baseline, "dma.prefetch") -
                      busy(r.baseline, "dma.store");
  EXPECT_EQ(r.report["cycles"].get<int64_t>(), r.report["baseline_cycles"].get<int64_t>() - 4 * x + dma);
  return dma;
}

void expect_every_silu_configuration(const std::string& mnemonic) {
  const int64_t n[] = {256, 1024, 2048, 8192, 16384};  // tasks/: silu's n at C1..C5
  const int64_t dma_term[] = {0, 0, 0, 8, 4};
  for (int c = 0; c < 5; ++c) {
    const std::string cfg = "C" + std::to_string(c + 1);
    const Placed r = place_in_baseline(mnemonic, "silu", cfg);
    ASSERT_EQ(r.uses, 1) << cfg;
    ASSERT_EQ(r.report["status"], "pass") << mnemonic << " " << cfg << " " << r.report.dump().substr(0, 2000);
    EXPECT_EQ(r.executions, uint64_t(n[c] / 64)) << cfg;
    EXPECT_EQ(expect_cycles_follow(r), dma_term[c]) << cfg;
    std::cout << mnemonic << " silu " << cfg << ": " << r.report["baseline_cycles"] << " -> " << r.report["cycles"]
              << " cycles\n";
  }
}

TEST_F(PlenaPlaceComposed, SuiteWideEverySiluConfiguration) {
  use(kComposed);
  expect_every_silu_configuration("V_SILU_V");
}

TEST_F(PlenaPlaceComposed, SuiteWideTheSemanticsInstructionToo) {
  use(kSemantics);
  expect_every_silu_configuration("V_SILU");
}

// The composed V_SILU_V computes exactly its steps, so every placement in the other
// kernels passes too; three per block of four SiLU rows, none where there is no chain.
TEST_F(PlenaPlaceComposed, SuiteWideOtherKernelsWithTheChain) {
  use(kComposed);
  for (const std::string task : {"swiglu", "ffn", "llama_decoder", "gelu", "relu", "softmax", "layernorm"})
    for (const std::string cfg : {"C1", "C2"}) {
      const Placed r = place_in_baseline("V_SILU_V", task, cfg);
      std::cout << task << " " << cfg << ": " << r.uses << " uses, " << r.executions << " executions";
      if (r.uses)
        std::cout << ", " << r.report["baseline_cycles"] << " -> " << r.report["cycles"] << " cycles, "
                  << r.report["status"];
      std::cout << "\n";
      const bool chain = task == "swiglu" || task == "ffn" || task == "llama_decoder";
      EXPECT_EQ(r.uses, chain ? 3 : 0) << task << " " << cfg;
      if (r.uses == 0) continue;
      ASSERT_EQ(r.report["status"], "pass") << task << " " << cfg << " " << r.report.dump().substr(0, 2000);
      expect_cycles_follow(r);
    }
}

double term(const nlohmann::json& report, const std::string& counter, const char* field) {
  for (const auto& t : report["energy"]["terms"])
    if (t["counter"] == counter) return t[field].get<double>();
  ADD_FAILURE() << "no energy term " << counter;
  return 0;
}

// Energy of V_SILU placed in SiLU C1 (4 rows of 64 lanes, bf16 = 2 bytes, a row 128
// bytes), by action (docs/energy-area.md). Per row the five steps read 6 rows (SUB, EXP,
// ADD, RECI one each, MUL two) and write 5; V_SILU reads 1 and writes 1; so VRAM traffic
// falls by 4 x 5 x 128 = 2560 bytes read and 4 x 4 x 128 = 2048 written. The steps
// perform 2 bf16 additions a lane (the subtraction -x and the +1), V_SILU's silu one
// (its -x is a sign flip): 4 x 64 = 256 vector.add.bf16 fewer; exp, recip and mul are
// unchanged (256 each). Address registers: the steps read 2+2+2+2+3 = 11 gp registers of
// 4 bytes a row, V_SILU 2: 4 x 9 x 4 = 144 gp bytes read fewer; V_ADD_VF's f1 (2 bytes)
// 8 fp bytes fewer; 16 instructions fewer fetched. Static energy is leakage per cycle
// over the run: 16 cycles fewer (77 -> 61, above).
TEST_F(PlenaPlaceComposed, EnergyOfThePlacedSemanticsInstructionFollowsTheActions) {
  use(kSemantics);
  auto p = make_platform("plena");
  const auto inst = tasks::Registry::builtin().instance("silu", "plena", "C1");
  Kernel kernel;
  std::string error;
  ASSERT_TRUE(parse_kernel(tasks::baseline_kernel(inst, p->config()), kernel, error)) << error;
  ASSERT_EQ(place_composed(kernel, definition("V_SILU"), nlohmann::json::object()), 1);
  EvalOptions o;
  o.task = "silu";
  o.config = "C1";
  o.seed = 606;
  o.trials = 1;
  o.kernel_source = print_kernel(kernel);
  nlohmann::json r = evaluate(*p, o);
  ASSERT_EQ(r["status"], "pass");
  o.kernel_source = tasks::baseline_kernel(inst, p->config());
  nlohmann::json base = evaluate(*p, o);
  harness::add_ppa_estimates(r, p->config());  // what `tlmcraft run` reports
  harness::add_ppa_estimates(base, p->config());
  const std::map<std::string, int64_t> fewer = {{"vram.read_bytes", 2560}, {"vram.write_bytes", 2048},
                                                {"vector.add.bf16", 256},  {"gp.read_bytes", 144},
                                                {"fp.read_bytes", 8},      {"fetch.instruction", 16}};
  double saved_pj = 0;
  for (const auto& [action, n] : fewer) {
    EXPECT_EQ(base["actions"][action].get<int64_t>() - r["actions"][action].get<int64_t>(), n) << action;
    saved_pj += double(n) * term(r, "actions/" + action, "pj_each");
  }
  for (const char* same : {"vector.exp.bf16", "vector.recip.bf16", "vector.mul.bf16", "hbm.read_bytes"})
    EXPECT_EQ(base["actions"][same], r["actions"][same]) << same;
  // With the shipped prices (platforms/plena ppa table, docs/energy-area.md: VRAM 4.75
  // pJ/byte, bf16 add 0.4, register byte 0.42, fetch 5): 2560 x 4.75 + 2048 x 4.75 +
  // 256 x 0.4 + 144 x 0.42 + 8 x 0.42 + 16 x 5 = 22134.24 pJ.
  EXPECT_NEAR(base["energy"]["dynamic_pj"].get<double>() - r["energy"]["dynamic_pj"].get<double>(), saved_pj, 1e-6);
  EXPECT_NEAR(saved_pj, 22134.24, 1e-6);
  const double leak = term(r, "cycles", "pj_each");
  EXPECT_NEAR(base["energy"]["static_pj"].get<double>() - r["energy"]["static_pj"].get<double>(), 16 * leak, 1e-6);
}

}  // namespace
}  // namespace tlmcraft::agent::search::plena
