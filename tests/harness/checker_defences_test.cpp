// The evaluation's defences against wrong kernels (docs/tasks.md, "What the checker
// defends against"): fresh trial seeds recorded in every report, a memoised-output kernel
// failing on fresh inputs, a known-input fast path that cannot get its cycles reported,
// and a write outside the outputs failing with its address on every platform.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "harness/memory_guard.h"
#include "harness/report_text.h"
#include "harness/seeds.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"
#include "tasks/registry.h"

namespace tlmcraft {
namespace {

using nlohmann::json;

// Coral kernels here are C: they go through a file whose name ends in .c.
std::string c_file(const std::string& source) {
  static int n = 0;
  const std::string path = ::testing::TempDir() + "checker_defences_" + std::to_string(getpid()) + "_" +
                           std::to_string(n++) + ".c";
  std::ofstream(path) << source;
  return path;
}

json evaluate_on(const std::string& platform, const std::string& task, const std::string& kernel,
                 std::optional<uint64_t> seed, int trials, bool baseline = false) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  auto p = make_platform(platform);
  EvalOptions o;
  o.platform = platform;
  o.task = task;
  o.config = "C1";
  if (platform == "coral" && !baseline) o.kernel_path = c_file(kernel);
  else o.kernel_source = kernel;
  o.use_baseline = baseline;
  o.seed = seed;
  o.trials = trials;
  o.compare_baseline = false;
  return evaluate(*p, o);
}

std::string hex(uint64_t v) {
  std::ostringstream o;
  o << "0x" << std::hex << v;
  return o.str();
}

// ------------------------------------------------------------------ fresh seeds

TEST(FreshSeeds, TwoEvaluationsWithoutSeedUseDifferentInputsAndSayWhich) {
  const json a = evaluate_on("plena", "relu", "", std::nullopt, 2, true);
  const json b = evaluate_on("plena", "relu", "", std::nullopt, 2, true);
  ASSERT_EQ(a["status"], "pass") << a["reason"];
  ASSERT_EQ(b["status"], "pass") << b["reason"];
  EXPECT_EQ(a["seed_source"], "os");
  ASSERT_EQ(a["seeds"].size(), 2u);
  EXPECT_NE(a["seeds"], b["seeds"]);
  const uint64_t first = a["seeds"][0];
  EXPECT_EQ(a["seeds"][1].get<uint64_t>(), first + 1);
  EXPECT_LT(first, kSeedLimit);
  EXPECT_EQ(a["trials"][0]["seed"], a["seeds"][0]);
  EXPECT_EQ(a["trials"][1]["seed"], a["seeds"][1]);
  // The text report names the seeds and how to reproduce them.
  const std::string text = format_report_text(a);
  EXPECT_NE(text.find("seeds:        " + std::to_string(first) + ", " + std::to_string(first + 1) +
                      " (fresh from the OS; --seed " + std::to_string(first) + " reproduces them)"),
            std::string::npos)
      << text;
  // --seed FIRST reproduces the run: the same inputs give the same check results.
  const json again = evaluate_on("plena", "relu", "", first, 2, true);
  EXPECT_EQ(again["seed_source"], "fixed");
  EXPECT_EQ(again["seeds"], a["seeds"]);
  EXPECT_EQ(again["trials"][0]["check"], a["trials"][0]["check"]);
  EXPECT_EQ(again["trials"][1]["check"], a["trials"][1]["check"]);
}

// ------------------------------------------------------------------ memoised outputs

// A Coral ReLU (C1, n = 512) that recognises the inputs of seeds 1, 2, 3 by their first 8
// bytes and copies the stored answers with vector stores; on any other input it computes
// ReLU with a scalar loop (fake_fast) or writes nothing (memoised only).
std::string memoising_kernel(bool fake_fast) {
  const tasks::Instance inst = tasks::Registry::builtin().instance("relu", "coral", "C1");
  std::ostringstream known, answers;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const tasks::TensorSet in = inst.generate_inputs(seed);
    const tasks::TensorSet out = inst.reference_outputs(in);
    known << (seed > 1 ? ",\n" : "") << "{";
    for (int i = 0; i < 8; ++i) known << (i ? "," : "") << int(in[0].data[size_t(i)]);
    known << "}";
    answers << (seed > 1 ? ",\n" : "") << "{";
    for (size_t i = 0; i < out[0].data.size(); ++i) answers << (i ? "," : "") << int(out[0].data[i]);
    answers << "}";
  }
  std::string src = "#include <stddef.h>\n#include <stdint.h>\n#include <riscv_vector.h>\n"
                    "static const int8_t known[3][8] = {" + known.str() + "};\n"
                    "static const int8_t answers[3][DIM_N] = {" + answers.str() + "};\n"
                    "int main(void) {\n"
                    "  const int8_t* x = (const int8_t*)X_ADDR;\n"
                    "  int8_t* y = (int8_t*)Y_ADDR;\n"
                    "  for (int k = 0; k < 3; ++k) {\n"
                    "    int same = 1;\n"
                    "    for (int i = 0; i < 8; ++i) same &= x[i] == known[k][i];\n"
                    "    if (!same) continue;\n"
                    "    for (size_t i = 0; i < DIM_N;) {\n"
                    "      size_t vl = __riscv_vsetvl_e8m4(DIM_N - i);\n"
                    "      __riscv_vse8_v_i8m4(y + i, __riscv_vle8_v_i8m4(answers[k] + i, vl), vl);\n"
                    "      i += vl;\n"
                    "    }\n"
                    "    return 0;\n"
                    "  }\n";
  if (fake_fast)
    src += "  volatile int8_t* slow = y;\n"
           "  for (size_t i = 0; i < DIM_N; ++i) slow[i] = x[i] > 0 ? x[i] : 0;\n";
  return src + "  return 0;\n}\n";
}

