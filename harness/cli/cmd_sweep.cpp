// tlmcraft sweep: one suite run over hardware/ISA variants x tasks x configs x kernels into
// one results store, resumable per variant, then a table per variant against a reference.
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>

#include <boost/program_options.hpp>

#include "harness/cli/cli_util.h"
#include "harness/cli/commands.h"
#include "harness/cli/executor_options.h"
#include "harness/cli/job_selection.h"
#include "harness/cli/resume_notice.h"
#include "harness/provenance.h"
#include "harness/suite_runner.h"
#include "harness/sweep_html.h"
#include "harness/sweep_report.h"
#include "harness/sweep_spec.h"

namespace po = boost::program_options;

namespace tlmcraft::cli {
namespace {

const char* kSweepHelp = R"(usage: tlmcraft sweep [SPEC.yaml] [options]

Runs the selected tasks x configs x kernels (baselines, or --kernels DIR as in bench) on
every variant of the hardware or ISA: a grid over platform-config keys (--grid, the
cartesian product), config files (--grid platform_config=a.yaml,b.yaml), ISA directories
(--grid isa_dir=DIR1,DIR2), ISA overlays (--grid isa_ext=none,A.yaml,B.yaml: one per
variant, after any --isa-ext; A.yaml+B.yaml stacks two; none is the shipped ISA), and/or
a list (--variant). All jobs go through the same
parallel, resumable suite runner as bench into ONE results store; every record carries
its variant's provenance (overrides, config and ISA hashes, tlmcraft version and commit)
and the variant id is part of the resume key, so rerunning the same sweep only runs
what is missing and another sweep into the same store never reuses other variants'
results. Prints per variant the passes and the geomean speedup against the reference
variant (the first, or --reference), and the cycles table; --html writes the sweep page.

A sweep file (YAML; relative paths are relative to it):
  platform: plena
  levels: [1]                 # or tasks: [gemv, silu]
  configs: [C1, C2, C3]
  kernels: baseline           # or a kernel directory
  set: {timing.mode: pipelined}          # every variant
  grid:
    timing.dma.prefetch.bytes_per_cycle: [16, 32, 64, 128]
    arch.vlen: [64, 128]
  variants:                   # optional list, crossed with the grid
    - {name: stock}
    - {name: slow-exp, set: {timing.latency.vector_exp: 6}}
    - {name: silu-op, isa_ext: [my_silu.yaml]}   # ISA overlays (isa_ext: at the top: every variant)
  reference: "timing.dma.prefetch.bytes_per_cycle=64, arch.vlen=64"
  out: out/sweep-plena.jsonl
  jobs: 2
Command-line options add to (or replace) the file's fields.

examples:
  tlmcraft sweep sweep.yaml --html sweep.html
  tlmcraft sweep --platform plena --level 1 --config C1,C2,C3 --set timing.mode=pipelined \
      --grid timing.dma.prefetch.bytes_per_cycle=16,32,64,128 --grid arch.vlen=64,128
  tlmcraft sweep --platform plena --task gemv --variant 'stock:' --variant 'half: timing.dma.prefetch.bytes_per_cycle=32'
  tlmcraft compare out/sweep-plena.jsonl --a stock --b half

exit codes: 0 every job ran and every supported job passed; 1 some job failed; 2 usage
or input error; 130 interrupted (rerun the same command to resume)

options)";

void apply_cli(const po::variables_map& vm, harness::SweepSpec& s) {
  const auto list = [&](const char* name) { return split_lists(vm[name].as<std::vector<std::string>>()); };
  if (vm.count("platform")) s.platforms = list("platform");
  if (vm.count("task")) s.tasks = list("task");
  if (vm.count("config")) s.configs = list("config");
  if (vm.count("level")) s.levels = list("level");
  if (vm.count("kernels")) s.kernel_dir = vm["kernels"].as<std::string>();
  if (vm["baseline"].as<bool>()) s.kernel_dir.clear();
  if (vm.count("platform-config")) s.base.platform_config = vm["platform-config"].as<std::string>();
  if (vm.count("isa-dir")) s.base.isa_dir = vm["isa-dir"].as<std::string>();
  else if (s.base.isa_dir.empty())
    if (const char* d = std::getenv("TLMCRAFT_ISA_DIR")) s.base.isa_dir = d;
  if (vm.count("isa-ext"))
    for (const auto& f : vm["isa-ext"].as<std::vector<std::string>>()) s.base.isa_ext.push_back(f);
  if (vm.count("set"))
    for (const auto& o : vm["set"].as<std::vector<std::string>>()) s.base.overrides.push_back(o);
  if (vm.count("grid"))
    for (const auto& g : vm["grid"].as<std::vector<std::string>>()) s.grid.push_back(harness::parse_grid_option(g));
  if (vm.count("variant"))
    for (const auto& v : vm["variant"].as<std::vector<std::string>>()) s.variants.push_back(harness::parse_variant_option(v));
  if (vm.count("reference")) s.reference = vm["reference"].as<std::string>();
  if (vm.count("out")) s.out = vm["out"].as<std::string>();
  if (!vm["jobs"].defaulted() || s.jobs == 0) s.jobs = vm["jobs"].as<unsigned>();
  if (!vm["timeout"].defaulted()) s.timeout_seconds = vm["timeout"].as<double>();
}

size_t reference_index(const std::vector<harness::VariantSpec>& variants, const std::string& reference) {
  if (reference.empty()) return 0;
  for (size_t i = 0; i < variants.size(); ++i)
    if (variants[i].name == reference) return i;
  std::string names;
  for (const auto& v : variants) names += "\n  " + v.name;
  throw InputError("--reference '" + reference + "' is none of the sweep's variants:" + names);
}

}  // namespace

