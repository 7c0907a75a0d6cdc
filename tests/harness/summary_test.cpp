// Summary metrics on the hand-made results of test_util.cpp; every expected number is
// derived by hand in the comments.
#include "harness/summary.h"

#include <cmath>

#include <gtest/gtest.h>

#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

const PlatformSummary& platform(const Summary& s, const std::string& name) {
  for (const auto& p : s.platforms)
    if (p.platform == name) return p;
  throw std::runtime_error("no platform " + name);
}

const TaskRow& task(const PlatformSummary& p, const std::string& name) {
  for (const auto& t : p.tasks)
    if (t.task == name) return t;
  throw std::runtime_error("no task " + name);
}

TEST(PassAtK, UnbiasedEstimator) {
  // n=5, c=2, k=1: 1 - (1 - 1/4)(1 - 1/5) = 1 - 0.6 = 0.4 = c/n.
  EXPECT_DOUBLE_EQ(pass_at_k(5, 2, 1), 0.4);
  // n=5, c=2, k=2: 1 - C(3,2)/C(5,2) = 1 - 3/10 = 0.7; product form (1 - 2/4)(1 - 2/5) = 0.3.
  EXPECT_NEAR(pass_at_k(5, 2, 2), 0.7, 1e-12);
  // n=10, c=3, k=5: 1 - C(7,5)/C(10,5) = 1 - 21/252.
  EXPECT_NEAR(pass_at_k(10, 3, 5), 1.0 - 21.0 / 252.0, 1e-12);
  // Fewer than k wrong samples: every draw of k holds a correct one.
  EXPECT_DOUBLE_EQ(pass_at_k(5, 2, 5), 1.0);
  EXPECT_DOUBLE_EQ(pass_at_k(5, 0, 3), 0.0);
  EXPECT_DOUBLE_EQ(pass_at_k(5, 5, 1), 1.0);
}

TEST(PassAtK, RejectsImpossibleCounts) {
  EXPECT_THROW(pass_at_k(3, 4, 1), std::invalid_argument);
  EXPECT_THROW(pass_at_k(3, 1, 4), std::invalid_argument);
  EXPECT_THROW(pass_at_k(0, 0, 1), std::invalid_argument);
  try {
    pass_at_k(3, 1, 0);
    ADD_FAILURE() << "expected an exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "pass@k needs 0 <= c <= n and 1 <= k <= n (n=3, c=1, k=0)");
  }
}

TEST(RecordSpeedup, FieldOrCycles) {
  EXPECT_EQ(record_speedup(json{{"speedup", 1.25}}), 1.25);
  EXPECT_EQ(record_speedup(json{{"speedup", nullptr}, {"cycles", 50}, {"baseline_cycles", 200}}), 4.0);
  EXPECT_EQ(record_speedup(json{{"cycles", 0}, {"baseline_cycles", 200}}), std::nullopt);
  EXPECT_EQ(record_speedup(json{{"cycles", 10}}), std::nullopt);
}

