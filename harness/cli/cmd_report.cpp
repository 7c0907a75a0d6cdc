// tlmcraft report: one self-contained HTML file from suite results (JSONL).
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <boost/program_options.hpp>

#include "harness/codesign_html.h"
#include "harness/cli/cli_util.h"
#include "harness/cli/commands.h"
#include "harness/compare.h"
#include "harness/html_report.h"
#include "harness/suite_runner.h"
#include "harness/summary.h"
#include "tasks/registry.h"

namespace po = boost::program_options;

namespace fs = std::filesystem;

namespace tlmcraft::cli {
namespace {

const char* kReportHelp = R"(usage: tlmcraft report RESULTS.jsonl [MORE.jsonl ...] [-o report.html] [options]
       tlmcraft report CODESIGN_DIR [-o report.html]     (a `codesign explore --out` directory)

Writes ONE self-contained HTML file (inline CSS and SVG, no scripts, no external
resources) from suite results: run metadata, the summary table (solved per level,
geometric-mean speedup, fast_p, pass@k), and per platform a pass matrix of tasks x
configs (tooltips give status, reason, cycles and speedup), a speedup-per-task chart on
a log scale and per-unit utilisation bars, plus the failing jobs with their reasons.
Several files are merged; a job present in several files counts once (the last one
read wins). A torn last line (an interrupted run) is ignored with a warning.
Set SOURCE_DATE_EPOCH for a reproducible time stamp.

examples:
  tlmcraft report out/bench-plena.jsonl -o report.html
  tlmcraft report run1.jsonl run2.jsonl run3.jsonl -o samples.html --pass-k 1,3
  tlmcraft report out/bench-plena.jsonl --json          # the summary as JSON, no HTML

exit codes: 0 report written, 2 usage error, unreadable input or no results

options)";

std::string timestamp() {
  std::time_t t = std::time(nullptr);
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) {
    char* end = nullptr;
    const long long v = std::strtoll(epoch, &end, 10);
    if (end && *end == '\0' && end != epoch) t = std::time_t(v);
  }
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

// "a.jsonl: 12 result(s), variant timing.mode=pipelined [0123abcd]" on stderr per file.
void print_file_variants(const std::string& path, const std::vector<nlohmann::json>& records,
                         const std::vector<std::string>& sources) {
  std::vector<nlohmann::json> mine;
  for (size_t i = 0; i < records.size(); ++i)
    if (sources[i] == path) mine.push_back(records[i]);
  for (const auto& g : harness::variant_groups(mine))
    std::cerr << path << ": " << g.records.size() << " result(s), variant " << g.label
              << (g.id.empty() ? "" : " [" + g.id.substr(0, 8) + "]") << "\n";
}

// Records of older runs (or of tools) without a level get it from the task registry.
void fill_levels(std::vector<nlohmann::json>& records) {
  for (auto& r : records) {
    if (!r.is_object() || (r.contains("level") && r["level"].is_number_integer())) continue;
    const std::string task = r.value("task", std::string());
    try {
      r["level"] = tasks::Registry::builtin().task(task).level;
    } catch (const std::exception&) {
      // not a known task: its level stays unknown
    }
  }
}

}  // namespace

// A `codesign explore` output directory: its summary.json as the co-design page.
int codesign_report(const std::string& dir, const po::variables_map& vm) {
  const std::string path = dir + "/summary.json";
  const nlohmann::json summary = nlohmann::json::parse(read_text_file(path), nullptr, false);
  if (!harness::is_codesign_summary(summary))
    throw InputError(path + ": not a codesign explore summary (tlmcraft codesign explore --out " + dir + " writes one)");
  const std::string title = vm["title"].defaulted() ? "tlmcraft co-design report" : vm["title"].as<std::string>();
  if (vm["json"].as<bool>()) {
    std::cout << summary.dump(2) << "\n";
    return 0;
  }
  write_text_file_atomically(vm["output"].as<std::string>(), harness::render_codesign_html(summary, title));
  std::cout << "wrote " << vm["output"].as<std::string>() << "\n";
  return 0;
}

int cmd_report(const Args& args) {
  po::options_description opts(kReportHelp);
  opts.add_options()
      ("help,h", "show this help")
      ("output,o", po::value<std::string>()->default_value("report.html"), "HTML file to write")
      ("title", po::value<std::string>()->default_value("tlmcraft suite report"), "report title")
      ("fast-p", po::value<std::string>()->default_value("0,1"), "comma list of p for fast_p")
      ("pass-k", po::value<std::string>()->default_value("1,5,10"), "comma list of k for pass@k")
      ("json", po::bool_switch(), "print the summary JSON to stdout instead of writing HTML")
      ("results", po::value<std::vector<std::string>>(), "results files (positional)");
  po::positional_options_description pos;
  pos.add("results", -1);
  po::variables_map vm;
  if (!parse_or_help(args, opts, pos, vm)) return vm.count("help") ? 0 : 2;
  if (!vm.count("results")) throw InputError("give at least one RESULTS.jsonl file (see tlmcraft report --help)");
  if (const auto& r = vm["results"].as<std::vector<std::string>>(); r.size() == 1 && fs::is_directory(r[0]))
    return codesign_report(r[0], vm);

  harness::HtmlReportOptions ro;
  ro.title = vm["title"].as<std::string>();
  try {
    ro.summary = harness::parse_summary_options(vm["fast-p"].as<std::string>(), vm["pass-k"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  }
  ro.summary.task_order = tasks::benchmark_task_order();
  std::vector<nlohmann::json> records;
  for (const auto& path : vm["results"].as<std::vector<std::string>>()) {
    harness::JsonlContents c;
    try {
      c = harness::read_jsonl(path);
    } catch (const std::runtime_error& e) {
      throw InputError(e.what());
    }
    for (const auto& w : c.warnings) std::cerr << "tlmcraft report: warning: " << w << "\n";
    for (auto& r : c.records) {
      records.push_back(std::move(r));
      ro.record_sources.push_back(path);
    }
    ro.sources.push_back(path);
    print_file_variants(path, records, ro.record_sources);
  }
  if (records.empty()) throw InputError("no results in the given files");
  fill_levels(records);
  if (const size_t n = harness::variants_per_platform(records); n > 1)
    std::cerr << "tlmcraft report: warning: the results hold up to " << n << " hardware/ISA variants of one platform; "
              << "the summary treats them as samples of one workload (use tlmcraft compare A B for an A/B comparison)\n";

  if (vm["json"].as<bool>()) {
    std::cout << harness::summary_to_json(harness::summarize(records, ro.summary)).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  }
  ro.generated = timestamp();
  const std::string out = vm["output"].as<std::string>();
  const std::string html = harness::render_html_report(records, ro);
  write_text_file_atomically(out, html);
  std::cerr << "wrote " << out << " (" << records.size() << " results, " << html.size() << " bytes)\n";
  return 0;
}

}  // namespace tlmcraft::cli
