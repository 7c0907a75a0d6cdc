// Compares a kernel's outputs with the reference and fills the "check" object of the
// evaluation report (docs/report-schema.md): match rate, mismatches, outputs never
// written (the poison pattern still there), error statistics, the first mismatches
// with coordinates and per-row statistics (worst rows first).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tasks/spec.h"

namespace tlmcraft::tasks {

// One output tensor to compare. `shape` is the view rows and coordinates refer to
// (e.g. PLENA's [n / VLEN, VLEN] rows); its last dimension is the row length.
// `unwritten` is empty or holds one flag per element (1 = the poison pattern is still
// there; its `got` value is ignored). `slack` is empty or holds one extra elementwise
// tolerance per element (the reference's rounding slack).
struct CheckTensor {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<double> got, want;
  std::vector<uint8_t> unwritten;
  std::vector<double> slack;
};

struct CheckOptions {
  size_t max_first_mismatches = 10;
  size_t max_rows = 16;
  size_t max_row_failures = 5;
};

struct Mismatch {
  std::string tensor;
  std::vector<int64_t> index;
  double got = 0, want = 0;  // got is NaN for an unwritten or NaN element
  bool unwritten = false;
};

struct RowStats {
  std::string tensor;
  int64_t row = 0;
  double got_min = 0, got_max = 0, want_min = 0, want_max = 0;  // over finite values
  int64_t got_nonzero = 0, want_nonzero = 0;
  int64_t mismatches = 0;
  double max_abs_err = 0;
};

struct CheckResult {
  int64_t elements = 0;
  int64_t mismatches = 0;   // including unwritten and NaN/inf elements
  int64_t unwritten = 0;
  int64_t non_finite = 0;   // written NaN or infinity
  double match_rate = 0;    // (elements - mismatches) / elements
  // Error statistics over the elements written with finite values (0 if there are none).
  double max_abs_err = 0;
  double max_rel_err = 0;   // over elements whose want is non-zero
  double mse = 0;
  std::vector<Mismatch> first_mismatches;
  std::vector<RowStats> rows;  // at most max_rows: most mismatches first, then row order
  // Float tolerances: per output tensor, the relative RMS error over its written elements,
  // and the tensors above Tolerance::kTensorRelRms ("y: relative RMS error 100% > 5%").
  std::vector<std::pair<std::string, double>> tensor_rel_rms;
  std::vector<std::string> scale_failures;
  // Rows failing Tolerance::kRowRelRms or the small-output rule (Tolerance::small_rel):
  // how many, and the first few as text ("y row 3: small outputs' relative error 100% > 5%").
  int64_t rows_failed = 0;
  std::vector<std::string> row_failures;
  // Over all rows: the largest relative error of the small outputs (0 if the rule is off).
  double max_small_rel_err = 0;

  bool passed() const { return elements > 0 && mismatches == 0 && scale_failures.empty() && rows_failed == 0; }
  // The report's "check" object.
  nlohmann::json to_json() const;
  // "match 75.00% (64 of 256 wrong; output never written: 64)".
  std::string summary() const;
};

// True if got is within tolerance of want, widened by `slack` (NaN or infinite got never is).
bool within(double got, double want, const Tolerance& tol, double slack = 0);

// Throws std::invalid_argument if a tensor's got, want, unwritten and shape sizes disagree.
CheckResult check(const std::vector<CheckTensor>& tensors, const Tolerance& tol, const CheckOptions& options = {});

}  // namespace tlmcraft::tasks
