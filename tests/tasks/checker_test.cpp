// The checker: tolerance rules, counting, coordinates, row statistics and the JSON
// "check" object of docs/report-schema.md.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tasks/checker.h"

namespace tlmcraft::tasks {
namespace {

const Tolerance kPlena{Tolerance::Kind::AbsOrRel, 0.012, 0.01};
const Tolerance kAie{Tolerance::Kind::AllClose, 0.01, 0.01};
const Tolerance kExact{Tolerance::Kind::Exact, 0, 0};
const double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(Checker, ToleranceRules) {
  EXPECT_TRUE(within(1.011, 1.0, kPlena));    // |e| = 0.011 <= 0.012
  EXPECT_FALSE(within(1.013, 1.0, kPlena));   // 0.013 > 0.012 and > 0.01 * 1
  EXPECT_TRUE(within(10.09, 10.0, kPlena));   // 0.09 <= 0.01 * 10
  EXPECT_FALSE(within(10.2, 10.0, kPlena));
  EXPECT_TRUE(within(1.019, 1.0, kAie));      // 0.019 <= 0.01 + 0.01 * 1
  EXPECT_FALSE(within(1.021, 1.0, kAie));
  EXPECT_TRUE(within(-5, -5, kExact));
  EXPECT_FALSE(within(-4, -5, kExact));
  EXPECT_FALSE(within(kNaN, 0, kPlena));
  EXPECT_FALSE(within(std::numeric_limits<double>::infinity(), 1e300, kAie));
}

TEST(Checker, TensorGuardFailsZerosBelowTheAbsoluteFloor) {
  // Softmax-sized outputs: 1e-4 everywhere is far below the 0.012 absolute floor, so a
  // kernel writing zeros passes every element but has relative RMS error 100%.
  CheckTensor zeros{"y", {4}, {0, 0, 0, 0}, {1e-4, 2e-4, 1e-4, 2e-4}, {}, {}};
  const CheckResult z = check({zeros}, kPlena);
  EXPECT_EQ(z.mismatches, 0);
  EXPECT_FALSE(z.passed());
  ASSERT_EQ(z.scale_failures.size(), 1u);
  EXPECT_EQ(z.scale_failures[0], "y: relative RMS error 100.0% > 5%");
  EXPECT_NE(z.summary().find("y: relative RMS error 100.0% > 5%"), std::string::npos);
  // One bf16 ulp (2^-8 relative) off on every element: sqrt(sum (w/256)^2 / sum w^2) = 1/256 = 0.39%.
  CheckTensor close{"y", {4}, {1e-4 * (1 + 1.0 / 256), 2e-4 * (1 + 1.0 / 256), 1e-4, 2e-4}, {1e-4, 2e-4, 1e-4, 2e-4}, {}, {}};
  const CheckResult c = check({close}, kAie);
  EXPECT_TRUE(c.passed());
  ASSERT_EQ(c.tensor_rel_rms.size(), 1u);
  EXPECT_NEAR(c.tensor_rel_rms[0].second, std::sqrt((1e-8 + 4e-8) / 256.0 / 256.0 / (2e-8 + 8e-8)), 1e-12);
  // Exact tolerances have no tensor guard (every element is already exact).
  EXPECT_TRUE(check({CheckTensor{"y", {2}, {3, 4}, {3, 4}, {}, {}}}, kExact).tensor_rel_rms.empty());
}

TEST(Checker, CountsCoordinatesAndStatistics) {
  // 2 x 3: element [0,2] off by 0.5, element [1,1] never written, [1,2] a written NaN.
  CheckTensor t{"y", {2, 3}, {1, 2, 3.5, 4, 0, kNaN}, {1, 2, 3, 4, 5, 6}, {0, 0, 0, 0, 1, 0}, {}};
  const CheckResult r = check({t}, kPlena);
  EXPECT_EQ(r.elements, 6);
  EXPECT_EQ(r.mismatches, 3);
  EXPECT_EQ(r.unwritten, 1);
  EXPECT_EQ(r.non_finite, 1);
  EXPECT_DOUBLE_EQ(r.match_rate, 0.5);
  EXPECT_DOUBLE_EQ(r.max_abs_err, 0.5);
  EXPECT_DOUBLE_EQ(r.max_rel_err, 0.5 / 3);
  EXPECT_DOUBLE_EQ(r.mse, 0.25 / 4);  // four finite written elements, one error of 0.5
  ASSERT_EQ(r.first_mismatches.size(), 3u);
  EXPECT_EQ(r.first_mismatches[0].index, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(r.first_mismatches[1].index, (std::vector<int64_t>{1, 1}));
  EXPECT_TRUE(r.first_mismatches[1].unwritten);
  EXPECT_TRUE(std::isnan(r.first_mismatches[1].got));
  // Row 1 has two mismatches, so it comes first.
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[0].row, 1);
  EXPECT_EQ(r.rows[0].mismatches, 2);
  EXPECT_EQ(r.rows[0].got_min, 4);   // only element 4 is finite and written
  EXPECT_EQ(r.rows[0].got_nonzero, 1);
  EXPECT_EQ(r.rows[0].want_min, 4);
  EXPECT_EQ(r.rows[0].want_max, 6);
  EXPECT_EQ(r.rows[0].want_nonzero, 3);
  EXPECT_EQ(r.rows[1].got_max, 3.5);
  EXPECT_FALSE(r.passed());
  // Tensor guard over the finite written elements 1, 2, 3.5, 4: sqrt(0.5^2 / (1 + 4 + 9 + 16)) = 9.1%.
  // Row 0 (1, 2, 3.5 against 1, 2, 3) fails the row rule: sqrt(0.25 / 14) = 13.4%; row 1
  // has broken elements and is left to the element rule.
  EXPECT_EQ(r.summary(), "match 50.00% (3 of 6 wrong; output never written: 1; NaN/inf written: 1); "
            "y: relative RMS error 9.1% > 5%; 1 row(s) fail the row rules (first: y row 0: relative RMS error 13.4% > "
            "5.0%)");
}

TEST(Checker, JsonHasTheReportFields) {
  CheckTensor t{"y", {1, 2}, {0, kNaN}, {0, 1}, {}, {}};
  const nlohmann::json j = check({t}, kExact).to_json();
  for (const char* k : {"match_rate", "elements", "mismatches", "unwritten", "max_abs_err", "max_rel_err", "mse",
                        "first_mismatches", "rows"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["first_mismatches"][0]["tensor"], "y");
  EXPECT_EQ(j["first_mismatches"][0]["index"], nlohmann::json::array({0, 1}));
  EXPECT_TRUE(j["first_mismatches"][0]["got"].is_null());  // NaN has no JSON form
  EXPECT_EQ(j["first_mismatches"][0]["want"], 1.0);
  EXPECT_EQ(j["rows"][0]["want_nonzero"], 1);
  EXPECT_EQ(j["rows"][0]["got_nonzero"], 0);
}

TEST(Checker, CapsMismatchesAndRowsWorstFirst) {
  // 40 rows of 2; row r has r % 3 wrong elements (exact tolerance).
  CheckTensor t{"y", {40, 2}, {}, {}, {}, {}};
  for (int r = 0; r < 40; ++r)
    for (int c = 0; c < 2; ++c) {
      t.want.push_back(1);
      t.got.push_back(c < r % 3 ? 2 : 1);
    }
  const CheckResult res = check({t}, kExact);
  EXPECT_EQ(res.first_mismatches.size(), 10u);
  ASSERT_EQ(res.rows.size(), 16u);
  EXPECT_EQ(res.rows[0].row, 2);   // the first row with 2 mismatches
  EXPECT_EQ(res.rows[1].row, 5);
  // Rows 2, 5, ..., 38 (13 rows) have 2 mismatches; then rows 1, 4, 7 with 1.
  for (size_t i = 0; i < 13; ++i) EXPECT_EQ(res.rows[i].mismatches, 2);
  EXPECT_EQ(res.rows[13].row, 1);
  EXPECT_EQ(res.rows[15].row, 7);
  EXPECT_EQ(res.rows[15].mismatches, 1);
  CheckOptions small;
  small.max_rows = 3;
  small.max_first_mismatches = 1;
  const CheckResult s = check({t}, kExact, small);
  EXPECT_EQ(s.rows.size(), 3u);
  EXPECT_EQ(s.first_mismatches.size(), 1u);
}

TEST(Checker, RejectsSizeDisagreements) {
  EXPECT_THROW(check({CheckTensor{"y", {2}, {1}, {1, 2}, {}, {}}}, kExact), std::invalid_argument);
  EXPECT_THROW(check({CheckTensor{"y", {2}, {1, 2}, {1, 2}, {0}, {}}}, kExact), std::invalid_argument);
  EXPECT_THROW(check({CheckTensor{"y", {3}, {1, 2}, {1, 2}, {}, {}}}, kExact), std::invalid_argument);
  EXPECT_FALSE(check({}, kExact).passed());  // nothing compared is not a pass
}

}  // namespace
}  // namespace tlmcraft::tasks
