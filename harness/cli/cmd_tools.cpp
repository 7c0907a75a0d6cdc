// tlmcraft list / isa / asm / baseline.
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>

#include "harness/cli/cli_util.h"
#include "harness/cli/commands.h"
#include "isa/aie_ml/isa_tables.h"
#include "isa/assembler.h"
#include "isa/encoding.h"
#include "isa/isa_doc.h"
#include "isa/isa_spec.h"
#include "platforms/plena/plena_config.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace tlmcraft::cli {
namespace {

const std::vector<std::string> kIsas = {"plena"};

isa::IsaSpec load_isa(const std::string& name) {
  if (std::find(kIsas.begin(), kIsas.end(), name) == kIsas.end())
    throw InputError("unknown ISA '" + name + "' (known: plena)");
  try {
    return isa::IsaSpec::load(isa::isa_yaml_path(name));
  } catch (const isa::IsaSpecError& e) {
    throw InputError(e.what());
  }
}

// Cycle notes for the ISA reference from a platform's default configuration.
std::map<std::string, std::string> latency_notes(const std::string& isa_name) {
  std::map<std::string, std::string> notes;
  if (isa_name != "plena") return notes;
  const plena::PlenaConfig c = plena::load_plena_config("default");
  for (const auto& [cls, cycles] : c.latency) {
    std::string s = std::to_string(cycles) + (cycles == 1 ? " cycle" : " cycles");
    if (c.ii_of(cls) != 1) s += "; pipelined mode: a new one every " + std::to_string(c.ii_of(cls)) + " cycles";
    notes[cls] = s;
  }
  notes["hbm"] = "set by the HBM model and the DMA engine (docs/platforms/plena.md)";
  return notes;
}

}  // namespace

int cmd_list(const Args& args) {
  po::options_description opts(
      "usage: tlmcraft list [platforms|isas|tasks] [--json]\n\nexamples:\n  tlmcraft list tasks\n"
      "  tlmcraft list tasks --json\n\noptions");
  opts.add_options()("help,h", "show this help")("json", po::bool_switch(), "JSON output")(
      "what", po::value<std::string>()->default_value("tasks"), "platforms, isas or tasks");
  po::positional_options_description pos;
  pos.add("what", 1);
  po::variables_map vm;
  if (!parse_or_help(args, opts, pos, vm)) return vm.count("help") ? 0 : 2;
  const std::string what = vm["what"].as<std::string>();
  const bool json = vm["json"].as<bool>();
  if (what == "platforms") {
    for (const auto& p : platform_names()) std::cout << p << "\n";
  } else if (what == "isas") {
    for (const auto& i : kIsas) std::cout << i << "\n";
    std::cout << "aie_ml     (VLIW bundles, isa/aie_ml/aie_ml.yaml; tlmcraft isa doc aie_ml)\n"
              << "riscv      (rv32imf_zve32x for Coral, assembled by GNU binutils; docs/isa/coral.md)\n";
  } else if (what == "tasks") {
    const auto& reg = tasks::Registry::builtin();
    std::cout << (json ? reg.list_json().dump(2) + "\n" : reg.list_text());
  } else {
    throw InputError("list: unknown '" + what + "' (platforms, isas, tasks)");
  }
  return 0;
}

int cmd_isa(const Args& args) {
  po::options_description opts(
      "usage: tlmcraft isa doc NAME [-o FILE] [--latencies]   render the ISA reference (Markdown) from its YAML\n"
      "       tlmcraft isa check NAME|FILE.yaml  validate an ISA description\n\n"
      "examples:\n  tlmcraft isa doc plena -o docs/isa/plena.md\n  tlmcraft isa check my_isa.yaml\n\noptions");
  opts.add_options()("help,h", "show this help")("action", po::value<std::string>(), "doc or check")(
      "name", po::value<std::string>(), "ISA name or YAML file")("output,o", po::value<std::string>(), "write to FILE")(
      "latencies", po::bool_switch(), "add each latency class's cycles from the platform's default config");
  po::positional_options_description pos;
  pos.add("action", 1).add("name", 1);
  po::variables_map vm;
  if (!parse_or_help(args, opts, pos, vm)) return vm.count("help") ? 0 : 2;
  if (!vm.count("action") || !vm.count("name")) throw InputError("isa: expected 'doc NAME' or 'check NAME'");
  const std::string action = vm["action"].as<std::string>(), name = vm["name"].as<std::string>();
  if (action == "check") {
    try {
      const isa::IsaSpec spec = name.find(".yaml") != std::string::npos ? isa::IsaSpec::load(name) : load_isa(name);
      std::cout << spec.name() << ": " << spec.instructions().size() << " instructions, " << spec.fields().size()
                << " fields, " << spec.register_classes().size() << " register classes: ok\n";
      return 0;
    } catch (const isa::IsaSpecError& e) {
      std::cerr << e.what() << "\n";
      return 1;
    }
  }
  if (action != "doc") throw InputError("isa: unknown action '" + action + "' (doc, check)");
  if (name == "aie_ml" || name == "aie-ml") {  // the VLIW ISA has its own YAML schema and generator
    const std::string md = isa::aie_ml::reference_markdown(isa::aie_ml::aie_isa_details());
    if (vm.count("output")) {
      std::ofstream out(vm["output"].as<std::string>());
      if (!out) throw InputError(vm["output"].as<std::string>() + ": cannot write");
      out << md;
    } else {
      std::cout << md;
    }
    return 0;
  }
  // Without --latencies the output is exactly docs/isa/<name>.md (the ISA knows no platform).
  const std::string md =
      isa::render_isa_markdown(load_isa(name), vm["latencies"].as<bool>() ? latency_notes(name) : std::map<std::string, std::string>{});
  if (vm.count("output")) {
    std::ofstream out(vm["output"].as<std::string>());
    if (!out) throw InputError(vm["output"].as<std::string>() + ": cannot write");
    out << md;
  } else {
    std::cout << md;
  }
  return 0;
}