TEST(MemoisedOutputs, PassOnTheKnownSeedsAndFailOnFreshOnes) {
  const std::string kernel = memoising_kernel(false);
  const json known = evaluate_on("coral", "relu", kernel, 1, 3);
  ASSERT_EQ(known["status"], "pass") << known["reason"];  // it does recognise seeds 1..3
  for (int run = 0; run < 2; ++run) {
    const json fresh = evaluate_on("coral", "relu", kernel, std::nullopt, 3);
    EXPECT_EQ(fresh["status"], "fail") << fresh["reason"];
    EXPECT_EQ(fresh["seed_source"], "os");
  }
}

TEST(FakeFast, AKnownInputFastPathCannotGetItsCyclesReported) {
  const std::string kernel = memoising_kernel(true);
  // Seeds 1..3 are all known: fast everywhere (what fixed seeds used to report).
  const json all_known = evaluate_on("coral", "relu", kernel, 1, 3);
  ASSERT_EQ(all_known["status"], "pass") << all_known["reason"];
  const uint64_t fast = all_known["cycles"];
  // Seed 3 is known, 4 and 5 are not: the reported cycles are the slowest trial's, and
  // the spread on a data-independent task is flagged.
  const json mixed = evaluate_on("coral", "relu", kernel, 3, 3);
  ASSERT_EQ(mixed["status"], "pass") << mixed["reason"];
  const json& c = mixed["cycles_over_trials"];
  EXPECT_EQ(c["rule"], "max");
  const uint64_t known_trial = c["per_trial"][0], slow = c["per_trial"][1];
  EXPECT_EQ(known_trial, fast);
  EXPECT_GT(slow, 2 * fast);
  EXPECT_EQ(mixed["cycles"].get<uint64_t>(), c["max"].get<uint64_t>());
  EXPECT_EQ(mixed["cycles"].get<uint64_t>(), std::max(slow, c["per_trial"][2].get<uint64_t>()));
  ASSERT_TRUE(c["flag"].is_string());
  EXPECT_NE(c["flag"].get<std::string>().find("cycles differ between trials (" + std::to_string(fast) + " .. "),
            std::string::npos);
  EXPECT_NE(format_report_text(mixed).find("FLAG: cycles differ between trials"), std::string::npos);
  // Fresh seeds: the fast path is never taken.
  const json fresh = evaluate_on("coral", "relu", kernel, std::nullopt, 3);
  ASSERT_EQ(fresh["status"], "pass") << fresh["reason"];
  EXPECT_GT(fresh["cycles"].get<uint64_t>(), 2 * fast);
}