TEST(Summary, PerTaskSolvedCountsAndCells) {
  const Summary s = summarize(test::hand_made_records());
  ASSERT_EQ(s.platforms.size(), 2u);
  EXPECT_EQ(s.platforms[0].platform, "coral");  // sorted by name
  const auto& plena = platform(s, "plena");
  EXPECT_EQ(plena.configs, (std::vector<std::string>{"C1", "C2", "C3", "C4", "C5"}));
  // Sorted by level then name: conv2d, gemm, silu (level 1), ffn (level 2).
  ASSERT_EQ(plena.tasks.size(), 4u);
  EXPECT_EQ(plena.tasks[0].task, "conv2d");
  EXPECT_EQ(plena.tasks[1].task, "gemm");
  EXPECT_EQ(plena.tasks[2].task, "silu");
  EXPECT_EQ(plena.tasks[3].task, "ffn");

  const TaskRow& silu = task(plena, "silu");  // C1 C2 C4 pass, C3 fail, C5 timeout
  EXPECT_EQ(silu.totals.passed, 3);
  EXPECT_EQ(silu.totals.run, 5);
  // geomean of 2, 0.5, 1 = 1 (the failing C3's 3.33 does not count).
  ASSERT_TRUE(silu.geomean_speedup);
  EXPECT_NEAR(*silu.geomean_speedup, 1.0, 1e-12);
  EXPECT_EQ(silu.configs.at("C5").status, "timeout");
  EXPECT_EQ(silu.configs.at("C1").cycles, 50u);
  EXPECT_EQ(silu.configs.at("C3").speedup, std::nullopt);

  const TaskRow& gemm = task(plena, "gemm");
  EXPECT_EQ(gemm.totals.passed, 1);
  EXPECT_EQ(gemm.totals.run, 2);
  EXPECT_EQ(gemm.configs.at("C2").status, "assemble_error");  // the later line replaced "crash"
  EXPECT_EQ(gemm.configs.at("C1").speedup, 4.0);              // 100 / 25

  const TaskRow& conv = task(plena, "conv2d");
  EXPECT_EQ(conv.totals.run, 0);  // unsupported configs are not run
  EXPECT_EQ(conv.configs.at("C1").status, "unsupported");
}

TEST(Summary, CellsCarryTheirRecordsSeeds) {
  json rec = {{"platform", "plena"}, {"task", "silu"}, {"level", 1}, {"config", "C1"},
              {"status", "pass"}, {"cycles", 50}, {"seeds", {9007199254740000ull, 9007199254740001ull}},
              {"kernel", {{"path", "k.asm"}, {"source", "file"}}}};
  const Summary s = summarize({rec});
  const auto& cell = task(platform(s, "plena"), "silu").configs.at("C1");
  EXPECT_EQ(cell.seeds, (std::vector<uint64_t>{9007199254740000ull, 9007199254740001ull}));
  EXPECT_EQ(summary_to_json(s)["platforms"][0]["tasks"][0]["configs"]["C1"]["seeds"], rec["seeds"]);
}

TEST(Summary, TaskOrderWithinALevel) {
  SummaryOptions opts;
  opts.task_order = {"silu", "gemm"};  // conv2d is not listed: after them
  const Summary s = summarize(test::hand_made_records(), opts);
  const auto& plena = platform(s, "plena");
  ASSERT_EQ(plena.tasks.size(), 4u);
  EXPECT_EQ(plena.tasks[0].task, "silu");
  EXPECT_EQ(plena.tasks[1].task, "gemm");
  EXPECT_EQ(plena.tasks[2].task, "conv2d");
  EXPECT_EQ(plena.tasks[3].task, "ffn");  // level 2 stays last
}

TEST(Summary, PlatformTotalsGeomeanAndFastP) {
  SummaryOptions opts;
  opts.fast_p = {0.0, 1.0, 1.5};
  const Summary s = summarize(test::hand_made_records(), opts);
  const Aggregate& a = platform(s, "plena").aggregate;
  // Solved: silu C1 C2 C4, gemm C1, ffn C1 = 5; run: silu 5 + gemm 2 + ffn 2 = 9.
  EXPECT_EQ(a.total.passed, 5);
  EXPECT_EQ(a.total.run, 9);
  EXPECT_EQ(a.unsupported, 2);
  EXPECT_EQ(a.levels.at(1).passed, 4);
  EXPECT_EQ(a.levels.at(1).run, 7);
  EXPECT_EQ(a.levels.at(2).passed, 1);
  EXPECT_EQ(a.levels.at(2).run, 2);
  // geomean of 2, 0.5, 1, 4, 1.5: product 6, fifth root.
  ASSERT_TRUE(a.geomean_speedup);
  EXPECT_NEAR(*a.geomean_speedup, std::pow(6.0, 0.2), 1e-12);
  EXPECT_EQ(a.speedup_count, 5);
  EXPECT_NEAR(a.fast.at(0.0), 5.0 / 9.0, 1e-12);  // correctness rate
  EXPECT_NEAR(a.fast.at(1.0), 3.0 / 9.0, 1e-12);  // 2, 4, 1.5 are > 1
  EXPECT_NEAR(a.fast.at(1.5), 2.0 / 9.0, 1e-12);  // strictly faster: 2 and 4 only
  // One sample per workload: only pass@1 (= 5/9) is defined.
  ASSERT_EQ(a.pass_at_k.size(), 1u);
  EXPECT_NEAR(a.pass_at_k.at(1), 5.0 / 9.0, 1e-12);
  EXPECT_EQ(a.status_counts.at("pass"), 5);
  EXPECT_EQ(a.status_counts.at("unsupported"), 2);
  EXPECT_EQ(a.records, 11);  // 12 lines, one replaced
}

