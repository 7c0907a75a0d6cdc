// tlmcraft list / isa / asm / baseline.
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>

#include "harness/cli/cli_util.h"
#include "harness/cli/commands.h"
#include "isa/encoding.h"
#include "isa/isa_overlay.h"
#include "isa/isa_spec.h"
#include "isa/isa_variant.h"
#include "isa/isa_tools.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace tlmcraft::cli {
namespace {

// The registered tools of an ISA (each platform registers the ISA it runs).
const isa::IsaTools& isa_tools(const std::string& name) {
  if (const isa::IsaTools* t = isa::find_isa_tools(name)) return *t;
  throw InputError("unknown ISA '" + name + "' (known: " + isa::isa_tools_names() + ")");
}

// The ISA whose kernels use the file's extension (when --isa is not given).
const isa::IsaTools& isa_for_kernel(const std::string& path) {
  const size_t dot = path.find_last_of('.');
  const std::string ext = dot == std::string::npos ? "" : path.substr(dot);
  std::vector<const isa::IsaTools*> match;
  for (const isa::IsaTools* t : isa::all_isa_tools())
    if (std::find(t->kernel_extensions.begin(), t->kernel_extensions.end(), ext) != t->kernel_extensions.end())
      match.push_back(t);
  if (match.size() == 1) return *match.front();
  std::string names;
  for (const isa::IsaTools* t : match) names += (names.empty() ? "" : ", ") + t->name;
  throw InputError(path + ": " +
                   (match.empty() ? "no ISA reads '" + ext + "' kernels" : "several ISAs read '" + ext + "' kernels (" + names + ")") +
                   "; pass --isa NAME (known: " + isa::isa_tools_names() + ")");
}

void write_output(const po::variables_map& vm, const std::string& text) {
  if (!vm.count("output")) {
    std::cout << text;
    return;
  }
  std::ofstream out(vm["output"].as<std::string>());
  if (!out) throw InputError(vm["output"].as<std::string>() + ": cannot write");
  out << text;
}

// An overlay file (`isa:` and no `name:`) checked as its ISA merged with it, after the
// command's own --isa-ext overlays.
bool check_overlay_file(const std::string& path, isa::IsaCheck& c) {
  std::string isa_name;
  try {
    isa_name = isa::overlay_isa_name(path);
  } catch (const isa::OverlayError&) {
    return false;
  }
  isa::IsaVariant v = isa::current_isa_variant();
  v.overlays.push_back(path);
  const isa::ScopedIsaVariant scope(v);
  c = isa_tools(isa_name).check("");
  return true;
}

int isa_check(const std::string& name, bool json) {
  isa::IsaCheck c;
  const bool is_file = name.size() > 5 && name.compare(name.size() - 5, 5, ".yaml") == 0;
  if (!is_file) {
    c = isa_tools(name).check("");
  } else {
    std::string isa_name;
    try {
      isa_name = isa::isa_name_of_file(name);
    } catch (const std::runtime_error& e) {
      if (!check_overlay_file(name, c)) throw InputError(e.what());
    }
    // A file for a registered ISA gets that ISA's validator; any other the generic schema's.
    if (!isa_name.empty()) {
      const isa::IsaTools* t = isa::find_isa_tools(isa_name);
      c = t ? t->check(name) : isa::check_table_isa_file(name);
    }
  }
  if (json) {
    std::cout << c.to_json().dump(2) << "\n";
  } else if (c.ok()) {
    std::cout << c.isa << ": " << c.summary << ": ok\n";
  } else {
    for (const auto& e : c.errors) std::cerr << e << "\n";
  }
  return c.ok() ? 0 : 2;  // errors in the description are input errors
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
    if (json) std::cout << nlohmann::json(platform_names()).dump(2) << "\n";
    else for (const auto& p : platform_names()) std::cout << p << "\n";
  } else if (what == "isas") {
    nlohmann::json j = nlohmann::json::array();
    for (const isa::IsaTools* t : isa::all_isa_tools()) {
      j.push_back({{"name", t->name}, {"summary", t->summary}, {"kernel_extensions", t->kernel_extensions}});
      if (!json) std::cout << std::left << std::setw(10) << t->name << " " << t->summary << "\n";
    }
    if (json) std::cout << j.dump(2) << "\n";
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
      "usage: tlmcraft isa doc NAME [-o FILE] [--latencies] [--json]   the ISA reference (Markdown)\n"
      "       tlmcraft isa check NAME|FILE.yaml [--json]  validate an ISA description or overlay\n"
      "       tlmcraft isa header NAME --isa-ext FILE [-o FILE.h]  C wrappers of the overlay's custom instructions\n\n"
      "A FILE.yaml is checked by the validator of the ISA its `name:` names (tlmcraft list isas),\n"
      "any other name by the generic schema (docs/isa/README.md); an overlay (`isa: NAME`, no\n"
      "`name:`) is checked merged over NAME. --isa-dir DIR reads NAME's description from DIR\n"
      "(default TLMCRAFT_ISA_DIR); --isa-ext FILE merges an overlay over it (repeatable;\n"
      "docs/isa-extensions.md), for check and doc alike.\n\n"
      "examples:\n  tlmcraft isa doc plena -o docs/isa/plena.md\n  tlmcraft isa check my_isa.yaml\n"
      "  tlmcraft isa check aie_ml --json\n  tlmcraft isa check my_silu.yaml\n"
      "  tlmcraft isa doc plena --isa-ext my_silu.yaml\n\noptions");
  opts.add_options()("help,h", "show this help")("action", po::value<std::string>(), "doc or check")(
      "name", po::value<std::string>(), "ISA name or YAML file")("output,o", po::value<std::string>(), "write to FILE")(
      "latencies", po::bool_switch(), "add each latency class's cycles from the platform's default config")(
      "json", po::bool_switch(), "JSON output");
  add_isa_variant_options(opts);
  po::positional_options_description pos;
  pos.add("action", 1).add("name", 1);
  po::variables_map vm;
  if (!parse_or_help(args, opts, pos, vm)) return vm.count("help") ? 0 : 2;
  if (!vm.count("action") || !vm.count("name")) throw InputError("isa: expected 'doc NAME' or 'check NAME'");
  isa::set_process_isa_variant(isa_variant_from(vm));
  const std::string action = vm["action"].as<std::string>(), name = vm["name"].as<std::string>();
  const bool json = vm["json"].as<bool>();
  if (action == "check") return isa_check(name, json);
  if (action == "header") {
    const isa::IsaTools& t = isa_tools(name);
    if (!t.header) throw InputError("isa header: ISA '" + t.name + "' has no custom-instruction header");
    if (!vm.count("isa-ext")) throw InputError("isa header: give the overlay with --isa-ext FILE");
    try {
      write_output(vm, t.header(vm["isa-ext"].as<std::vector<std::string>>()));
    } catch (const std::runtime_error& e) {
      throw InputError(e.what());
    }
    return 0;
  }
  if (action != "doc") throw InputError("isa: unknown action '" + action + "' (doc, check, header)");
  const isa::IsaTools& t = isa_tools(name);
  std::string md;
  try {
    // Without --latencies the output is exactly docs/isa/<name>.md (the ISA knows no platform).
    md = t.doc(vm["latencies"].as<bool>());
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
  write_output(vm, json ? nlohmann::json{{"isa", t.name}, {"markdown", md}}.dump(2) + "\n" : md);
  return 0;
}

int cmd_asm(const Args& args) {
  po::options_description opts(
      "usage: tlmcraft asm [--check | --list | --encode OUT.bin | --decode IN.bin | --waits OUT [--set K=V]] KERNEL "
      "[--isa NAME] [--json]\n\n"
      "--check (default) reports every error as file:line:col with a hint, and instruction counts;\n"
      "--list prints each instruction (PC, line, encoding, disassembly); --encode writes 32-bit\n"
      "little-endian words and --decode disassembles them (fixed-width table ISAs only); --waits\n"
      "writes the kernel with explicit NOP waits where a result would be read or overwritten\n"
      "before it lands (ISAs whose cores have no register interlocks), timed by the platform config's\n"
      "pipeline stages (--platform-config, --set).\n"
      "Without --isa the kernel's extension picks the ISA (tlmcraft list isas --json).\n\n"
      "examples:\n  tlmcraft asm kernel.asm\n  tlmcraft asm --list kernel.asm\n"
      "  tlmcraft asm --encode kernel.bin kernel.asm\n  tlmcraft asm --isa aie_ml --json gemm.aie\n\noptions");
  opts.add_options()("help,h", "show this help")("isa", po::value<std::string>(), "ISA name (tlmcraft list isas)")(
      "check", po::bool_switch(), "check only (default)")("list", po::bool_switch(), "print a listing")(
      "encode", po::value<std::string>(), "write the binary encoding to FILE")(
      "decode", po::value<std::string>(), "disassemble a binary FILE")("waits", po::value<std::string>(),
                                                                       "write the kernel with explicit waits to FILE")(
      "platform-config", po::value<std::string>()->default_value("default"),
      "--waits: the platform config (name or YAML file) whose pipeline stages time the waits")(
      "set", po::value<std::vector<std::string>>()->composing()->default_value({}, ""),
      "--waits: KEY=VALUE override of that config, e.g. compute.acc_read_cycles=0")(
      "json", po::bool_switch(), "JSON output")("kernel", po::value<std::string>(), "kernel file (positional)");
  add_isa_variant_options(opts);
  po::positional_options_description pos;
  pos.add("kernel", 1);
  po::variables_map vm;
  if (!parse_or_help(args, opts, pos, vm)) return vm.count("help") ? 0 : 2;
  isa::set_process_isa_variant(isa_variant_from(vm));
  const bool json = vm["json"].as<bool>();
  if (vm.count("decode")) {
    if (!vm.count("isa")) throw InputError("asm --decode: pass --isa NAME (a binary does not say its ISA)");
    const isa::IsaTools& t = isa_tools(vm["isa"].as<std::string>());
    if (!t.decode) throw InputError("asm --decode: ISA '" + t.name + "' has no fixed-width binary encoding here");
    std::vector<uint32_t> words;
    std::string err, text;
    if (!isa::read_binary_file(vm["decode"].as<std::string>(), words, &err)) throw InputError(err);
    if (!t.decode(words, text, err)) {
      std::cerr << err << "\n";
      return 1;
    }
    std::cout << (json ? nlohmann::json{{"ok", true}, {"text", text}}.dump(2) + "\n" : text);
    return 0;
  }
  if (!vm.count("kernel")) throw InputError("asm: missing KERNEL (see tlmcraft asm --help)");
  const std::string path = vm["kernel"].as<std::string>();
  const isa::IsaTools& t = vm.count("isa") ? isa_tools(vm["isa"].as<std::string>()) : isa_for_kernel(path);
  isa::AsmResult r;
  try {
    r = t.assemble(read_kernel_text(path), path);
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
  if (json) {
    nlohmann::json j = r.to_json();
    j["isa"] = t.name;
    if (!vm["list"].as<bool>()) j.erase("listing");
    std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    for (const auto& d : r.diags) std::cerr << d.format() << "\n";
  }
  if (!r.ok) return 1;
  if (vm["list"].as<bool>() && !json)
    for (const auto& line : r.listing) std::cout << line << "\n";
  if (vm.count("waits")) {
    if (!t.insert_waits) throw InputError("asm --waits: ISA '" + t.name + "' has register interlocks (no waits to add)");
    std::string text;
    try {
      text = t.insert_waits(read_kernel_text(path), vm["platform-config"].as<std::string>(),
                            vm["set"].as<std::vector<std::string>>());
    } catch (const std::invalid_argument& e) {
      throw InputError(path + ": " + e.what());
    }
    std::ofstream out(vm["waits"].as<std::string>());
    if (!(out << text)) throw InputError("asm --waits: cannot write '" + vm["waits"].as<std::string>() + "'");
  }
  if (vm.count("encode")) {
    if (!t.encode) throw InputError("asm --encode: ISA '" + t.name + "' has no fixed-width binary encoding here");
    std::vector<uint32_t> words;
    std::string err;
    if (!t.encode(read_kernel_text(path), path, words, err) ||
        !isa::write_binary_file(vm["encode"].as<std::string>(), words, &err))
      throw InputError(err);
  }
  if (!json) {
    std::cout << path << ": ok, " << r.instructions << " instructions";
    for (const auto& [c, n] : r.by_class) std::cout << ", " << c << " " << n;
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
