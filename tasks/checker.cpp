#include "tasks/checker.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "tasks/tensor.h"

namespace tlmcraft::tasks {

namespace {

// Per-row error sums for the row rules (Tolerance::kRowRelRms, Tolerance::small_rel).
struct RowErrors {
  double err_sq = 0, want_sq = 0;            // finite written elements
  double small_err = 0, small_want = 0;      // elements whose |want| is below the floor
  bool broken = false;                       // an unwritten or non-finite element (already a mismatch)
};

std::string percent(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", v * 100.0);
  return b;
}

// Applies the row rules to one finished row; appends a failure text when it fails.
void close_row(const std::string& tensor, int64_t row, const RowErrors& e, const Tolerance& tol,
               const CheckOptions& options, CheckResult& r) {
  if (tol.kind == Tolerance::Kind::Exact || e.broken) return;
  std::string why;
  if (e.want_sq > 0 && std::sqrt(e.err_sq / e.want_sq) > Tolerance::kRowRelRms)
    why = "relative RMS error " + percent(std::sqrt(e.err_sq / e.want_sq)) + " > " + percent(Tolerance::kRowRelRms);
  if (tol.small_rel > 0 && e.small_want > 0) {
    const double rel = e.small_err / e.small_want;
    r.max_small_rel_err = std::max(r.max_small_rel_err, rel);
    if (rel > tol.small_rel) {
      char floor[32];
      std::snprintf(floor, sizeof floor, "%g", tol.abs);
      why += std::string(why.empty() ? "" : ", ") + "outputs below " + floor + ": relative error " + percent(rel) + " > " +
             percent(tol.small_rel);
    }
  }
  if (why.empty()) return;
  if (r.rows_failed++ < int64_t(options.max_row_failures))
    r.row_failures.push_back(tensor + " row " + std::to_string(row) + ": " + why);
}

}  // namespace

bool within(double got, double want, const Tolerance& tol, double slack) {
  if (!std::isfinite(got)) return false;
  const double e = std::fabs(got - want) - slack;
  switch (tol.kind) {
    case Tolerance::Kind::AbsOrRel: return e <= tol.abs || e <= tol.rel * std::fabs(want);
    case Tolerance::Kind::AllClose: return e <= tol.abs + tol.rel * std::fabs(want);
    case Tolerance::Kind::Exact: return got == want;
  }
  return false;
}

CheckResult check(const std::vector<CheckTensor>& tensors, const Tolerance& tol, const CheckOptions& options) {
  CheckResult r;
  double sq_sum = 0;
  int64_t compared = 0;
  std::vector<RowStats> rows;
  for (const CheckTensor& t : tensors) {
    const size_t n = t.want.size();
    if (t.got.size() != n || (!t.unwritten.empty() && t.unwritten.size() != n) || (!t.slack.empty() && t.slack.size() != n) ||
        int64_t(n) != element_count(t.shape) || t.shape.empty())
      throw std::invalid_argument("check: tensor '" + t.name + "' has " + std::to_string(t.got.size()) + " values, " +
                                  std::to_string(n) + " expected for shape " + shape_text(t.shape));
    const int64_t row_len = t.shape.back();
    double err_sq = 0, want_sq = 0;  // over finite written elements, for the tensor-level guard
    RowErrors row_errors;
    for (size_t i = 0; i < n; ++i) {
      const int64_t row = int64_t(i) / row_len;
      if (i % size_t(row_len) == 0) {
        if (i > 0) close_row(t.name, row - 1, row_errors, tol, options, r);
        row_errors = RowErrors{};
        RowStats s;
        s.tensor = t.name;
        s.row = row;
        s.got_min = s.want_min = std::numeric_limits<double>::infinity();
        s.got_max = s.want_max = -std::numeric_limits<double>::infinity();
        rows.push_back(s);
      }
      RowStats& s = rows.back();
      const bool unwritten = !t.unwritten.empty() && t.unwritten[i];
      const double got = unwritten ? std::numeric_limits<double>::quiet_NaN() : t.got[i];
      const double want = t.want[i];
      ++r.elements;
      s.want_min = std::min(s.want_min, want);
      s.want_max = std::max(s.want_max, want);
      if (want != 0) ++s.want_nonzero;
      if (std::isfinite(got)) {
        s.got_min = std::min(s.got_min, got);
        s.got_max = std::max(s.got_max, got);
        if (got != 0) ++s.got_nonzero;
        const double e = std::fabs(got - want);
        r.max_abs_err = std::max(r.max_abs_err, e);
        if (want != 0) r.max_rel_err = std::max(r.max_rel_err, e / std::fabs(want));
        s.max_abs_err = std::max(s.max_abs_err, e);
        sq_sum += e * e;
        err_sq += e * e;
        want_sq += want * want;
        row_errors.err_sq += e * e;
        row_errors.want_sq += want * want;
        if (std::fabs(want) < tol.abs) {
          row_errors.small_err += e;
          row_errors.small_want += std::fabs(want);
        }
        ++compared;
      } else if (unwritten) {
        ++r.unwritten;
        row_errors.broken = true;
      } else {
        ++r.non_finite;
        row_errors.broken = true;
      }
      if (!within(got, want, tol, t.slack.empty() ? 0.0 : t.slack[i])) {
        ++r.mismatches;
        ++s.mismatches;
        if (r.first_mismatches.size() < options.max_first_mismatches)
          r.first_mismatches.push_back({t.name, unflatten(int64_t(i), t.shape), got, want, unwritten});
      }
    }
    if (n > 0) close_row(t.name, int64_t(n - 1) / row_len, row_errors, tol, options, r);
    if (tol.kind != Tolerance::Kind::Exact && want_sq > 0) {
      const double rel_rms = std::sqrt(err_sq / want_sq);
      r.tensor_rel_rms.emplace_back(t.name, rel_rms);
      if (rel_rms > Tolerance::kTensorRelRms) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s: relative RMS error %.1f%% > %.0f%%", t.name.c_str(), rel_rms * 100.0,
                      Tolerance::kTensorRelRms * 100.0);
        r.scale_failures.push_back(buf);
      }
    }
  }
  r.mse = compared ? sq_sum / double(compared) : 0.0;
  r.match_rate = r.elements ? double(r.elements - r.mismatches) / double(r.elements) : 0.0;
  for (RowStats& s : rows) {  // rows with nothing finite report 0 rather than +-inf
    if (!std::isfinite(s.got_min)) s.got_min = s.got_max = 0;
  }
  // Worst rows first (most mismatches, then largest error); ties keep tensor/row order.
  std::stable_sort(rows.begin(), rows.end(), [](const RowStats& a, const RowStats& b) {
    if (a.mismatches != b.mismatches) return a.mismatches > b.mismatches;
    return a.max_abs_err > b.max_abs_err && a.mismatches > 0;
  });
  if (rows.size() > options.max_rows) rows.resize(options.max_rows);
  r.rows = std::move(rows);
  return r;
}

