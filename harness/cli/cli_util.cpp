#include "harness/cli/cli_util.h"

#include <cstdlib>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "harness/isa_variant_check.h"
#include "harness/report_text.h"
#include "isa/input_limits.h"
#include "platforms/registry.h"
#include "traces/trace_recorder.h"

namespace tlmcraft::cli {

void add_platform_options(po::options_description& opts) {
  opts.add_options()
      ("help,h", "show this help")
      ("platform,p", po::value<std::string>()->default_value(default_platform()), "platform name (tlmcraft list platforms)")
      ("platform-config", po::value<std::string>()->default_value("default"), "platform config name or YAML file")
      ("set", po::value<std::vector<std::string>>()->composing()->default_value({}, ""),
       "KEY=VALUE: override a platform-config entry, e.g. timing.mode=pipelined")
      ("isa-dir", po::value<std::string>(), "read ISA descriptions from DIR (an edited copy of isa/; default TLMCRAFT_ISA_DIR)")
      ("isa-ext", po::value<std::vector<std::string>>()->composing(),
       "FILE: an ISA overlay merged over the ISA (repeatable, applied in order; docs/isa-extensions.md)");
}

void add_isa_variant_options(po::options_description& opts) {
  opts.add_options()
      ("isa-dir", po::value<std::string>(), "read ISA descriptions from DIR (an edited copy of isa/; default TLMCRAFT_ISA_DIR)")
      ("isa-ext", po::value<std::vector<std::string>>()->composing(),
       "FILE: an ISA overlay merged over the ISA (repeatable, applied in order; docs/isa-extensions.md)");
}

isa::IsaVariant isa_variant_from(const po::variables_map& vm) {
  isa::IsaVariant v;
  if (vm.count("isa-dir")) v.isa_dir = vm["isa-dir"].as<std::string>();
  if (vm.count("isa-ext")) v.overlays = vm["isa-ext"].as<std::vector<std::string>>();
  return v;
}

isa::IsaVariant use_isa_variant(const po::variables_map& vm, const std::string& platform) {
  const isa::IsaVariant v = isa_variant_from(vm);
  harness::check_isa_variant(platform, v);
  isa::set_process_isa_variant(v);
  return v;
}

void add_run_options(po::options_description& opts) {
  opts.add_options()
      ("max-instructions", po::value<uint64_t>()->default_value(10'000'000), "instruction budget")
      ("max-cycles", po::value<uint64_t>()->default_value(1'000'000'000), "cycle budget")
      ("timeout", po::value<double>()->default_value(60.0), "wall-clock limit in seconds (0 = none)")
      ("vcd", po::value<std::string>(), "write a VCD trace, plus a GTKWave save file (.gtkw) and name filter beside it: gtkwave F.gtkw shows instruction names")
      ("perfetto", po::value<std::string>(), "write a Perfetto/Chrome trace-event JSON (gzip-compressed when the name ends in .gz)")
      ("window", po::value<std::string>(), "BEGIN:END cycle window for traces")
      ("scope", po::value<std::string>(), "comma-separated track prefixes kept in traces, e.g. tile_0_2,array (default: all)")
      ("trace-budget-mb", po::value<double>(), "Perfetto size budget in MB (default 40): larger traces are aggregated into summary slices; 0 = no budget");
}

bool parse_or_help(const Args& args, const po::options_description& opts,
                   const po::positional_options_description& pos, po::variables_map& vm) {
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(std::string(e.what()) + " (see --help)");
  }
  if (vm.count("help")) {
    std::cout << opts << "\n";
    return false;
  }
  return true;
}

std::unique_ptr<Platform> make_platform_from(const po::variables_map& vm) {
  use_isa_variant(vm, vm["platform"].as<std::string>());
  return make_platform(vm["platform"].as<std::string>(), vm["platform-config"].as<std::string>(),
                       vm["set"].as<std::vector<std::string>>());
}

RunLimits limits_from(const po::variables_map& vm) {
  RunLimits l;
  l.max_instructions = vm["max-instructions"].as<uint64_t>();
  l.max_cycles = vm["max-cycles"].as<uint64_t>();
  l.wall_seconds = vm["timeout"].as<double>();
  return l;
}

TraceOptions traces_from(const po::variables_map& vm) {
  TraceOptions t;
  if (vm.count("vcd")) t.vcd_path = vm["vcd"].as<std::string>();
  if (vm.count("perfetto")) t.perfetto_path = vm["perfetto"].as<std::string>();
  if (vm.count("scope")) {
    t.scopes = vm["scope"].as<std::string>();
    if (traces::TraceRecorder::parse_scopes(t.scopes).empty())
      throw InputError("--scope '" + t.scopes + "': expected comma-separated track prefixes, e.g. " +
                       default_platform() + ".vector," + default_platform() + ".hbm");
  }
  if (vm.count("trace-budget-mb")) {
    const double mb = vm["trace-budget-mb"].as<double>();
    if (!(mb >= 0) || mb > 1e6) throw InputError("--trace-budget-mb " + std::to_string(mb) + ": expected 0 (no budget) .. 1000000");
    t.perfetto_max_bytes = static_cast<uint64_t>(mb * 1e6);
  }
  if (vm.count("window")) {
    const std::string w = vm["window"].as<std::string>();
    const auto colon = w.find(':');
    try {
      if (colon == std::string::npos) throw std::invalid_argument("");
      t.window_begin = std::stoull(w.substr(0, colon));
      t.window_end = colon + 1 < w.size() ? std::stoull(w.substr(colon + 1)) : UINT64_MAX;
    } catch (const std::exception&) {
      throw InputError("--window '" + w + "': expected BEGIN:END in cycles, e.g. 0:5000");
    }
    if (t.window_end <= t.window_begin) throw InputError("--window '" + w + "': END must be greater than BEGIN");
  }
  return t;
}

std::string read_text_file(const std::string& path) {
  // A regular file only: /dev/zero or a FIFO would never end.
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
    throw InputError(path + ": not a regular file (a directory, FIFO or device cannot be read as input)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string read_kernel_text(const std::string& path) {
  try {
    return isa::read_kernel_file(path);
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
}

bool assemble_file(const Platform& p, const std::string& path, isa::Program& out, std::ostream& err) {
  std::vector<isa::Diagnostic> diags;
  const bool ok = p.assemble(read_kernel_text(path), path, out, diags);
  isa::cap_diagnostics(diags, isa::max_diagnostics());
  for (const auto& d : diags) err << d.format() << "\n";
  return ok;
}

void load_input_file(Platform& p, const std::string& spec) {
  const auto at = spec.rfind('@');
  const std::string file = at == std::string::npos ? spec : spec.substr(0, at);
  uint64_t addr = 0;
  if (at != std::string::npos) {
    try {
      addr = std::stoull(spec.substr(at + 1), nullptr, 0);
    } catch (const std::exception&) {
      throw InputError("--hbm-in '" + spec + "': ADDR must be a number (decimal or 0x hex)");
    }
  }
  const std::string bytes = read_text_file(file);
  // The platform's off-chip memory: HBM on PLENA, DDR on AIE-ML, external memory on Coral.
  const auto mems = p.memories();
  std::string memory;
  for (const char* m : {"hbm", "ddr", "ext"})
    if (memory.empty() && std::find(mems.begin(), mems.end(), m) != mems.end()) memory = m;
  if (memory.empty()) throw InputError("--hbm-in: platform " + p.name() + " has no off-chip memory");
  p.write_memory(memory, addr, std::vector<uint8_t>(bytes.begin(), bytes.end()));
}

uint64_t max_dump_bytes() {
  const char* v = std::getenv("TLMCRAFT_MAX_DUMP_BYTES");
  if (!v || !*v) return 16u << 20;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  return end && *end == '\0' && n > 0 ? n : 16u << 20;
}

void dump_memory(const Platform& p, const std::string& spec, nlohmann::json& out, std::ostream& text) {
  std::stringstream ss(spec);
  std::string mem, a, l;
  if (!std::getline(ss, mem, ':') || !std::getline(ss, a, ':') || !std::getline(ss, l))
    throw InputError("--dump '" + spec + "': expected MEMORY:ADDR:LEN, e.g. vram:0:64");
  uint64_t addr = 0, len = 0;
  try {
    addr = std::stoull(a, nullptr, 0);
    len = std::stoull(l, nullptr, 0);
  } catch (const std::exception&) {
    throw InputError("--dump '" + spec + "': ADDR and LEN must be numbers");
  }
  if (len > max_dump_bytes())
    throw InputError("--dump '" + spec + "': LEN " + std::to_string(len) + " is over the dump limit of " +
                     std::to_string(max_dump_bytes()) + " bytes (raise it with TLMCRAFT_MAX_DUMP_BYTES)");
  const std::vector<uint8_t> bytes = p.read_memory(mem, addr, len);
  nlohmann::json j = {{"memory", mem}, {"addr", addr}, {"len", len}};
  std::ostringstream hex;
  for (uint8_t b : bytes) hex << std::hex << std::setw(2) << std::setfill('0') << int(b);
  j["hex"] = hex.str();
  out.push_back(j);
  text << "dump " << spec << " (" << bytes.size() << " bytes)\n";
  for (size_t i = 0; i < bytes.size(); i += 16) {
    text << "  " << std::hex << std::setw(8) << std::setfill('0') << i << ":";
    for (size_t k = i; k < std::min(bytes.size(), i + 16); ++k)
      text << " " << std::setw(2) << int(bytes[k]);
    text << std::dec << "\n";
  }
}

void write_text_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw InputError("cannot write '" + tmp + "'");
    f << text;
    if (!f.flush()) throw InputError("cannot write '" + tmp + "'");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw InputError("cannot write '" + path + "': " + ec.message());
  }
}

std::string format_run(const Platform& p, const isa::Program& prog, const RunResult& r) {
  return format_run_text(p.name(), prog, r);
}

std::string format_report(const nlohmann::json& report) { return format_report_text(report); }

}  // namespace tlmcraft::cli
