// The Coral attention baselines (scaled_dot_product, mha, gqa, mqa, flash_attention; C with
// RVV intrinsics, platforms/coral/pack/baselines/templates/attention.c, flash_attention.c):
// their outputs equal the integer references bit for bit, and kernels derived from them
// that write outside the outputs, or compute for the wrong shape, fail as every task does.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "harness/evaluate.h"
#include "platforms/coral/pack/baselines/c_baseline.h"
#include "platforms/registry.h"
#include "tasks/registry.h"

namespace tlmcraft {
namespace {

using nlohmann::json;

const char* const kTasks[] = {"scaled_dot_product", "mha", "gqa", "mqa", "flash_attention"};

std::string write_c(const std::string& source) {
  static int n = 0;
  const std::string path =
      ::testing::TempDir() + "coral_attention_" + std::to_string(getpid()) + "_" + std::to_string(n++) + ".c";
  std::ofstream(path) << source;
  return path;
}

// Evaluates the baseline (kernel empty) or a C kernel (which gets the layout's #defines).
json evaluate_on(const std::string& task, const std::string& config, const std::string& kernel, int trials) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  const auto platform = make_platform("coral");
  EvalOptions o;
  o.limits.wall_seconds = 0;  // no host-time limit: the instruction and cycle limits bound the run
  o.platform = "coral";
  o.task = task;
  o.config = config;
  o.use_baseline = kernel.empty();
  if (!kernel.empty()) o.kernel_path = write_c(kernel);
  o.trials = trials;
  o.seed = 1;
  o.compare_baseline = false;
  return evaluate(*platform, o);
}

// The task's template with `from` replaced by `to` (exactly once).
std::string edited_template(const std::string& task, const std::string& from, const std::string& to) {
  std::string s = tasks::coral::expand_template(tasks::coral::template_file(task));
  const size_t at = s.rfind(from);
  EXPECT_NE(at, std::string::npos) << task << ": no '" << from << "'";
  return at == std::string::npos ? s : s.replace(at, from.size(), to);
}

TEST(CoralAttentionBaselines, OutputsEqualTheReferenceBitForBit) {
  // C3 has two key blocks at s = 32, so FlashAttention's rescale runs.
  for (const char* task : kTasks)
    for (const char* config : {"C1", "C3"}) {
      const json r = evaluate_on(task, config, "", 3);
      EXPECT_EQ(r.at("status"), "pass") << task << " " << config << ": " << r.value("reason", "");
      for (const json& t : r.at("trials")) {
        EXPECT_EQ(t.at("check").at("mismatches"), 0) << task << " " << config;
        EXPECT_EQ(t.at("check").at("max_abs_err"), 0.0) << task << " " << config;
      }
    }
}

TEST(CoralAttentionBaselines, AWholeRowSoftmaxFailsFlashAttentionsBlockSchedule) {
  // scaled_dot_product's kernel compiles for flash_attention (same tensors and constants)
  // and is a correct whole-row attention, but not the online softmax's integer result.
  const std::string whole_rows = tasks::coral::expand_template("scaled_dot_product.c");
  const json r = evaluate_on("flash_attention", "C3", whole_rows, 1);
  EXPECT_EQ(r.at("status"), "fail");
  EXPECT_GT(r.at("trials").at(0).at("check").at("mismatches").get<int>(), 0);
}

TEST(CoralAttentionBaselines, AByteAfterTheOutputFailsWithItsAddress) {
  for (const char* task : kTasks) {
    const auto layout = tasks::Registry::builtin().instance(task, "coral", "C1").layout();
    const auto& o = layout->placement("O");
    const json r = evaluate_on(
        task, "C1", edited_template(task, "return 0;", "((volatile int8_t*)O_ADDR)[O_ELEMS] = 1;\n  return 0;"), 1);
    EXPECT_EQ(r.at("status"), "fail") << task;
    EXPECT_EQ(r["trials"][0]["check"]["mismatches"], 0) << task;  // the outputs themselves are right
    const std::string at = "0x" + [](uint64_t v) {
      char b[32];
      std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
      return std::string(b);
    }(o.address + o.bytes);
    EXPECT_NE(r.value("reason", "")
                  .find("ext: 1 byte changed outside the outputs in bytes [" + at + ", " + at +
                        "], first in guard after output 'O'"),
              std::string::npos)
        << task << ": " << r.value("reason", "");
  }
}

TEST(CoralAttentionBaselines, AKernelForHalfTheTokensLeavesRowsUnwritten) {
  // KEYS = s / 2: the kernel attends over the first s/2 keys and writes the first s/2 rows;
  // the rest of O keeps the poison and is reported never written.
  for (const char* task : kTasks) {
    const json r = evaluate_on(task, "C2", edited_template(task, "#define KEYS DIM_S", "#define KEYS (DIM_S / 2)"), 1);
    EXPECT_EQ(r.at("status"), "fail") << task;
    const json& check = r["trials"][0]["check"];
    const int elements = check.at("elements").get<int>();
    // At most the few second-half elements whose expected value is the poison (-91) count as written.
    EXPECT_GE(check.at("unwritten").get<int>(), elements / 2 - 8) << task;
    EXPECT_NE(r.value("reason", "").find("output never written: "), std::string::npos)
        << task << ": " << r.value("reason", "");
  }
}

}  // namespace
}  // namespace tlmcraft