namespace {
// JSON has no NaN: non-finite numbers become null.
nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }
}  // namespace

nlohmann::json CheckResult::to_json() const {
  nlohmann::json j;
  j["match_rate"] = match_rate;
  j["elements"] = elements;
  j["mismatches"] = mismatches;
  j["unwritten"] = unwritten;
  j["non_finite"] = non_finite;
  j["max_abs_err"] = max_abs_err;
  j["max_rel_err"] = max_rel_err;
  j["mse"] = mse;
  j["tensor_rel_rms"] = nlohmann::json::object();
  for (const auto& [name, v] : tensor_rel_rms) j["tensor_rel_rms"][name] = v;
  j["scale_failures"] = scale_failures;
  j["rows_failed"] = rows_failed;
  j["row_failures"] = row_failures;
  j["max_small_rel_err"] = max_small_rel_err;
  j["first_mismatches"] = nlohmann::json::array();
  for (const auto& m : first_mismatches) {
    nlohmann::json e{{"tensor", m.tensor}, {"index", m.index}, {"got", number(m.got)}, {"want", number(m.want)}};
    if (m.unwritten) e["unwritten"] = true;
    j["first_mismatches"].push_back(e);
  }
  j["rows"] = nlohmann::json::array();
  for (const auto& s : rows)
    j["rows"].push_back({{"tensor", s.tensor},
                         {"row", s.row},
                         {"got_min", s.got_min},
                         {"got_max", s.got_max},
                         {"got_nonzero", s.got_nonzero},
                         {"want_min", s.want_min},
                         {"want_max", s.want_max},
                         {"want_nonzero", s.want_nonzero},
                         {"mismatches", s.mismatches}});
  return j;
}

std::string CheckResult::summary() const {
  char buf[160];
  std::snprintf(buf, sizeof buf, "match %.2f%% (%lld of %lld wrong", match_rate * 100.0, (long long)mismatches,
                (long long)elements);
  std::string s = buf;
  if (unwritten) s += "; output never written: " + std::to_string(unwritten);
  if (non_finite) s += "; NaN/inf written: " + std::to_string(non_finite);
  s += ")";
  for (const auto& f : scale_failures) s += "; " + f;
  if (rows_failed) {
    s += "; " + std::to_string(rows_failed) + " row(s) fail the row rules";
    if (!row_failures.empty()) s += " (first: " + row_failures.front() + ")";
  }
  return s;
}

}  // namespace tlmcraft::tasks
