// tlmcraft codesign: the co-design loop's commands (docs/codesign.md). `mine` finds
// candidate instructions in the suite's kernels and writes them as ISA overlays.
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>

#include "agent/codesign/kernel_dataflow.h"
#include "agent/codesign/miner.h"
#include "agent/codesign/overlay_yaml.h"
#include "harness/cli/cli_util.h"
#include "harness/cli/commands.h"
#include "harness/cli/job_selection.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace tlmcraft::cli {
namespace {

using nlohmann::json;
namespace codesign = agent::codesign;

const char* kCodesignHelp = R"(usage: tlmcraft codesign mine --platform P [options]

mine: runs the dataflow analysis of the suite's kernels (the baselines, or the kernels
of --kernels DIR named as `bench` names them), enumerates the convex subgraphs of every
straight-line region within the platform's register-port limits, merges isomorphic ones
across kernels and scores each by the cycles it would save over the suite (dynamic
instances x (its steps' cycles - the platform's estimate for one fused instruction)).
Writes the best --top candidates to DIR/candidates.yaml and each as a ready ISA overlay
DIR/<NAME>.yaml (use it with --isa-ext). docs/codesign.md says how each figure is made.

examples:
  tlmcraft codesign mine --platform plena --configs C1,C2 --out out/mine
  tlmcraft codesign mine --platform plena --tasks silu,softmax --top 5 --out out/mine --json
  tlmcraft run --platform plena --isa-ext out/mine/CD0.yaml --task silu --config C1 kernel.asm

exit codes: 0 ok; 2 usage or input error

options)";

std::vector<codesign::MinedKernel> suite_kernels(const po::variables_map& vm, const std::string& platform,
                                                 const json& hardware) {
  JobSelection sel;
  sel.platforms = {platform};
  if (vm.count("tasks")) sel.tasks = split_lists(vm["tasks"].as<std::vector<std::string>>());
  if (vm.count("configs")) sel.configs = split_lists(vm["configs"].as<std::vector<std::string>>());
  if (vm.count("level")) sel.levels = split_lists(vm["level"].as<std::vector<std::string>>());
  if (vm.count("kernels")) sel.kernel_dir = vm["kernels"].as<std::string>();
  const SelectedJobs selected = select_jobs(sel);
  std::vector<codesign::MinedKernel> kernels;
  for (const harness::SuiteJob& job : selected.jobs) {
    if (job.known_result) continue;  // unsupported cell
    codesign::MinedKernel k;
    k.name = job.task + "/" + job.config;
    k.hardware = hardware;
    if (job.kernel == "baseline") {
      const auto inst = tasks::Registry::builtin().instance(job.task, platform, job.config);
      k.file = tasks::baseline_file_name(inst);
      k.text = tasks::baseline_kernel(inst, hardware["config"]);
    } else {
      k.file = job.kernel;
      k.text = read_kernel_text(job.kernel);
    }
    kernels.push_back(std::move(k));
  }
  if (kernels.empty()) throw InputError("codesign mine: no kernel selected on platform '" + platform + "'");
  return kernels;
}

std::string table(const json& doc) {
  std::ostringstream out;
  out << std::left << std::setw(6) << "name" << std::right << std::setw(14) << "cycles saved" << std::setw(12)
      << "instances" << std::setw(11) << "area mm2" << "  steps\n";
  for (const json& c : doc["candidates"]) {
    std::string steps = c["signature"].get<std::string>();
    for (char& ch : steps)
      if (ch == '\n') ch = ';';
    out << std::left << std::setw(6) << c["name"].get<std::string>() << std::right << std::setw(14)
        << std::fixed << std::setprecision(0) << c["estimate"]["cycles_saved"].get<double>() << std::setw(12)
        << c["estimate"]["dynamic_instances"].get<uint64_t>() << std::setw(11) << std::setprecision(4)
        << c["estimate"]["area_mm2"].get<double>() << "  " << steps << "\n";
  }
  return out.str();
}

void write_outputs(const std::string& dir, const json& doc) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError("codesign mine: cannot create '" + dir + "': " + ec.message());
  write_text_file_atomically(dir + "/candidates.yaml", codesign::to_yaml(doc));
  for (const json& c : doc["candidates"]) {
    std::ostringstream head;
    head << "# " << c["name"].get<std::string>() << ", mined by tlmcraft codesign mine: estimated "
         << c["estimate"]["cycles_saved"].get<double>() << " cycles saved over "
         << c["estimate"]["dynamic_instances"].get<uint64_t>() << " dynamic instances\n# kernels:";
    for (auto it = c["provenance"].begin(); it != c["provenance"].end(); ++it)
      head << " " << it.key() << " (" << it.value().get<uint64_t>() << ")";
    head << "\n";
    write_text_file_atomically(dir + "/" + c["name"].get<std::string>() + ".yaml",
                               head.str() + codesign::to_yaml(c["overlay"]));
  }
}

int mine(const Args& args) {
  po::options_description opts(kCodesignHelp);
  add_platform_options(opts);
  opts.add_options()("help,h", "show this help")(
      "tasks", po::value<std::vector<std::string>>()->composing(), "tasks, comma list (default: all)")(
      "configs", po::value<std::vector<std::string>>()->composing(), "configurations, comma list (default: all)")(
      "level", po::value<std::vector<std::string>>()->composing(), "only tasks of these levels (1, 2, 3)")(
      "kernels", po::value<std::string>(), "mine the kernels of DIR instead of the baselines")(
      "top", po::value<int>()->default_value(10), "candidates kept (1..1000)")(
      "out,o", po::value<std::string>(), "write DIR/candidates.yaml and one overlay per candidate")(
      "json", po::bool_switch(), "print the candidates document as JSON");
  po::variables_map vm;
  if (!parse_or_help(args, opts, {}, vm)) return vm.count("help") ? 0 : 2;
  if (!vm.count("platform")) throw InputError("codesign mine: --platform is required");
  const int top = vm["top"].as<int>();
  if (top < 1 || top > 1000) throw InputError("codesign mine: --top must be 1..1000, not " + std::to_string(top));
  auto p = make_platform_from(vm);
  const codesign::DataflowAdapter* adapter = codesign::find_dataflow_adapter(p->name());
  if (!adapter) throw InputError("codesign mine: platform '" + p->name() + "' has no co-design adapter");
  const json hardware = {{"platform", p->name()}, {"config", p->config()}};
  std::vector<codesign::MinedCandidate> found;
  try {
    found = codesign::mine(*adapter, suite_kernels(vm, p->name(), hardware), {static_cast<size_t>(top)});
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("codesign mine: ") + e.what());
  }
  const json doc = codesign::candidates_document(*adapter, p->name(), found, "CD");
  if (vm.count("out")) write_outputs(vm["out"].as<std::string>(), doc);
  std::cout << (vm["json"].as<bool>() ? doc.dump(2) + "\n" : table(doc));
  if (doc.contains("note") && !vm["json"].as<bool>()) std::cout << "note: " << doc["note"].get<std::string>() << "\n";
  return 0;
}

int cmd_codesign(const Args& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << "usage: tlmcraft codesign mine --platform P [options]   (tlmcraft codesign mine --help)\n";
    return args.empty() ? 2 : 0;
  }
  const Args rest(args.begin() + 1, args.end());
  if (args[0] == "mine") return mine(rest);
  std::cerr << "tlmcraft codesign: unknown subcommand '" << args[0] << "' (known: mine)\n";
  return 2;
}

const bool registered = register_command("codesign", cmd_codesign, "co-design: mine candidate instructions");

}  // namespace
}  // namespace tlmcraft::cli
