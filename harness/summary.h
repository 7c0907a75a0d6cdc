// Metrics over suite results (JSONL records, one evaluation report each): per platform
// and task the n/5 (configurations passed out of those run), per-level totals as in the
// KernelCraft table, geometric-mean speedup over correct kernels, fast_p and pass@k.
//
// A workload is (platform, task, config). Records of one workload with different kernels
// are samples of it: the workload counts as solved when any sample passed, and its
// speedup is the best passing sample's; pass@k uses all samples (unbiased estimator).
// Records whose status is "unsupported" are left out of every denominator.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlmcraft::harness {

struct SummaryOptions {
  std::vector<double> fast_p = {0.0, 1.0};  // fast_p = share of workloads correct AND speedup > p
  std::vector<int> pass_k = {1, 5, 10};     // reported for k <= the most samples of a workload
  std::vector<std::string> task_order;      // rows within a level in this order; others by name after
};

struct WorkloadCell {
  std::string status;        // of the best sample: "pass" > failures > "unsupported"
  int samples = 0;
  int passed = 0;            // passing samples
  std::string reason;        // of the best sample
  std::string kernel;        // of the best sample ("baseline" or a path)
  std::string variant;       // of the best sample: job.variant ("" = unrecorded)
  std::string variant_name;  // its provenance label (variant_label; "" = unrecorded)
  std::optional<uint64_t> cycles;
  std::optional<uint64_t> baseline_cycles;
  std::optional<double> speedup;  // best passing sample's speedup
  std::vector<uint64_t> seeds;    // of the best sample: its trials' input seeds
  bool supported() const { return status != "unsupported"; }
};

struct Totals {
  int passed = 0;  // workloads solved
  int run = 0;     // workloads with a supported result
};

struct Aggregate {
  Totals total;
  int unsupported = 0;                       // workloads only reported unsupported
  std::map<int, Totals> levels;              // level (0 = CPU programs, -1 = unknown) -> totals
  std::optional<double> geomean_speedup;     // over solved workloads with a known speedup
  int speedup_count = 0;
  std::map<double, double> fast;             // p -> fast_p
  std::map<int, double> pass_at_k;           // k -> mean pass@k over workloads with >= k samples
  std::map<std::string, int> status_counts;  // over all samples
  int records = 0;
};

struct TaskRow {
  std::string task;
  int level = -1;                               // 0 = CPU program, -1 = unknown
  std::map<std::string, WorkloadCell> configs;  // config name -> cell
  Totals totals;
  std::optional<double> geomean_speedup;        // over its solved configs
};

struct PlatformSummary {
  std::string platform;
  std::vector<std::string> configs;  // every config seen, sorted (C1 < C2 < ... < C10)
  std::vector<TaskRow> tasks;        // sorted by level, then options.task_order, then name
  std::map<std::string, std::string> variants;  // job.variant -> label, over every sample
  Aggregate aggregate;
};

struct Summary {
  std::vector<PlatformSummary> platforms;  // sorted by name
  Aggregate overall;
  std::vector<double> fast_p;
  std::vector<int> pass_k;
};

// From the CLI's comma lists ("0,1,1.5" and "1,5,10"); throws std::invalid_argument
// naming the bad item (p must be >= 0, k a positive integer).
SummaryOptions parse_summary_options(const std::string& fast_p_list, const std::string& pass_k_list);

Summary summarize(const std::vector<nlohmann::json>& records, const SummaryOptions& options = {});

// Schema "tlmcraft.summary/1" (documented in docs/suite.md).
nlohmann::json summary_to_json(const Summary& summary);
// The paper-style table: one block per platform, a column per config.
std::string summary_to_text(const Summary& summary);

// Unbiased pass@k for n samples of which c are correct: 1 - prod_{i=n-c+1..n} (1 - k/i),
// 1 when fewer than k samples are wrong. Requires 0 <= c <= n and 1 <= k <= n.
double pass_at_k(int n, int c, int k);

// The record's speedup: its "speedup" field, else baseline_cycles / cycles when both known.
std::optional<double> record_speedup(const nlohmann::json& record);

// "1".."3" for task levels, "CPU" for the CPU programs (level 0), "?" when unknown.
std::string level_label(int level);

// Config names in their natural order: "C2" < "C10".
bool config_less(const std::string& a, const std::string& b);

// Short cell text for a status ("pass", "FAIL", "ASM", ...).
std::string status_abbreviation(const std::string& status);

}  // namespace tlmcraft::harness
