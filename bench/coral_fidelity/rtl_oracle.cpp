#include "bench/coral_fidelity/rtl_oracle.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "platforms/coral/subprocess.h"

namespace tlmcraft::bench {

namespace {

bool executable(const std::string& path) { return !path.empty() && access(path.c_str(), X_OK) == 0; }

void write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

}  // namespace

std::string find_coral_rtl(const std::string& flag) {
  if (!flag.empty()) return executable(flag) ? flag : "";
  if (const char* env = std::getenv("CORAL_RTL"); env && *env) return executable(env) ? env : "";
  const std::string dev = std::string(TLMCRAFT_SOURCE_DIR) + "/../shared/oracles/coral-rtl/coral-rtl";
  return executable(dev) ? dev : "";
}

OracleRun run_on_rtl(const OracleOptions& o, const std::vector<uint8_t>& elf, const std::vector<ExtRegion>& inputs,
                     const std::vector<ExtRegion>& dump) {
  OracleRun run;
  coral::TempDir dir;
  write_file(dir.file("kernel.elf"), elf);
  std::vector<std::string> argv = {o.binary, dir.file("kernel.elf"), "--json",
                                   "--ext-latency", std::to_string(o.read_latency - 1),
                                   "--ext-wlatency", std::to_string(o.write_latency - 1),
                                   "--max-cycles", std::to_string(o.max_cycles)};
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string f = dir.file("in" + std::to_string(i) + ".bin");
    write_file(f, inputs[i].bytes);
    argv.insert(argv.end(), {"--ext", f + "@" + hex(inputs[i].address)});
  }
  for (size_t i = 0; i < dump.size(); ++i)
    argv.insert(argv.end(), {"--dump", hex(dump[i].address) + ":" + std::to_string(dump[i].bytes.size()) + ":" +
                                           dir.file("out" + std::to_string(i) + ".bin")});
  coral::ToolLimits limits;  // the oracle is trusted: an hour, and room for long programs
  limits.timeout_seconds = 3600.0;
  limits.cpu_seconds = 3600;
  limits.memory_bytes = 8ull << 30;
  limits.file_size_bytes = 1ull << 30;
  const coral::ToolRun r = coral::run_tool(argv, dir.path(), limits);
  const size_t brace = r.output.rfind("\n{");
  const std::string text = brace == std::string::npos ? r.output : r.output.substr(brace + 1);
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!r.ok() || j.is_discarded() || !j.is_object()) {
    run.error = "coral-rtl failed (exit " + std::to_string(r.exit_code) + "): " + r.output.substr(0, 400);
    return run;
  }
  run.cycles = j.value("cycles_first_to_mpause", 0ull);
  run.dispatched = j.value("dispatched", 0ull);
  run.ok = j.value("halted", 0) == 1 && j.value("fault", 0) == 0;
  if (!run.ok) run.error = "the RTL did not halt cleanly: " + text;
  for (size_t i = 0; i < dump.size(); ++i)
    run.dumps.push_back({dump[i].address, read_file(dir.file("out" + std::to_string(i) + ".bin"))});
  return run;
}

}  // namespace tlmcraft::bench