int cmd_asm(const Args& args) {
  po::options_description opts(
      "usage: tlmcraft asm [--check | --list | --encode OUT.bin | --decode IN.bin] KERNEL [--isa plena]\n\n"
      "--check (default) reports every error as file:line:col with a hint, and instruction counts;\n"
      "--list prints PC, line, encoding and disassembly; --encode writes 32-bit little-endian words;\n"
      "--decode disassembles a binary.\n\nexamples:\n  tlmcraft asm kernel.asm\n"
      "  tlmcraft asm --list kernel.asm\n  tlmcraft asm --encode kernel.bin kernel.asm\n\noptions");
  opts.add_options()("help,h", "show this help")("isa", po::value<std::string>()->default_value("plena"), "ISA name")(
      "check", po::bool_switch(), "check only (default)")("list", po::bool_switch(), "print a listing")(
      "encode", po::value<std::string>(), "write the binary encoding to FILE")(
      "decode", po::value<std::string>(), "disassemble a binary FILE")("json", po::bool_switch(), "JSON output")(
      "kernel", po::value<std::string>(), "kernel file (positional)");
  po::positional_options_description pos;
  pos.add("kernel", 1);
  po::variables_map vm;
  if (!parse_or_help(args, opts, pos, vm)) return vm.count("help") ? 0 : 2;
  const isa::IsaSpec spec = load_isa(vm["isa"].as<std::string>());
  if (vm.count("decode")) {
    std::vector<uint32_t> words;
    std::string err;
    if (!isa::read_binary_file(vm["decode"].as<std::string>(), words, &err)) throw InputError(err);
    isa::Program prog;
    if (!isa::decode_program(spec, words, prog, &err)) {
      std::cerr << err << "\n";
      return 1;
    }
    std::cout << isa::disassemble_program(spec, prog);
    return 0;
  }
  if (!vm.count("kernel")) throw InputError("asm: missing KERNEL (see tlmcraft asm --help)");
  const std::string path = vm["kernel"].as<std::string>();
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  const bool ok = isa::assemble(spec, read_kernel_text(path), path, prog, diags);
  const isa::InstructionCounts counts = count_instructions(spec, prog);
  if (vm["json"].as<bool>()) {
    nlohmann::json j = {{"ok", ok}, {"instructions", counts.total}, {"by_class", counts.by_class},
                        {"by_unit", counts.by_unit}};
    j["diagnostics"] = nlohmann::json::array();
    for (const auto& d : diags) j["diagnostics"].push_back(d.format());
    std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    for (const auto& d : diags) std::cerr << d.format() << "\n";
  }
  if (!ok) return 1;
  if (vm["list"].as<bool>()) {
    for (size_t pc = 0; pc < prog.code.size(); ++pc)
      std::cout << std::setw(5) << pc << "  line " << std::setw(4) << prog.code[pc].line << "  " << std::hex
                << std::setw(8) << std::setfill('0') << isa::encode(spec, prog.code[pc]) << std::dec
                << std::setfill(' ') << "  " << isa::disassemble(spec, prog.code[pc]) << "\n";
  }
  if (vm.count("encode")) {
    std::string err;
    if (!isa::write_binary_file(vm["encode"].as<std::string>(), isa::encode_program(spec, prog), &err))
      throw InputError(err);
  }
  if (!vm["json"].as<bool>()) {
    std::cout << path << ": ok, " << counts.total << " instructions";
    for (const auto& [c, n] : counts.by_class) std::cout << ", " << c << " " << n;
    std::cout << "\n";
  }
  return 0;
}

int cmd_baseline(const Args& args) {
  po::options_description opts(
      "usage: tlmcraft baseline --platform P --task T --config C [-o FILE]\n\n"
      "Emits the baseline kernel (the speedup denominator) of a task configuration.\n\n"
      "examples:\n  tlmcraft baseline --platform plena --task gemm --config C5 -o gemm_c5.asm\n\noptions");
  add_platform_options(opts);
  opts.add_options()("task", po::value<std::string>(), "task name")("config", po::value<std::string>(), "C1..C5")(
      "output,o", po::value<std::string>(), "write to FILE");
  po::positional_options_description pos;
  po::variables_map vm;
  if (!parse_or_help(args, opts, pos, vm)) return vm.count("help") ? 0 : 2;
  if (!vm.count("task") || !vm.count("config")) throw InputError("baseline: --task and --config are required");
  const auto platform = make_platform_from(vm);
  std::string text;
  try {
    const auto inst = tasks::Registry::builtin().instance(vm["task"].as<std::string>(), platform->name(),
                                                           vm["config"].as<std::string>());
    text = tasks::baseline_kernel(inst, platform->config());
  } catch (const tasks::TaskError& e) {
    throw InputError(e.what());
  }
  if (vm.count("output")) {
    std::ofstream out(vm["output"].as<std::string>());
    if (!out) throw InputError(vm["output"].as<std::string>() + ": cannot write");
    out << text;
  } else {
    std::cout << text;
  }
  return 0;
}

}  // namespace tlmcraft::cli