int cmd_sweep(const Args& args) {
  po::options_description opts(kSweepHelp);
  opts.add_options()
      ("help,h", "show this help")
      ("spec", po::value<std::string>(), "sweep file (YAML, positional)")
      ("platform", po::value<std::vector<std::string>>()->composing(), "platform(s), comma list")
      ("task", po::value<std::vector<std::string>>()->composing(), "task(s), comma list (default: all)")
      ("config", po::value<std::vector<std::string>>()->composing(), "configuration(s) C1..C5 (default: all)")
      ("level", po::value<std::vector<std::string>>()->composing(), "only tasks of these levels (1, 2, 3, cpu)")
      ("baseline", po::bool_switch(), "evaluate the baseline kernels (the default)")
      ("kernels", po::value<std::string>(), "evaluate the kernels in DIR (naming: tlmcraft bench --help)")
      ("grid", po::value<std::vector<std::string>>()->composing(), "KEY=v1,v2,...: a grid dimension (repeatable)")
      ("variant", po::value<std::vector<std::string>>()->composing(), "'NAME: KEY=V KEY=V': a listed variant (repeatable)")
      ("set", po::value<std::vector<std::string>>()->composing(), "KEY=VALUE for every variant")
      ("platform-config", po::value<std::string>(), "platform config name or YAML file for every variant")
      ("isa-dir", po::value<std::string>(), "ISA descriptions from DIR for every variant")
      ("isa-ext", po::value<std::vector<std::string>>()->composing(),
       "FILE: an ISA overlay for every variant (repeatable, in order; --grid isa_ext=A.yaml,B.yaml varies it)")
      ("reference", po::value<std::string>(), "the variant (by name) the others are compared with (default: the first)")
      ("out,o", po::value<std::string>(), "results store JSONL (default: out/sweep-<platform>.jsonl)")
      ("jobs,j", po::value<unsigned>()->default_value(0), "parallel workers (default: number of CPUs)")
      ("timeout", po::value<double>()->default_value(300), "seconds per job before its worker is killed (0: none)")
      ("fresh", po::bool_switch(), "discard the store's previous results first")
      ("trials", po::value<int>(), "trials per evaluation, passed on")
      ("seed", po::value<uint64_t>(),
       "first trial's seed, passed on (default: 1 for the baselines, so every variant sees the same inputs; "
       "fresh from the OS for --kernels)")
      ("html", po::value<std::string>(), "write the sweep page (HTML) to this file")
      ("json", po::bool_switch(), "print the sweep tables as JSON (schema tlmcraft.sweep/1)")
      ("dry-run", po::bool_switch(), "list the variants and the job count, run nothing")
      ("quiet,q", po::bool_switch(), "no progress output");
  opts.add(executor_options());
  po::positional_options_description pos;
  pos.add("spec", 1);
  po::variables_map vm;
  if (!parse_or_help(args, opts, pos, vm)) return vm.count("help") ? 0 : 2;
  if (vm["baseline"].as<bool>() && vm.count("kernels")) throw InputError("--baseline and --kernels exclude each other");

  harness::SweepSpec spec = vm.count("spec") ? harness::load_sweep_yaml(vm["spec"].as<std::string>()) : harness::SweepSpec{};
  apply_cli(vm, spec);
  const std::vector<harness::VariantSpec> variants = harness::expand_variants(spec);
  const size_t reference = reference_index(variants, spec.reference);

  JobSelection selection;
  selection.platforms = spec.platforms;
  selection.tasks = spec.tasks;
  selection.configs = spec.configs;
  selection.levels = spec.levels;
  selection.kernel_dir = spec.kernel_dir;
  const SelectedJobs selected = select_jobs(selection);
  std::vector<std::string> extra;
  if (vm.count("trials")) extra.insert(extra.end(), {"--trials", std::to_string(vm["trials"].as<int>())});
  if (vm.count("seed")) extra.insert(extra.end(), {"--seed", std::to_string(vm["seed"].as<uint64_t>())});
  else if (spec.kernel_dir.empty()) extra.insert(extra.end(), {"--seed", "1"});

  // Every variant's jobs; variants that are the same hardware (same id) share results.
  std::vector<harness::SuiteJob> jobs;
  std::vector<harness::SweepVariantResult> results(variants.size());
  std::map<std::string, std::string> first_name_of_id;
  for (size_t i = 0; i < variants.size(); ++i) {
    std::vector<harness::SuiteJob> vj = with_variant(selected.jobs, variants[i], extra);
    results[i].name = variants[i].name;
    if (vj.empty()) continue;
    results[i].id = vj.front().variant;
    results[i].provenance = vj.front().provenance;
    const auto [it, fresh_id] = first_name_of_id.emplace(results[i].id, variants[i].name);
    if (!fresh_id) {
      std::cerr << "sweep: variants '" << it->second << "' and '" << variants[i].name
                << "' are the same hardware and ISA (variant " << results[i].id.substr(0, 8) << "); they share results\n";
      continue;
    }
    jobs.insert(jobs.end(), vj.begin(), vj.end());
  }
  if (jobs.empty()) throw InputError("nothing to run: no job matches the selection");
  std::string out = spec.out;
  if (out.empty()) out = "out/sweep-" + joined(selected.platforms, "+") + ".jsonl";

  const bool quiet = vm["quiet"].as<bool>();
  if (!selected.missing.empty())
    std::cerr << "tlmcraft sweep: " << selected.missing.size() << " job(s) per variant have no kernel file in '"
              << spec.kernel_dir << "' and are not run\n";
  std::cerr << "sweep: " << variants.size() << " variant(s) x " << selected.jobs.size() << " job(s) = " << jobs.size()
            << " jobs, results in " << out << "\n";
  for (size_t i = 0; i < variants.size(); ++i)
    std::cerr << "  v" << i + 1 << (i == reference ? "*" : " ") << " " << variants[i].name << "  ["
              << results[i].id.substr(0, 8) << "]\n";
  if (vm["dry-run"].as<bool>()) return 0;

  harness::SuiteOptions so;
  so.out_path = out;
  so.jobs = spec.jobs;
  so.timeout_seconds = spec.timeout_seconds;
  so.resume = !vm["fresh"].as<bool>();
  so.command = harness::tlmcraft_run_command(self_exe());
  so.progress = quiet ? harness::ProgressMode::Quiet : harness::ProgressMode::Auto;
  if (so.resume) print_resume_notice(std::cerr, "sweep", out, jobs);
  harness::SuiteOutcome outcome;
  try {
    outcome = make_executor(vm)->run(jobs, so);
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
  for (const auto& w : outcome.warnings) std::cerr << "tlmcraft sweep: warning: " << w << "\n";

  for (const auto& r : outcome.results) {
    const std::string id = r.contains("job") && r["job"].is_object() ? r["job"].value("variant", "") : "";
    for (auto& v : results)
      if (v.id == id) v.records.push_back(r);
  }
  const harness::SweepTable table = harness::build_sweep_table(results, reference);
  if (vm["json"].as<bool>()) std::cout << harness::sweep_to_json(table).dump(2) << "\n";
  else std::cout << harness::sweep_to_text(table) << "results: " << out << "\n";
  if (vm.count("html")) {
    const std::string html_path = vm["html"].as<std::string>();
    write_text_file_atomically(html_path, harness::render_sweep_html(table, "tlmcraft sweep: " + out));
    std::cerr << "wrote " << html_path << "\n";
  }
  if (outcome.interrupted) {
    std::cerr << "tlmcraft sweep: interrupted; " << outcome.skipped + outcome.ran << " of " << outcome.total
              << " results saved in " << out << ", run the same command again to resume\n";
    return 130;
  }
  return outcome.failed > 0 || !selected.missing.empty() ? 1 : 0;
}

}  // namespace tlmcraft::cli
