// tlmcraft compare: A/B comparison of two result sets or two variants of a sweep store.
#include <iostream>

#include <boost/program_options.hpp>

#include "harness/cli/cli_util.h"
#include "harness/cli/commands.h"
#include "harness/compare.h"
#include "harness/compare_html.h"
#include "harness/suite_runner.h"

namespace po = boost::program_options;

namespace tlmcraft::cli {
namespace {

const char* kCompareHelp = R"(usage: tlmcraft compare A.jsonl B.jsonl [options]
       tlmcraft compare STORE.jsonl --a VARIANT --b VARIANT [options]

Compares two result sets cell by cell (platform, task, config): the cycle ratio
speedup = A cycles / B cycles (above 1: B is faster), geometric means per task, level
and platform, the regressions and wins beyond --threshold, status changes (pass on one
side, fail on the other) and the cells present on one side only. A is the reference:
compare the reference hardware's baselines (A) with a variant's baselines or kernels (B)
and the speedup shows the hardware or kernel change's effect. When a side has several
kernels for a cell, its fastest passing one counts. Energy ratios (B/A) are given when
the records carry energy estimates.

A file holding several variants (a sweep store) needs --a / --b to pick one: a variant's
name, its label (the overrides, as `tlmcraft report` lists them) or a prefix of its id.

examples:
  tlmcraft compare out/bw64.jsonl out/bw32.jsonl
  tlmcraft compare out/sweep.jsonl --a 'timing.dma.prefetch.bytes_per_cycle=64' \
                                   --b 'timing.dma.prefetch.bytes_per_cycle=32'
  tlmcraft compare base.jsonl new.jsonl --json > cmp.json
  tlmcraft compare base.jsonl new.jsonl -o compare.html

exit codes: 0 compared, 2 usage error, unreadable input or an ambiguous variant

options)";

std::vector<nlohmann::json> read_records(const std::string& path) {
  harness::JsonlContents c;
  try {
    c = harness::read_jsonl(path);
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
  for (const auto& w : c.warnings) std::cerr << "tlmcraft compare: warning: " << w << "\n";
  if (c.records.empty()) throw InputError(path + ": no results");
  return std::move(c.records);
}

// One side: the variant `selector` picks in `path` (or its only variant).
std::pair<std::vector<nlohmann::json>, std::string> side(const std::string& path, const std::string& selector) {
  const auto groups = harness::variant_groups(read_records(path));
  try {
    const harness::VariantGroup& g = harness::select_variant(groups, selector, path);
    const std::string label = groups.size() > 1 || g.label != "default" ? path + " [" + g.label + "]" : path;
    return {g.records, label};
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  }
}

}  // namespace

int cmd_compare(const Args& args) {
  po::options_description opts(kCompareHelp);
  opts.add_options()
      ("help,h", "show this help")
      ("a", po::value<std::string>()->default_value(""), "variant of the first file (A, the reference)")
      ("b", po::value<std::string>()->default_value(""), "variant of the second file, or of the only file (B)")
      ("threshold", po::value<double>()->default_value(0.02), "a speedup below 1-T is a regression, above 1+T a win")
      ("json", po::bool_switch(), "print the comparison as JSON (schema tlmcraft.compare/1)")
      ("output,o", po::value<std::string>(), "also write the comparison as an HTML file")
      ("files", po::value<std::vector<std::string>>(), "results files (positional)");
  po::positional_options_description pos;
  pos.add("files", -1);
  po::variables_map vm;
  if (!parse_or_help(args, opts, pos, vm)) return vm.count("help") ? 0 : 2;
  const auto files = vm.count("files") ? vm["files"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (files.empty() || files.size() > 2)
    throw InputError("give two results files, or one store with --a and --b (see tlmcraft compare --help)");
  const double threshold = vm["threshold"].as<double>();
  if (!(threshold >= 0 && threshold < 1)) throw InputError("--threshold must be in [0, 1)");
  const std::string sel_a = vm["a"].as<std::string>(), sel_b = vm["b"].as<std::string>();
  if (files.size() == 1 && (sel_a.empty() || sel_b.empty()))
    throw InputError("with one file, name both variants: --a VARIANT --b VARIANT");

  const auto [a, a_label] = side(files.front(), sel_a);
  const auto [b, b_label] = side(files.back(), sel_b);
  harness::CompareOptions co;
  co.a_label = a_label;
  co.b_label = b_label;
  co.threshold = threshold;
  const harness::Comparison c = harness::compare_results(a, b, co);
  if (vm["json"].as<bool>()) std::cout << harness::comparison_to_json(c).dump(2) << "\n";
  else std::cout << harness::comparison_to_text(c);
  if (vm.count("output")) {
    const std::string out = vm["output"].as<std::string>();
    write_text_file_atomically(out, harness::render_compare_html(c));
    std::cerr << "wrote " << out << "\n";
  }
  return 0;
}

}  // namespace tlmcraft::cli