TEST(Summary, SamplesGivePassAtK) {
  SummaryOptions opts;
  opts.pass_k = {1, 2, 5, 10};
  const Summary s = summarize(test::hand_made_records(), opts);
  const auto& coral = platform(s, "coral");
  const TaskRow& relu = coral.tasks.at(0);
  EXPECT_EQ(relu.configs.at("C1").samples, 5);
  EXPECT_EQ(relu.configs.at("C1").passed, 2);
  EXPECT_EQ(relu.configs.at("C1").speedup, 3.0);  // best passing sample
  EXPECT_EQ(relu.configs.at("C1").kernel, "samples/k1.asm");
  EXPECT_EQ(relu.configs.at("C2").status, "fail");
  const Aggregate& a = coral.aggregate;
  EXPECT_EQ(a.total.passed, 2);  // C1 (some sample) and C3
  EXPECT_EQ(a.total.run, 3);
  // Per workload (n, c): (5,2), (5,0), (5,5).
  // pass@1 = (0.4 + 0 + 1) / 3; pass@2 = (0.7 + 0 + 1) / 3; pass@5 = (1 + 0 + 1) / 3; k=10 > n: absent.
  EXPECT_NEAR(a.pass_at_k.at(1), 1.4 / 3.0, 1e-12);
  EXPECT_NEAR(a.pass_at_k.at(2), 1.7 / 3.0, 1e-12);
  EXPECT_NEAR(a.pass_at_k.at(5), 2.0 / 3.0, 1e-12);
  EXPECT_EQ(a.pass_at_k.count(10), 0u);
  // geomean of best speedups 3 and 1 = sqrt(3).
  EXPECT_NEAR(*a.geomean_speedup, std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(a.fast.at(1.0), 1.0 / 3.0, 1e-12);
}

TEST(Summary, OverallAcrossPlatforms) {
  const Summary s = summarize(test::hand_made_records());
  const Aggregate& a = s.overall;
  EXPECT_EQ(a.total.passed, 7);  // 5 plena + 2 coral
  EXPECT_EQ(a.total.run, 12);
  EXPECT_EQ(a.levels.at(1).passed, 6);
  EXPECT_EQ(a.levels.at(1).run, 10);
  // speedups 2, 0.5, 1, 4, 1.5, 3, 1: product 18, seventh root.
  EXPECT_NEAR(*a.geomean_speedup, std::pow(18.0, 1.0 / 7.0), 1e-12);
  // pass@1: plena 5 solved single samples + coral 0.4 + 0 + 1, over 12 workloads.
  EXPECT_NEAR(a.pass_at_k.at(1), 6.4 / 12.0, 1e-12);
  EXPECT_NEAR(a.pass_at_k.at(5), 2.0 / 3.0, 1e-12);  // only coral has 5 samples
}

TEST(Summary, TextTable) {
  const std::string text = summary_to_text(summarize(test::hand_made_records()));
  // Column widths: task padded to the longest name (conv2d, 6), configs 7, solved 9, speedup 10.
  EXPECT_NE(text.find("platform plena\n"
                      "task    lvl     C1     C2     C3     C4     C5   solved   speedup\n"
                      "conv2d    1    n/a    n/a      .      .      .      n/a         -\n"
                      "gemm      1   pass    ASM      .      .      .      1/2     4.00x\n"
                      "silu      1   pass   pass   FAIL   pass   TIME      3/5     1.00x\n"
                      "ffn       2   pass   FAIL      .      .      .      1/2     1.50x\n"
                      "level 1 4/7   level 2 1/2   total 5/9   (2 unsupported)\n"
                      "geomean speedup 1.43x over 5 correct kernels   fast_0 0.56   fast_1 0.33   pass@1 0.56\n"),
            std::string::npos)
      << text;
  // Several samples: the cell shows passed/samples.
  EXPECT_NE(text.find("relu    1    2/5    0/5    5/5      2/3     1.73x\n"), std::string::npos) << text;
  EXPECT_NE(text.find("all platforms\n"
                      "level 1 6/10   level 2 1/2   total 7/12   (2 unsupported)\n"
                      "geomean speedup 1.51x over 7 correct kernels   fast_0 0.58   fast_1 0.33   pass@1 0.53"
                      "   pass@5 0.67\n"),
            std::string::npos)
      << text;
}

TEST(Summary, JsonForm) {
  const json j = summary_to_json(summarize(test::hand_made_records()));
  EXPECT_EQ(j["schema"], "tlmcraft.summary/1");
  ASSERT_EQ(j["platforms"].size(), 2u);
  const json& plena = j["platforms"][1];
  EXPECT_EQ(plena["platform"], "plena");
  EXPECT_EQ(plena["summary"]["passed"], 5);
  EXPECT_EQ(plena["summary"]["run"], 9);
  EXPECT_EQ(plena["summary"]["levels"][0], json({{"level", 1}, {"passed", 4}, {"run", 7}}));
  EXPECT_NEAR(plena["summary"]["fast"]["1"].get<double>(), 3.0 / 9.0, 1e-12);
  EXPECT_NEAR(plena["summary"]["fast"]["0"].get<double>(), 5.0 / 9.0, 1e-12);
  const json& silu = plena["tasks"][2];
  EXPECT_EQ(silu["task"], "silu");
  EXPECT_EQ(silu["passed"], 3);
  EXPECT_EQ(silu["configs"]["C1"]["cycles"], 50);
  EXPECT_EQ(silu["configs"]["C1"]["speedup"], 2.0);
  EXPECT_EQ(silu["configs"]["C5"]["speedup"], nullptr);
  EXPECT_EQ(j["overall"]["passed"], 7);
}

TEST(Summary, OptionListsFromTheCommandLine) {
  const SummaryOptions o = parse_summary_options("0, 1,1.5", "1,5");
  EXPECT_EQ(o.fast_p, (std::vector<double>{0.0, 1.0, 1.5}));
  EXPECT_EQ(o.pass_k, (std::vector<int>{1, 5}));
  try {
    parse_summary_options("1,x", "1");
    ADD_FAILURE() << "expected an exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "--fast-p: 'x' is not a number >= 0");
  }
  try {
    parse_summary_options("1", "0");
    ADD_FAILURE() << "expected an exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "--pass-k: '0' is not a positive integer");
  }
}

TEST(Summary, BareReportsWithoutJobAndJunkAreHandled) {
  // A bare report (no "job") is keyed by its own fields; non-task records are ignored.
  const std::vector<json> rs = {
      {{"platform", "plena"}, {"task", "relu"}, {"config", "C1"}, {"status", "pass"}, {"level", 1}},
      {{"status", "pass"}},
      json::array(),
  };
  const Summary s = summarize(rs);
  ASSERT_EQ(s.platforms.size(), 1u);
  EXPECT_EQ(s.overall.total.passed, 1);
  EXPECT_EQ(s.overall.geomean_speedup, std::nullopt);
  EXPECT_EQ(summary_to_text(summarize({})), "no results\n");
}

}  // namespace
}  // namespace tlmcraft::harness
