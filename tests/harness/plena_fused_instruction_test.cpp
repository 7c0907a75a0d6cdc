// A fused PLENA instruction added by YAML alone (issue 12, "Must show"): the test writes an
// ISA directory whose plena.yaml adds V_SIGMOID_V (sigmoid = 1 / (1 + exp(-x)) composed
// of V_SUB_VF, V_EXP_V, V_ADD_VF and V_RECI_V) with its own latency class, then runs a
// SiLU kernel using it through evaluate(). Nothing is rebuilt: assembler, semantics,
// timing, `isa doc` and the agent's ISA reference all read the YAML.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "agent/docs_index.h"
#include "harness/evaluate.h"
#include "isa/isa_doc.h"
#include "isa/isa_spec.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace tlmcraft {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream o;
  o << in.rdbuf();
  return o.str();
}

// Replaces the one occurrence of `from` (the test fails if it is not there exactly once).
void replace_once(std::string& text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << "missing: " << from;
  ASSERT_EQ(text.find(from, at + 1), std::string::npos) << "not unique: " << from;
  text.replace(at, from.size(), to);
}

const char* kSigmoidEntry = R"yaml(
  - mnemonic: V_SIGMOID_V
    opcode: 0x38
    class: V
    unit: vector
    latency_class: vector_sigmoid
    operands:
      - {name: rd, kind: gp, field: rd, doc: "VRAM address of the result row"}
      - {name: rs1, kind: gp, field: rs1, doc: "VRAM address of the source row"}
      - {name: fone, kind: fp, field: rs2, doc: "an fp register holding 1.0"}
      - {name: rmask, kind: flag, field: rs3, doc: "1: only heads enabled in V_MASK"}
    reads: [V_MASK]
    doc: "Logistic sigmoid of every lane."
    operation: "VRAM[gp[rd]] = 1 / (1 + exp(-VRAM[gp[rs1]]))"
    fused:
      - "V_SUB_VF rd, rs1, f0, rmask, 1"
      - "V_EXP_V rd, rd, rmask"
      - "V_ADD_VF rd, rd, fone, rmask"
      - "V_RECI_V rd, rd, rmask"
)yaml";

// An ISA directory <tmp>/<tag>/plena/plena.yaml: the shipped PLENA ISA plus V_SIGMOID_V
// whose class vector_sigmoid declares `cycles` (the default config has no figure for it).
std::string write_isa_dir(const std::string& tag, int cycles) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("fused_isa_" + std::to_string(getpid()) + "_" + tag);
  fs::create_directories(dir / "plena");
  std::string yaml = read_text(std::string(TLMCRAFT_SOURCE_DIR) + "/isa/plena/plena.yaml");
  replace_once(yaml, "  - {name: hbm, doc:",
               "  - {name: vector_sigmoid, cycles: " + std::to_string(cycles) +
                   ", doc: \"Fused sigmoid.\"}\n  - {name: hbm, doc:");
  yaml += kSigmoidEntry;
  std::ofstream(dir / "plena" / "plena.yaml") << yaml;
  return dir.string();
}

// The shipped SiLU C1 baseline with its sigmoid (four instructions) replaced by V_SIGMOID_V.
std::string fused_silu_kernel() {
  auto p = make_platform("plena");
  const auto inst = tasks::Registry::builtin().instance("silu", "plena", "C1");
  std::string k = tasks::baseline_kernel(inst, p->config());
  replace_once(k, "V_SUB_VF gp4, gp2, f0, 0, 1", "V_SIGMOID_V gp4, gp2, f1, 0 ;");
  replace_once(k, "V_EXP_V gp4, gp4, 0", "; was V_EXP_V");
  replace_once(k, "V_ADD_VF gp4, gp4, f1, 0", "; was V_ADD_VF");
  replace_once(k, "V_RECI_V gp4, gp4, 0", "; was V_RECI_V");
  return k;
}