// ------------------------------------------------------------------ writes outside the outputs

// The first outside write of the last trial; fails the test (and returns null) if none.
json first_outside_write(const json& rep) {
  const json& trial = rep["trials"].back();
  if (!trial.contains("outside_writes") || trial["outside_writes"].empty()) {
    ADD_FAILURE() << "no outside write reported: " << rep.value("reason", "");
    return nullptr;
  }
  return trial["outside_writes"][0];
}

TEST(OutsideWrites, CoralByteAfterTheOutputFailsWithItsAddress) {
  const auto layout = tasks::Registry::builtin().instance("relu", "coral", "C1").layout();
  const auto& y = layout->placement("y");
  const std::string kernel =
      "#include <stddef.h>\n#include <stdint.h>\n#include <riscv_vector.h>\n"
      "int main(void) {\n"
      "  const int8_t* x = (const int8_t*)X_ADDR;\n"
      "  int8_t* y = (int8_t*)Y_ADDR;\n"
      "  for (size_t i = 0; i < DIM_N; ++i) y[i] = x[i] > 0 ? x[i] : 0;\n"
      "  ((volatile int8_t*)Y_ADDR)[DIM_N] = 1;\n"
      "  return 0;\n}\n";
  const json rep = evaluate_on("coral", "relu", kernel, 1, 1);
  EXPECT_EQ(rep["status"], "fail");
  EXPECT_EQ(rep["trials"][0]["check"]["mismatches"], 0);  // the outputs themselves are right
  const json w = first_outside_write(rep);
  if (w.is_null()) return;
  const uint64_t at = y.address + y.bytes;
  EXPECT_EQ(w["memory"], "ext");
  EXPECT_EQ(w["first"].get<uint64_t>(), at);
  EXPECT_EQ(w["last"].get<uint64_t>(), at);
  EXPECT_EQ(w["changed_bytes"], 1);
  EXPECT_EQ(w["where"], "guard after output 'y'");
  EXPECT_EQ(w["before"], "a5a5a5a5 a5a5a5a5 a5a5a5a5 a5a5a5a5");
  EXPECT_EQ(w["after"], "01a5a5a5 a5a5a5a5 a5a5a5a5 a5a5a5a5");
  EXPECT_NE(rep["reason"].get<std::string>().find("ext: 1 byte changed outside the outputs in bytes [" + hex(at) + ", " +
                                                  hex(at) + "], first in guard after output 'y'"),
            std::string::npos)
      << rep["reason"];
}

TEST(OutsideWrites, CoralByteInAnInputFailsWithItsAddress) {
  const auto layout = tasks::Registry::builtin().instance("relu", "coral", "C1").layout();
  const auto& x = layout->placement("x");
  const std::string kernel =
      "#include <stddef.h>\n#include <stdint.h>\n#include <riscv_vector.h>\n"
      "int main(void) {\n"
      "  int8_t* x = (int8_t*)X_ADDR;\n"
      "  int8_t* y = (int8_t*)Y_ADDR;\n"
      "  for (size_t i = 0; i < DIM_N; ++i) y[i] = x[i] > 0 ? x[i] : 0;\n"
      "  ((volatile int8_t*)x)[5] ^= 0x40;\n"
      "  return 0;\n}\n";
  const json rep = evaluate_on("coral", "relu", kernel, 1, 1);
  EXPECT_EQ(rep["status"], "fail");
  const json w = first_outside_write(rep);
  if (w.is_null()) return;
  EXPECT_EQ(w["first"].get<uint64_t>(), x.address + 5);
  EXPECT_EQ(w["changed_bytes"], 1);
  EXPECT_EQ(w["where"], "input 'x'");
}

