// Coral's RoPE and decoder tasks (issue 23): each baseline's outputs equal the exact
// integer reference bit for bit at C1..C5, and a baseline made wrong (a byte written past
// its output, a kernel built for a shape with fewer or more rows) fails the way every
// Coral task does: unwritten outputs, or writes outside the outputs with their address.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "harness/evaluate.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace tlmcraft {
namespace {

using nlohmann::json;

const std::vector<std::string> kTasks{"rope", "llama_decoder", "t5_decoder"};

std::unique_ptr<Platform> coral() {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  setenv("TLMCRAFT_TOOL_TIMEOUT_SECONDS", "600", 1);  // cold compiles on a loaded host
  return make_platform("coral");
}

EvalOptions options(const std::string& task, const std::string& config, int trials) {
  EvalOptions o;
  o.limits.wall_seconds = 0;  // the instruction and cycle limits bound the run
  o.platform = "coral";
  o.task = task;
  o.config = config;
  o.trials = trials;
  o.seed = 11;  // fixed inputs: the test must not depend on the OS seed
  o.compare_baseline = false;
  return o;
}

// The task's baseline at C1 with `edit` applied to its source, evaluated once.
json run_edited(Platform& platform, const std::string& task, const std::function<void(std::string&)>& edit,
               int trials = 1) {
  std::string src = tasks::baseline_kernel(tasks::Registry::builtin().instance(task, "coral", "C1"), json::object());
  edit(src);
  const std::string path = ::testing::TempDir() + "coral_rope_decoder_" + std::to_string(getpid()) + "_" + task + ".c";
  std::ofstream(path) << src;
  EvalOptions o = options(task, "C1", trials);
  o.kernel_path = path;
  return evaluate(platform, o);
}

void replace_once(std::string& s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  s.replace(at, from.size(), to);
}

std::string define_of(const std::string& src, const std::string& name) {
  const std::string key = "#define " + name + " ";
  const size_t at = src.find(key);
  return at == std::string::npos ? "" : src.substr(at, src.find('\n', at) - at);
}

TEST(CoralRopeDecoders, BaselinesEqualTheReferenceBitForBit) {
  const auto platform = coral();
  for (const auto& task : kTasks)
    for (const char* config : {"C1", "C2", "C3", "C4", "C5"}) {
      EvalOptions o = options(task, config, 3);
      o.use_baseline = true;
      const json r = evaluate(*platform, o);
      EXPECT_EQ(r.at("status"), "pass") << task << " " << config << ": " << r.value("reason", "");
      ASSERT_EQ(r.at("trials").size(), 3u);
      for (const auto& t : r.at("trials")) {
        EXPECT_EQ(t.at("check").at("mismatches"), 0) << task << " " << config;
        EXPECT_EQ(t.at("check").at("max_abs_err"), 0.0) << task << " " << config;
        EXPECT_EQ(t.at("check").at("unwritten"), 0) << task << " " << config;
      }
    }
}

TEST(CoralRopeDecoders, AByteWrittenPastTheOutputFailsWithItsPlace) {
  const auto platform = coral();
  for (const auto& task : kTasks) {
    const json r = run_edited(*platform, task, [](std::string& s) {
      replace_once(s, "int main(void) {",
                   "static int task_main(void);\nint main(void) {\n  task_main();\n"
                   "  ((volatile int8_t*)Y_ADDR)[Y_ELEMS] = 1;\n  return 0;\n}\nstatic int task_main(void) {");
    });
    EXPECT_EQ(r.at("status"), "fail") << task;
    EXPECT_EQ(r.at("trials").at(0).at("check").at("mismatches"), 0) << task;  // y itself is right
    EXPECT_NE(r.value("reason", "").find("1 byte changed outside the outputs"), std::string::npos)
        << r.value("reason", "");
    EXPECT_NE(r.value("reason", "").find("first in guard after output 'y'"), std::string::npos)
        << r.value("reason", "");
  }
}

TEST(CoralRopeDecoders, AKernelForAnotherShapeFails) {
  const auto platform = coral();
  for (const auto& task : kTasks) {
    const auto inst = tasks::Registry::builtin().instance(task, "coral", "C1");
    const int64_t s = inst.params().at("s");
    // Half the rows: the last s/2 rows of y are never written.
    const json fewer = run_edited(*platform, task, [&](std::string& src) {
      replace_once(src, define_of(src, "DIM_S"), "#define DIM_S " + std::to_string(s / 2));
    });
    EXPECT_EQ(fewer.at("status"), "fail") << task;
    EXPECT_GT(fewer.at("trials").at(0).at("check").at("unwritten").get<int64_t>(), 0) << task;
    // Twice the rows: y's rows past its end land outside the outputs.
    const json more = run_edited(*platform, task, [&](std::string& src) {
      replace_once(src, define_of(src, "DIM_S"), "#define DIM_S " + std::to_string(2 * s));
    });
    EXPECT_EQ(more.at("status"), "fail") << task;
    EXPECT_NE(more.value("reason", "").find("changed outside the outputs"), std::string::npos)
        << task << ": " << more.value("reason", "");
  }
}

// Arithmetic that wraps where the formulation saturates fails: a narrowing without
// saturation in RoPE (some x cos - x' sin exceed 127 * 128 on ordinary inputs), a wrapping
// residual addition in the decoders (their residual stream reaches past 127 now and then;
// the large_residual range of trials 2 and 3 makes it the rule).
TEST(CoralRopeDecoders, WrappingArithmeticFails) {
  const auto platform = coral();
  const json rope = run_edited(*platform, "rope", [](std::string& s) {
    replace_once(s, "return __riscv_vnclip_wx_i8m1(h, 0, vl);", "return __riscv_vncvt_x_x_w_i8m1(h, vl);");
  });
  EXPECT_EQ(rope.at("status"), "fail");
  EXPECT_GT(rope.at("trials").at(0).at("check").at("mismatches").get<int64_t>(), 0);
  for (const char* task : {"llama_decoder", "t5_decoder"}) {
    const json r = run_edited(*platform, task, [](std::string& s) {
      replace_once(s, "__riscv_vsadd_vv_i8m4(", "__riscv_vadd_vv_i8m4(");
    });
    EXPECT_EQ(r.at("status"), "fail") << task;
    EXPECT_GT(r.at("trials").at(0).at("check").at("mismatches").get<int64_t>(), 0) << task;
  }
}

}  // namespace
}  // namespace tlmcraft
