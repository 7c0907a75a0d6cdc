// tlmcraft run: runs a kernel on a platform (raw run), or evaluates it against a task.
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>

#include "harness/cli/cli_util.h"
#include "harness/cli/commands.h"
#include "harness/evaluate.h"
#include "harness/run_report.h"
#include "harness/variant_uses.h"
#include "platforms/registry.h"

namespace po = boost::program_options;

namespace tlmcraft::cli {
namespace {

const char* kRunHelp = R"(usage: tlmcraft run --platform P [options] KERNEL
       tlmcraft run --platform P --task T --config C [options] (KERNEL | --baseline)

Raw run: assembles KERNEL, loads --hbm-in files, runs, prints cycles, instructions by
class, per-unit utilisation and the stop reason. With --task/--config the kernel is
evaluated: fresh random inputs per trial, outputs poisoned, checked against the
reference, one report (text, or JSON with --json).

examples:
  tlmcraft run --platform plena kernels/silu.asm --hbm-in x.bin@0 --dump vram:0:64
  tlmcraft run --platform plena --set timing.mode=pipelined gemm.asm --perfetto gemm.json
  tlmcraft run --platform plena --task silu --config C1 my_silu.asm --json
  tlmcraft run --platform plena --task gemm --config C5 --baseline

options)";

int raw_run(Platform& p, const std::string& kernel, const po::variables_map& vm, bool json) {
  isa::Program prog;
  if (!assemble_file(p, kernel, prog, std::cerr)) return 1;
  p.load(prog);
  for (const auto& spec : vm["hbm-in"].as<std::vector<std::string>>()) load_input_file(p, spec);
  const RunResult r = p.run(limits_from(vm), traces_from(vm));
  nlohmann::json dumps = nlohmann::json::array();
  std::ostringstream dump_text;
  for (const auto& spec : vm["dump"].as<std::vector<std::string>>()) dump_memory(p, spec, dumps, dump_text);
  nlohmann::json j = r.to_json();
  harness::add_run_estimates(j, p);
  if (json) {
    j["platform"] = p.name();
    j["config"] = p.config();
    j["kernel"] = kernel;
    j["dumps"] = dumps;
    // Kernel paths may hold any bytes: keep the JSON valid.
    std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << format_run(p, prog, r) << harness::variant_uses_text(j.value("isa_variant_uses", nlohmann::json::array()))
              << dump_text.str();
  }
  return r.ok() ? 0 : 1;
}

}  // namespace

int cmd_run(const Args& args) {
  po::options_description opts(kRunHelp);
  add_platform_options(opts);
  add_run_options(opts);
  opts.add_options()
      ("task", po::value<std::string>(), "evaluate against this task")
      ("config", po::value<std::string>(), "task configuration C1..C5")
      ("baseline", po::bool_switch(), "evaluate the platform's baseline kernel for the task")
      ("trials", po::value<int>()->default_value(3), "trials with fresh inputs (evaluation)")
      ("seed", po::value<uint64_t>(), "first trial's seed (evaluation; default: fresh from the OS, printed in the report)")
      ("hbm-in", po::value<std::vector<std::string>>()->composing()->default_value({}, ""),
       "FILE[@ADDR]: load a binary file into HBM at byte ADDR (default 0)")
      ("dump", po::value<std::vector<std::string>>()->composing()->default_value({}, ""),
       "MEMORY:ADDR:LEN: print a memory range after the run (e.g. vram:0:64)")
      ("json", po::bool_switch(), "print one JSON object instead of text")
      ("kernel", po::value<std::string>(), "kernel file (positional)");
  po::positional_options_description pos;
  pos.add("kernel", 1);
  po::variables_map vm;
  if (!parse_or_help(args, opts, pos, vm)) return vm.count("help") ? 0 : 2;

  const bool json = vm["json"].as<bool>();
  auto platform = make_platform_from(vm);
  if (vm.count("task") || vm.count("config")) {
    if (!vm.count("task") || !vm.count("config")) throw InputError("--task and --config go together");
    EvalOptions o;
    o.platform = vm["platform"].as<std::string>();
    o.platform_config = vm["platform-config"].as<std::string>();
    o.overrides = vm["set"].as<std::vector<std::string>>();
    o.task = vm["task"].as<std::string>();
    o.config = vm["config"].as<std::string>();
    o.trials = vm["trials"].as<int>();
    if (vm.count("seed")) o.seed = vm["seed"].as<uint64_t>();
    o.limits = limits_from(vm);
    o.traces = traces_from(vm);
    if (vm["baseline"].as<bool>()) {
      o.use_baseline = true;
    } else {
      if (!vm.count("kernel")) throw InputError("give a KERNEL file or --baseline");
      o.kernel_path = vm["kernel"].as<std::string>();
    }
    const nlohmann::json report = harness::evaluate_run(*platform, o);
    std::cout << (json ? report.dump() + "\n" : format_report(report));
    return report.value("status", "") == "pass" ? 0 : 1;
  }
  if (!vm.count("kernel")) throw InputError("missing KERNEL (see tlmcraft run --help)");
  return raw_run(*platform, vm["kernel"].as<std::string>(), vm, json);
}

}  // namespace tlmcraft::cli
