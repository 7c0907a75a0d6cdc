#include "bench/coral_fidelity/oracle_jobs.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "bench/coral_fidelity/elf_writer.h"

namespace tlmcraft::bench {

namespace fs = std::filesystem;

namespace {

std::string hex64(uint64_t v) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

void write_bytes(const fs::path& p, const std::vector<uint8_t>& bytes) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace

uint64_t oracle_key(const ModelRun& m, const OracleOptions& oo) {
  const std::vector<uint8_t> elf = write_elf32(m.program);
  uint64_t h = fnv1a64(elf.data(), elf.size());
  const uint32_t lat[2] = {oo.read_latency, oo.write_latency};
  h = fnv1a64(lat, sizeof lat, h);
  for (const ExtRegion& r : m.inputs) {
    h = fnv1a64(&r.address, sizeof r.address, h);
    h = fnv1a64(r.bytes.data(), r.bytes.size(), h);
  }
  return h;
}

size_t export_oracle_jobs(const std::string& dir, const std::vector<FidelityCase>& cases,
                          const std::vector<ModelRun>& runs, const OracleOptions& oo, const OracleCache& cache) {
  const fs::path root(dir);
  fs::create_directories(root / "elf");
  fs::create_directories(root / "in");
  std::ofstream jobs(root / "jobs.jsonl");
  size_t written = 0;
  std::set<uint64_t> exported;  // the same image and inputs under two names (a version equal to the baseline)
  for (size_t i = 0; i < runs.size(); ++i) {
    CachedOracle known;
    if (!runs[i].ok) continue;
    const uint64_t key = oracle_key(runs[i], oo);
    if (cache.find(key, known) || !exported.insert(key).second) continue;
    const std::string elf = "elf/" + hex64(key) + ".elf";
    write_bytes(root / elf, write_elf32(runs[i].program));
    nlohmann::json ext = nlohmann::json::array(), dump = nlohmann::json::array();
    for (const ExtRegion& r : runs[i].inputs) {
      const std::string in = "in/" + hex64(fnv1a64(r.bytes.data(), r.bytes.size())) + ".bin";
      if (!fs::exists(root / in)) write_bytes(root / in, r.bytes);
      ext.push_back(in + "@" + hex32(r.address));
      dump.push_back(hex32(r.address) + ":" + std::to_string(r.bytes.size()));
    }
    jobs << nlohmann::json{{"key", hex64(key)},
                           {"name", cases[i].name},
                           {"elf", elf},
                           {"ext", ext},
                           {"dump", dump},
                           {"ext_latency", oo.read_latency - 1},
                           {"ext_wlatency", oo.write_latency - 1},
                           {"max_cycles", oo.max_cycles},
                           {"model_cycles", runs[i].cycles}}
                .dump()
         << "\n";
    ++written;
  }
  return written;
}

}  // namespace tlmcraft::bench
