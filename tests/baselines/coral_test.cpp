// The Coral compiler baselines (C with RVV intrinsics, clang-16 -O2) and the CPU-program
// baselines (scalar C): every task and configuration passes through evaluate() on the
// coral platform with 3 trials; CPU programs compile to scalar code only; the generator
// emits the layout's #defines and inlines its fragments; the CPU references match
// hand-derived cases.
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "platforms/coral/pack/baselines/c_baseline.h"
#include "tasks/cpu/cpu_programs.h"
#include "tasks/registry.h"

namespace tlmcraft {
namespace {

const std::vector<std::string> kConfigs{"C1", "C2", "C3", "C4", "C5"};

std::vector<std::string> coral_tasks() {
  std::vector<std::string> out;
  for (const auto& t : tasks::Registry::builtin().tasks())
    if (t.supports(tasks::PlatformId("coral"))) out.push_back(t.name);
  return out;
}

std::vector<std::string> cpu_tasks() {
  std::vector<std::string> out;
  for (const auto& t : tasks::Registry::builtin().cpu_tasks())
    if (t.supports(tasks::PlatformId("coral"))) out.push_back(t.name);
  return out;
}

std::unique_ptr<Platform> coral() {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  // 120 cold builds on a loaded host: no tool may meet its 30 s wall-clock limit (its CPU
  // time limit still applies, and does not depend on the host's load).
  setenv("TLMCRAFT_TOOL_TIMEOUT_SECONDS", "600", 1);
  return make_platform("coral");
}

nlohmann::json run_baseline(Platform& platform, const std::string& task, const std::string& config) {
  EvalOptions o;
  o.limits.wall_seconds = 0;  // no host-time limit: the instruction and cycle limits bound the run
  o.platform = "coral";
  o.task = task;
  o.config = config;
  o.use_baseline = true;
  o.trials = 3;
  o.seed = 1;  // a fixed input set: the test must not depend on the OS seed
  o.compare_baseline = false;
  return evaluate(platform, o);
}

std::string describe(const nlohmann::json& r) {
  std::string s = r.value("status", std::string("?")) + ": " + r.value("reason", std::string());
  if (r.contains("assemble") && !r["assemble"]["diagnostics"].empty()) s += "\n" + r["assemble"]["diagnostics"].dump(1);
  return s;
}

TEST(CoralBaselines, EveryTaskAndConfigurationPassesThreeTrials) {
  const auto platform = coral();
  // The 23 Coral ML tasks of the benchmark and the 9 CPU programs (pmp is unsupported).
  const auto ml = coral_tasks(), cpu = cpu_tasks();
  ASSERT_EQ(ml.size(), 23u);
  ASSERT_EQ(cpu.size(), 9u);
  std::vector<std::string> all(ml);
  all.insert(all.end(), cpu.begin(), cpu.end());
  for (const auto& task : all)
    for (const auto& config : kConfigs) {
      const auto r = run_baseline(*platform, task, config);
      EXPECT_EQ(r.at("status"), "pass") << task << " " << config << ": " << describe(r);
      EXPECT_EQ(r.at("trials").size(), 3u) << task << " " << config;
      EXPECT_GT(r.value("cycles", uint64_t(0)), 0u) << task << " " << config;
    }
}

// A vector instruction: OP-V (0x57), or LOAD-FP/STORE-FP (0x07/0x27) with a vector width
// (bits 14:12 = 0, 5, 6 or 7; 2 is flw/fsw).
bool is_vector(uint32_t w) {
  const uint32_t op = w & 0x7F, width = (w >> 12) & 7;
  if (op == 0x57) return true;
  return (op == 0x07 || op == 0x27) && width != 2;
}

TEST(CoralBaselines, CpuProgramsAreScalarAndMlKernelsUseTheVectorUnit) {
  const auto platform = coral();
  auto vector_words = [&](const std::string& task, const std::string& config) {
    const auto inst = tasks::Registry::builtin().instance(task, "coral", config);
    isa::Program prog;
    std::vector<isa::Diagnostic> diags;
    EXPECT_TRUE(platform->assemble(tasks::baseline_kernel(inst, platform->config()), tasks::baseline_file_name(inst),
                                   prog, diags))
        << task;
    EXPECT_FALSE(prog.code.empty()) << task;
    int n = 0;
    for (const auto& ins : prog.code) n += is_vector(ins.opcode) ? 1 : 0;
    return n;
  };
  for (const auto& task : cpu_tasks())
    for (const char* config : {"C1", "C5"}) EXPECT_EQ(vector_words(task, config), 0) << task << " " << config;
  for (const auto& task : coral_tasks()) EXPECT_GT(vector_words(task, "C1"), 0) << task;
}

TEST(CoralBaselines, GeneratorEmitsDefinesAndInlinesFragments) {
  const auto inst = tasks::Registry::builtin().instance("linear", "coral", "C1");
  ASSERT_TRUE(tasks::has_baseline(inst));
  EXPECT_EQ(tasks::baseline_file_name(inst), "baseline_linear_C1.c");
  const std::string c = tasks::baseline_kernel(inst, nlohmann::json::object());
  // x [32, 32] at 0, W [32, 32] at 1024, bias int32 [32] at 2048, y at 2176 = 0x880.
  for (const char* s : {"#define DIM_M 32\n", "#define X_ADDR 0x20000000u", "#define W_ADDR 0x20000400u",
                        "#define BIAS_ADDR 0x20000800u", "#define Y_ADDR 0x20000880u", "#define SHIFT 10 ",
                        "static void matmul_requant(", "static inline void set_rounding_rnu(void)",
                        "csrwi vxrm, 0", "int main(void)"})
    EXPECT_NE(c.find(s), std::string::npos) << s;
  // Fragments are inlined once; no quoted include is left for the platform's compiler.
  EXPECT_EQ(c.find("#include \""), std::string::npos);
  EXPECT_EQ(c.find("static inline int32_t floor_div"), c.rfind("static inline int32_t floor_div"));

  const auto rope = tasks::Registry::builtin().instance("rope", "plena", "C1");
  EXPECT_FALSE(tasks::coral::has_c_baseline("no_such_task"));
  EXPECT_FALSE(tasks::coral::has_c_baseline("../gemm"));
  EXPECT_THROW(tasks::coral::c_baseline(rope), tasks::TaskError);
  EXPECT_THROW(tasks::coral::expand_template("no_such_template.c"), std::runtime_error);
  EXPECT_EQ(tasks::coral::template_file("qsort"), "cpu/qsort.c");
}

TEST(CpuPrograms, ReferencesOnHandCases) {
  const auto& reg = tasks::Registry::builtin();
  ASSERT_EQ(reg.cpu_tasks().size(), 10u);
  EXPECT_EQ(reg.cpu_tasks()[0].name, "multiply");
  EXPECT_EQ(reg.cpu_tasks()[0].level, 0);
  EXPECT_THROW(reg.instance("pmp", "coral", "C1"), tasks::TaskError);

  // towers, 2 discs labelled 7 and 9: moves 0->1 (k=1: 1*1), 0->2 (k=2: 2*2), 1->2 (k=3: 3*5):
  // checksum 1 + 4 + 15 = 20; the labels end on peg 2 in their order; 3 moves.
  const tasks::TaskSpec& towers = reg.task("towers");
  tasks::Tensor x("x", {2});
  x.data = {7, 9};
  const auto y = tasks::cpu::reference(towers, {{"discs", 2}}, {x});
  EXPECT_EQ(y.at(0).data, (std::vector<double>{7, 9, 3, 20}));

  // median of [5, 1, 4, 2, 8]: ends copied; med(5,1,4) = 4, med(1,4,2) = 2, med(4,2,8) = 4.
  tasks::Tensor m("x", {5});
  m.data = {5, 1, 4, 2, 8};
  EXPECT_EQ(tasks::cpu::reference(reg.task("median"), {{"n", 5}}, {m}).at(0).data,
            (std::vector<double>{5, 4, 2, 4, 8}));

  // multiply wraps modulo 2^32: 65536 * 65537 = 2^32 + 65536 -> 65536; -3 * 5 = -15.
  tasks::Tensor a("a", {2}), b("b", {2});
  a.data = {65536, -3};
  b.data = {65537, 5};
  EXPECT_EQ(tasks::cpu::reference(reg.task("multiply"), {{"n", 2}}, {a, b}).at(0).data,
            (std::vector<double>{65536, -15}));
  // dotprod: 65536 * 65537 + (-3) * 5 = 65536 - 15 (mod 2^32) = 65521.
  EXPECT_EQ(tasks::cpu::reference(reg.task("dotprod"), {{"n", 2}}, {a, b}).at(0).data, (std::vector<double>{65521}));

  // The Dhrystone-like workload depends on its seeds and on the run count.
  const std::vector<int32_t> s{1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_NE(tasks::cpu::dhrystone_like(s, 10), tasks::cpu::dhrystone_like(s, 11));
  EXPECT_NE(tasks::cpu::dhrystone_like(s, 10), tasks::cpu::dhrystone_like({2, 2, 3, 4, 5, 6, 7, 8}, 10));
  EXPECT_THROW(tasks::cpu::dhrystone_like({1, 2}, 10), std::invalid_argument);
}

}  // namespace
}  // namespace tlmcraft