TEST(OutsideWrites, PlenaRowAfterTheOutputFailsWithItsAddress) {
  // PLENA writes HBM a vector row at a time: the baseline, then its last block stored
  // once more right after y.
  const tasks::Instance inst = tasks::Registry::builtin().instance("relu", "plena", "C1");
  const auto layout = inst.layout();
  const auto& y = layout->placement("y");
  auto p = make_platform("plena");
  const std::string kernel = tasks::baseline_kernel(inst, p->config()) +
                             "S_ADDI_INT gp3, gp0, 256\n"
                             "H_STORE_V gp5, gp3, a1, 0, 2\n";
  const json rep = evaluate_on("plena", "relu", kernel, 1, 1);
  EXPECT_EQ(rep["status"], "fail");
  EXPECT_EQ(rep["trials"][0]["check"]["mismatches"], 0);
  const json w = first_outside_write(rep);
  if (w.is_null()) return;
  EXPECT_EQ(w["memory"], "hbm");
  EXPECT_EQ(w["first"].get<uint64_t>(), y.address + y.bytes);
  EXPECT_EQ(w["where"], "guard after output 'y'");
  EXPECT_NE(rep["reason"].get<std::string>().find("[" + hex(y.address + y.bytes) + ", "), std::string::npos)
      << rep["reason"];
}

TEST(OutsideWrites, AieMlTransferOverAnInputFailsWithItsAddress) {
  // The default data movement, with the outputs' DDR buffer moved 64 bytes down, over the
  // end of input x.
  const tasks::Instance inst = tasks::Registry::builtin().instance("relu", "aie_ml", "C1");
  const tasks::AieMlLayout layout(inst.task(), inst.params());
  const auto& x = layout.placement("x");
  const auto& y = layout.placement("y");
  ASSERT_EQ(x.address + x.bytes, y.address);
  std::string movement = layout.default_movement();
  const std::string from = "name: ddr_out, tile: shim0, address: " + std::to_string(y.address);
  ASSERT_NE(movement.find(from), std::string::npos);
  movement.replace(movement.find(from), from.size(), "name: ddr_out, tile: shim0, address: " + std::to_string(y.address - 64));
  auto p = make_platform("aie_ml");
  const std::string kernel = tasks::baseline_kernel(inst, p->config()) + "\n.movement\n" + movement;
  const json rep = evaluate_on("aie_ml", "relu", kernel, 1, 1);
  EXPECT_EQ(rep["status"], "fail");
  const json w = first_outside_write(rep);
  if (w.is_null()) return;
  EXPECT_EQ(w["memory"], "ddr");
  EXPECT_GE(w["first"].get<uint64_t>(), y.address - 64);
  EXPECT_LT(w["first"].get<uint64_t>(), y.address);
  EXPECT_EQ(w["where"], "input 'x'");
}

TEST(OutsideWrites, AieMlTransferPastTheLastOutputHitsItsGuard) {
  // The outputs' DDR buffer moved 64 bytes up: the last 64 bytes land after output y, in
  // the guard before the DDR workspace (which starts 64 bytes after the outputs).
  const tasks::Instance inst = tasks::Registry::builtin().instance("relu", "aie_ml", "C1");
  const tasks::AieMlLayout layout(inst.task(), inst.params());
  const auto& y = layout.placement("y");
  ASSERT_EQ(layout.workspace_begin(), layout.outputs_end() + 64);
  std::string movement = layout.default_movement();
  const std::string from = "name: ddr_out, tile: shim0, address: " + std::to_string(y.address);
  ASSERT_NE(movement.find(from), std::string::npos);
  movement.replace(movement.find(from), from.size(), "name: ddr_out, tile: shim0, address: " + std::to_string(y.address + 64));
  auto p = make_platform("aie_ml");
  const std::string kernel = tasks::baseline_kernel(inst, p->config()) + "\n.movement\n" + movement;
  const json rep = evaluate_on("aie_ml", "relu", kernel, 1, 1);
  EXPECT_EQ(rep["status"], "fail");
  const json w = first_outside_write(rep);
  ASSERT_FALSE(w.is_null()) << rep.dump().substr(0, 1500);
  EXPECT_EQ(w["memory"], "ddr");
  EXPECT_EQ(w["first"].get<uint64_t>(), layout.outputs_end());
  EXPECT_EQ(w["where"], "guard after output 'y'");
}

}  // namespace
}  // namespace tlmcraft