json run_silu(const std::string& isa_dir, const std::string& kernel) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  setenv("TLMCRAFT_ISA_DIR", isa_dir.c_str(), 1);
  auto p = make_platform("plena");
  EvalOptions o;
  o.task = "silu";
  o.config = "C1";
  o.kernel_source = kernel;
  o.seed = 7;
  o.trials = 2;
  json r = evaluate(*p, o);
  unsetenv("TLMCRAFT_ISA_DIR");
  return r;
}

// Serial timing (the default config): every instruction starts when the previous one
// ends, so the count is the sum of latencies plus DMA. Per VRAM row the baseline's
// sigmoid costs V_SUB_VF 1 + V_EXP_V 1 + V_ADD_VF 1 + V_RECI_V 2 = 5 cycles; the fused
// V_SIGMOID_V costs its declared `cycles`. SiLU C1 is n = 256 = 4 rows of VLEN 64, so
//   cycles(fused) = cycles(baseline) - 4 * (5 - cycles).
// cycles 3 saves 4 * 2 = 8 cycles, cycles 9 costs 4 * 4 = 16 more. The numerics are the
// same operations in the same order, so the outputs match the reference exactly.
TEST(PlenaFusedInstruction, YamlAloneAddsSigmoidAndSiluCyclesFollowItsLatency) {
  const std::string kernel = fused_silu_kernel();
  for (const auto& [cycles, delta] : {std::pair{3, -8}, std::pair{9, 16}}) {
    const json r = run_silu(write_isa_dir("c" + std::to_string(cycles), cycles), kernel);
    ASSERT_EQ(r["status"], "pass") << r.dump(2);
    EXPECT_EQ(r["instructions"].get<int64_t>(), 33) << "3 fewer instructions per row than the baseline's 45";
    EXPECT_EQ(r["cycles"].get<int64_t>() - r["baseline_cycles"].get<int64_t>(), delta) << "cycles: " << cycles;
    for (const auto& t : r["trials"]) EXPECT_EQ(t["check"]["max_abs_err"].get<double>(), 0.0);
  }
}

TEST(PlenaFusedInstruction, DocsAndAgentReferenceShowIt) {
  const std::string dir = write_isa_dir("docs", 3);
  const isa::IsaSpec spec = isa::IsaSpec::load(isa::isa_yaml_path_in(dir, "plena"));
  const std::string md = isa::render_isa_markdown(spec, {});
  EXPECT_NE(md.find("### V_SIGMOID_V"), std::string::npos);
  EXPECT_NE(md.find("- Fused: runs, in order, `V_SUB_VF rd, rs1, f0, rmask, 1`, then `V_EXP_V rd, rd, rmask`"),
            std::string::npos);
  EXPECT_NE(md.find("vector_sigmoid (3 cycles (declared in the ISA))"), std::string::npos);
  setenv("TLMCRAFT_ISA_DIR", dir.c_str(), 1);
  const std::string agent_ref = agent::isa_reference("plena", json::object());
  unsetenv("TLMCRAFT_ISA_DIR");
  EXPECT_NE(agent_ref.find("### V_SIGMOID_V"), std::string::npos);
}

// Without the ISA directory the shipped ISA does not know the instruction: the kernel
// fails to assemble with a message naming the line.
TEST(PlenaFusedInstruction, ShippedIsaRejectsIt) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  unsetenv("TLMCRAFT_ISA_DIR");
  auto p = make_platform("plena");
  EvalOptions o;
  o.task = "silu";
  o.config = "C1";
  o.kernel_source = fused_silu_kernel();
  o.seed = 7;
  o.trials = 1;
  o.compare_baseline = false;
  const json r = evaluate(*p, o);
  EXPECT_NE(r["status"], "pass");
  EXPECT_NE(r.dump().find("V_SIGMOID_V"), std::string::npos) << r.dump(2);
}

}  // namespace
}  // namespace tlmcraft
