// The compact tool texts built from reports.
#include <gtest/gtest.h>

#include "agent/tool_text.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

json row(int r, int mismatches) {
  return {{"tensor", "y"}, {"row", r}, {"got_min", 0}, {"got_max", 1}, {"got_nonzero", 64},
          {"want_min", 0}, {"want_max", 1}, {"want_nonzero", 64}, {"mismatches", mismatches}};
}

TEST(ToolText, EvaluationLineForPassAndFailure) {
  const json pass = {{"status", "pass"}, {"cycles", 120}, {"baseline_cycles", 150}, {"speedup", 1.25},
                     {"trials", {{{"check", {{"match_rate", 1.0}}}}}}};
  EXPECT_EQ(evaluation_text(pass), "status: pass  match_rate: 100.00%  cycles: 120 (baseline 150, speedup 1.25x)");
  const json fail = {{"status", "fail"}, {"cycles", 99}, {"reason", "trial seed 2: match 50.00%"},
                     {"trials", {{{"check", {{"match_rate", 1.0}}}}, {{"check", {{"match_rate", 0.5}}}}}}};
  // The lowest trial match rate is shown.
  EXPECT_EQ(evaluation_text(fail), "status: fail  match_rate: 50.00%  cycles: 99\nreason: trial seed 2: match 50.00%");
  const json asm_error = {{"status", "assemble_error"}, {"reason", "1 assembly error(s)"}, {"trials", json::array()},
                          {"assemble", {{"diagnostics", {"k.asm:1:1: error: x"}}}}};
  EXPECT_EQ(evaluation_text(asm_error), "status: assemble_error\nreason: 1 assembly error(s)\n  k.asm:1:1: error: x");
  EXPECT_EQ(report_match_rate(asm_error), -1);
}

TEST(ToolText, AFailureOnACoreWithoutInterlocksListsItsEarlyReads) {
  // memory.cores.<core>.pipeline as a platform without interlocks reports it: the count and
  // the notes follow the reason; an interlocked core's held reads (mode "interlocked") and
  // a core with none are left out.
  const json note = "line 5 (ADD) reads r1 6 cycle(s) before the result of line 4 (LDA) lands: it reads the old value";
  const json fail = {
      {"status", "fail"},
      {"cycles", 40},
      {"reason", "trial seed 2: match 50.00%"},
      {"trials", {{{"check", {{"match_rate", 0.5}}}}}},
      {"memory",
       {{"cores",
         {{"tile(0,0)", {{"pipeline", {{"mode", "exposed"}, {"early_reads", 1}, {"notes", {note}}}}}},
          {"tile(0,1)", {{"pipeline", {{"mode", "exposed"}, {"early_reads", 0}, {"notes", json::array()}}}}},
          {"tile(0,2)", {{"pipeline", {{"mode", "interlocked"}, {"held_reads", 3}, {"notes", {"x"}}}}}}}}}}};
  EXPECT_EQ(evaluation_text(fail),
            "status: fail  match_rate: 50.00%  cycles: 40\nreason: trial seed 2: match 50.00%\n"
            "tile(0,0): 1 read(s) of a register before its result landed (no interlocks: they read the old value)\n"
            "  line 5 (ADD) reads r1 6 cycle(s) before the result of line 4 (LDA) lands: it reads the old value");
  json pass = fail;
  pass["status"] = "pass";
  EXPECT_EQ(evaluation_text(pass), "status: pass  match_rate: 50.00%  cycles: 40");  // intended in pipelined code
  EXPECT_NE(profile_text(pass).find("\ntile(0,0): 1 read(s) of a register"), std::string::npos);
}

TEST(ToolText, ManyRowsShowTheMismatchingOnesFirst) {
  json rows = json::array();
  for (int r = 0; r < 40; ++r) rows.push_back(row(r, r == 30 || r == 35 ? 2 : 0));
  const json rep = {{"status", "fail"},
                    {"trials", {{{"seed", 7}, {"summary", "match 99.92%"},
                                 {"check", {{"elements", 2560}, {"mismatches", 4}, {"unwritten", 0}, {"non_finite", 0},
                                            {"mse", 0.5}, {"max_abs_err", 1}, {"max_rel_err", 2}, {"rows", rows},
                                            {"first_mismatches", {{{"tensor", "y"}, {"index", {30, 5}}, {"got", 1}, {"want", 2}}}}}}}}}};
  const std::string text = output_text(rep, 4);
  // 4 rows shown: the two mismatching ones (30, 35) and then the first matching ones (0, 1), in row order.
  EXPECT_EQ(text,
            "trial seed 7: match 99.92%\n"
            "mismatching: 0.16% (4 of 2560)  unwritten: 0  non-finite: 0\n"
            "mse: 0.5  max_abs_err: 1  max_rel_err: 2\n"
            "rows (got min..max nonzero | want min..max nonzero | mismatches):\n"
            "  y[0]: 0..1 nz 64 | 0..1 nz 64 | 0\n"
            "  y[1]: 0..1 nz 64 | 0..1 nz 64 | 0\n"
            "  y[30]: 0..1 nz 64 | 0..1 nz 64 | 2\n"
            "  y[35]: 0..1 nz 64 | 0..1 nz 64 | 2\n"
            "  (36 more rows not shown; 2 of 40 rows have mismatches)\n"
            "first mismatches:\n"
            "  y[30,5]: got 1 want 2");
}

TEST(ToolText, NoOutputsWhenNothingRan) {
  const json rep = {{"status", "limit"}, {"reason", "trial seed 1: Loop at PC 3 exceeded max instructions"},
                    {"trials", {{{"message", "Loop at PC 3 exceeded max instructions"}}}}};
  EXPECT_EQ(output_text(rep), "no outputs to show: status limit: trial seed 1: Loop at PC 3 exceeded max instructions\n"
                              "Loop at PC 3 exceeded max instructions");
  EXPECT_EQ(profile_text(json{{"status", "assemble_error"}}), "no profile: the kernel did not run (status assemble_error)");
}

TEST(ToolText, ProfileListsThePhasesOfAMultiPhaseKernel) {
  const json rep = {{"status", "pass"},
                    {"cycles", 2100},
                    {"instructions", 40},
                    {"memory",
                     {{"phases",
                       {{{"name", "norm"}, {"start_cycle", 0}, {"end_cycle", 600}},
                        {{"name", "project"}, {"start_cycle", 1100}, {"end_cycle", 2100}}}}}}};
  EXPECT_EQ(profile_text(rep),
            "cycles: 2100  instructions: 40\n"
            "phases (start .. end cycle, cycles):\n"
            "  norm: 0 .. 600, 600\n"
            "  project: 1100 .. 2100, 1000");
}

TEST(ToolText, YamlText) {
  const json cfg = json::parse(R"({"arch":{"mlen":64,"formats":["a","b"]},"clock_ns":1.0,"list":[{"x":1}]})");
  EXPECT_EQ(yaml_text(cfg), "arch:\n  formats: [a, b]\n  mlen: 64\nclock_ns: 1\nlist:\n  -\n    x: 1\n");
}

}  // namespace
}  // namespace tlmcraft::agent
