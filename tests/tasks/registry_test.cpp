// The built-in task suite: the 23 tasks, supported cells and the configurations
// KERNELCRAFT.md lists, plus the registry API the harness and CLI use.
#include <gtest/gtest.h>

#include <map>

#include <regex>

#include "platforms/plena/pack/layout_plena.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks {
namespace {

using Tuple = std::vector<int64_t>;

std::vector<Tuple> configs(const std::string& task, PlatformId p) {
  const TaskSpec& t = Registry::builtin().task(task);
  std::vector<Tuple> out;
  for (const auto& c : t.platform(p).configs) {
    Tuple v;
    for (const auto& name : t.params) v.push_back(c.params.at(name));
    out.push_back(v);
  }
  return out;
}

TEST(Suite, TwentyThreeTasksInPaperOrderAndTheSupportedCells) {
  const Registry& reg = Registry::builtin();
  std::vector<std::string> names;
  int levels[4] = {0, 0, 0, 0};
  std::map<std::string, int> cells;
  for (const auto& t : reg.tasks()) {
    names.push_back(t.name);
    ++levels[t.level];
    for (PlatformId p : all_platforms()) cells[p.name()] += t.supports(p) ? int(t.platform(p).configs.size()) : 0;
  }
  EXPECT_EQ(names, benchmark_task_order());
  EXPECT_EQ(levels[1], 12);
  EXPECT_EQ(levels[2], 8);
  EXPECT_EQ(levels[3], 3);
  // The paper's denominators: PLENA 55/100, AMD NPU 19/110, Coral 35/75; PLENA adds the
  // three convolution tasks, AIE-ML FlashAttention and Coral the five attention tasks, each
  // five (chosen) configurations (issue 23).
  EXPECT_EQ(cells["plena"], 115);
  EXPECT_EQ(cells["aie_ml"], 115);
  EXPECT_EQ(cells["coral"], 115);  // every task (issue 23: attention, rope, decoders)
  for (const char* t : {"conv2d", "depthwise_conv", "conv_block"}) EXPECT_TRUE(reg.task(t).supports(PlatformId("plena")));
  EXPECT_TRUE(reg.task("flash_attention").supports(PlatformId("aie_ml")));
  // FlashAttention on AIE-ML takes scaled_dot_product's shapes, so the two compare.
  EXPECT_EQ(configs("flash_attention", PlatformId("aie_ml")), configs("scaled_dot_product", PlatformId("aie_ml")));
  EXPECT_EQ(configs("flash_attention", PlatformId("coral")), configs("scaled_dot_product", PlatformId("coral")));
  for (const auto& t : reg.tasks()) EXPECT_TRUE(t.supports(PlatformId("coral"))) << t.name;
  ASSERT_EQ(reg.cpu_programs().size(), 10u);
  EXPECT_EQ(reg.cpu_programs()[0].name, "multiply");
  EXPECT_EQ(reg.cpu_programs()[9].name, "pmp");
}

TEST(Suite, PlenaConfigurationsAsThePaperLists) {
  const std::vector<Tuple> ew{{256}, {1024}, {2048}, {8192}, {16384}};
  for (const char* t : {"silu", "relu", "gelu", "softmax", "layernorm", "rmsnorm"}) {
    EXPECT_EQ(configs(t, PlatformId("plena")), ew) << t;
    EXPECT_EQ(configs(t, PlatformId("aie_ml")), ew) << t;  // "same elementwise sizes"
  }
  const std::vector<Tuple> gemm{{4, 64, 64}, {8, 128, 128}, {16, 128, 256}, {32, 256, 256}, {64, 256, 512}};
  EXPECT_EQ(configs("gemm", PlatformId("plena")), gemm);
  EXPECT_EQ(configs("linear", PlatformId("plena")), gemm);
  const std::vector<Tuple> att{{32, 64}, {64, 128}, {64, 256}, {128, 128}, {128, 256}};
  EXPECT_EQ(configs("scaled_dot_product", PlatformId("plena")), att);
  EXPECT_EQ(configs("flash_attention", PlatformId("plena")), att);
  // Endpoints where the paper gives a range.
  auto ends = [](const std::vector<Tuple>& v) { return std::make_pair(v.front(), v.back()); };
  EXPECT_EQ(ends(configs("gemv", PlatformId("plena"))), std::make_pair(Tuple{64, 512}, Tuple{512, 1024}));
  EXPECT_EQ(ends(configs("ffn", PlatformId("plena"))), std::make_pair(Tuple{4, 64, 128}, Tuple{64, 256, 1024}));
  EXPECT_EQ(ends(configs("swiglu", PlatformId("plena"))), std::make_pair(Tuple{4, 64, 128}, Tuple{64, 256, 1024}));
  EXPECT_EQ(ends(configs("mha", PlatformId("plena"))), std::make_pair(Tuple{32, 64, 1}, Tuple{128, 512, 8}));
  EXPECT_EQ(ends(configs("gqa", PlatformId("plena"))), std::make_pair(Tuple{32, 128, 2, 1}, Tuple{128, 512, 8, 2}));
  for (const char* t : {"llama_decoder", "t5_decoder"})
    EXPECT_EQ(ends(configs(t, PlatformId("plena"))), std::make_pair(Tuple{32, 64, 1, 128}, Tuple{128, 512, 8, 1024}));
}

TEST(Suite, AieAndCoralConfigurationsAsThePaperLists) {
  auto ends = [](const std::vector<Tuple>& v) { return std::make_pair(v.front(), v.back()); };
  EXPECT_EQ(ends(configs("gemm", PlatformId("aie_ml"))), std::make_pair(Tuple{8, 64, 64}, Tuple{128, 512, 1024}));
  EXPECT_EQ(ends(configs("scaled_dot_product", PlatformId("aie_ml"))), std::make_pair(Tuple{8, 16}, Tuple{128, 64}));
  EXPECT_EQ(ends(configs("relu", PlatformId("coral"))), std::make_pair(Tuple{512}, Tuple{14336}));
  EXPECT_EQ(ends(configs("gemm", PlatformId("coral"))), std::make_pair(Tuple{32, 32, 32}, Tuple{32, 64, 128}));
  EXPECT_EQ(ends(configs("conv2d", PlatformId("coral"))), std::make_pair(Tuple{8, 4, 8, 1}, Tuple{8, 32, 8, 3}));
  EXPECT_EQ(ends(configs("depthwise_conv", PlatformId("coral"))), std::make_pair(Tuple{8, 16, 3}, Tuple{16, 32, 5}));
}

TEST(Suite, ConfigurationsGrowMonotonicallyAndProvenanceIsMarked) {
  // The paper's own lists need not be monotone (attention goes (64, 256) -> (128, 128));
  // values we placed between endpoints, and lists we chose, grow in every parameter.
  // RoPE reuses the attention lists on purpose.
  const Registry& reg = Registry::builtin();
  for (const auto& t : reg.tasks())
    for (PlatformId p : all_platforms()) {
      if (!t.supports(p)) continue;
      const auto& cs = t.platform(p).configs;
      bool all_chosen = t.name != "rope";
      for (const auto& c : cs) all_chosen = all_chosen && c.provenance == Provenance::Chosen;
      for (size_t i = 1; i < cs.size(); ++i)
        for (const auto& name : t.params) {
          const bool between = cs[i].provenance == Provenance::Interpolated || cs[i - 1].provenance == Provenance::Interpolated;
          if (all_chosen || between) {
            EXPECT_GE(cs[i].params.at(name), cs[i - 1].params.at(name)) << t.name << " " << platform_name(p) << " " << name;
          }
        }
    }
  // Paper values are unmarked, values between endpoints interpolated, the rest chosen.
  const auto& gemv = reg.task("gemv").platform(PlatformId("plena")).configs;
  EXPECT_EQ(gemv[0].provenance, Provenance::Paper);
  EXPECT_EQ(gemv[2].provenance, Provenance::Interpolated);
  EXPECT_EQ(gemv[4].provenance, Provenance::Paper);
  for (const auto& c : reg.task("gemm").platform(PlatformId("plena")).configs) EXPECT_EQ(c.provenance, Provenance::Paper);
  for (const auto& c : reg.task("batchmatmul").platform(PlatformId("plena")).configs)
    EXPECT_EQ(c.provenance, Provenance::Chosen);
}

TEST(Suite, PlenaShapesFitTheVectorRows) {
  // Every PLENA activation and output of every configuration is a whole number of 64-wide
  // rows, so the layout's row view and H_PREFETCH_V/H_STORE_V (4 rows) apply without
  // remainders. Weights may end inside a row (a depthwise filter of k*k*c values, a
  // per-channel vector of c_out): a kernel reading their last row whole reads into the
  // tensor's 4096-byte alignment padding and must ignore those lanes.
  for (const auto& t : Registry::builtin().tasks()) {
    if (!t.supports(PlatformId("plena"))) continue;
    for (const auto& c : t.platform(PlatformId("plena")).configs)
      for (const TensorSpec* ts : t.tensors_on(PlatformId("plena"))) {
        if (ts->role == Role::Weight) continue;
        const auto shape = t.shape_of(*ts, c.params);
        EXPECT_EQ(element_count(shape) % 64, 0) << t.name << " " << c.name << " " << ts->name;
      }
  }
}

TEST(Suite, CoralConfigurationsFitTheDtcm) {
  // "All configurations fit the 32 KB DTCM": every tensor (int8, or int32 where marked).
  for (const auto& t : Registry::builtin().tasks()) {
    if (!t.supports(PlatformId("coral"))) continue;
    for (const auto& c : t.platform(PlatformId("coral")).configs) {
      int64_t bytes = 0;
      for (const TensorSpec* ts : t.tensors_on(PlatformId("coral"))) {
        const auto it = ts->dtype_for.find(PlatformId("coral"));
        bytes += element_count(t.shape_of(*ts, c.params)) * (it != ts->dtype_for.end() && it->second == "int32" ? 4 : 1);
      }
      EXPECT_LE(bytes, 32 * 1024) << t.name << " " << c.name;
    }
  }
}

TEST(Suite, PlenaNotesListTheLayoutsFpMemConstants) {
  // Each PLENA task's notes end with "FP_MEM: 0: ..., 1: ..., k: ..."; the indices must
  // be exactly those the layout preloads.
  const std::regex entry(R"((\d+): )");
  for (const auto& t : Registry::builtin().tasks()) {
    if (!t.supports(PlatformId("plena"))) continue;
    const std::string& notes = t.platform(PlatformId("plena")).notes;
    const size_t at = notes.find("FP_MEM:");
    ASSERT_NE(at, std::string::npos) << t.name;
    const std::string line = notes.substr(at, notes.find('\n', at) - at);
    std::vector<int64_t> indices;
    for (std::sregex_iterator it(line.begin(), line.end(), entry), end; it != end; ++it)
      indices.push_back(std::stoll((*it)[1]));
    const auto consts = plena_constants(t, t.platform(PlatformId("plena")).configs[0].params);
    ASSERT_EQ(indices.size(), consts.size()) << t.name << ": " << line;
    for (size_t i = 0; i < consts.size(); ++i) EXPECT_EQ(indices[i], consts[i].index) << t.name;
  }
}

TEST(Registry, InstanceErrorsSayWhatExists) {
  const Registry& reg = Registry::builtin();
  try {
    reg.instance("sılu", "plena", "C1");
    FAIL();
  } catch (const TaskError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown task 'sılu' (tasks: silu, relu, gelu"), std::string::npos) << e.what();
  }
  try {
    reg.instance("multiply", "plena", "C1");
    FAIL();
  } catch (const TaskError& e) {
    EXPECT_EQ(std::string(e.what()),
              "task multiply is not supported on plena: a scalar CPU program; PLENA has no general-purpose core");
  }
  EXPECT_THROW(reg.instance("silu", "plena", "C6"), TaskError);
  try {
    reg.instance("silu", "npu", "C1");
    FAIL();
  } catch (const TaskError& e) {
    EXPECT_EQ(std::string(e.what()), "unknown platform 'npu' (registered: plena, aie_ml, coral)");
  }
  EXPECT_THROW(Registry::load("/nonexistent/specs"), SpecError);
}

TEST(Registry, DescribeGivesTheAgentEverything) {
  const Registry& reg = Registry::builtin();
  const std::string d = reg.instance("gelu", "plena", "C1").describe();
  for (const char* s : {"Task gelu (level 1)", "configuration C1: n = 256", "0.044715 * x^3", "x: input, shape [256] (n), mxfp8",
                        "y: output, shape [256] (n), bf16", "Reference stages", "|got - want| <= 0.012",
                        "PLENA memory layout for task gelu", "SCALE"})
    EXPECT_NE(d.find(s), std::string::npos) << s << "\n" << d;
  const std::string c = reg.instance("gemm", "coral", "C1").describe();
  EXPECT_NE(c.find("shift = 10"), std::string::npos) << c;  // round(log2(73.9^2 sqrt(32) / 32)) = round(9.9)
  EXPECT_NE(c.find("exact: got == want"), std::string::npos);
  EXPECT_NE(c.find("Coral memory layout for task gemm"), std::string::npos) << c;
  EXPECT_EQ(reg.instance("gqa", "plena", "C5").shape_json(),
            (nlohmann::json{{"s", 128}, {"h", 512}, {"heads", 8}, {"kv_heads", 2}}));
}

TEST(Registry, ListJsonAndText) {
  const Registry& reg = Registry::builtin();
  const nlohmann::json j = reg.list_json();
  ASSERT_EQ(j["tasks"].size(), 23u);
  EXPECT_EQ(j["cpu"].size(), 10u);
  const auto& silu = j["tasks"][0];
  EXPECT_EQ(silu["name"], "silu");
  EXPECT_EQ(silu["platforms"]["plena"]["configs"]["C5"]["n"], 16384);
  EXPECT_EQ(silu["platforms"]["coral"]["configs"]["C1"]["provenance"], "chosen");
  EXPECT_EQ(j["tasks"][10]["platforms"]["plena"]["supported"], true);
  EXPECT_EQ(j["cpu"][0]["platforms"]["plena"]["supported"], false);
  const std::string text = reg.list_text();
  EXPECT_NE(text.find("L1 gemm (M, K, N)\n    plena: C1 (4,64,64)  C2 (8,128,128)"), std::string::npos) << text;
}

TEST(Registry, CheckNeedsEveryOutput) {
  const Instance in = Registry::builtin().instance("silu", "aie_ml", "C1");
  const TensorSet want = in.reference_outputs(in.generate_inputs(1));
  EXPECT_THROW(in.check({}, {}, want), std::invalid_argument);
  TensorSet wrong = want;
  wrong[0].data.pop_back();
  EXPECT_THROW(in.check(wrong, {}, want), std::invalid_argument);
  EXPECT_EQ(in.view("y"), (std::vector<int64_t>{4, 64}));
}

}  // namespace
}  // namespace tlmcraft::tasks
