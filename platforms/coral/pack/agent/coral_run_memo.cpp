#include "platforms/coral/pack/agent/coral_run_memo.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "common/sha256.h"

namespace tlmcraft::agent::search::coral {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kMemoVersion = "coral-run-memo 1";

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The running simulator: its timing model, task generators and checks are all in it.
const std::string& simulator_identity() {
  static const std::string id = sha256_hex(file_text("/proc/self/exe"));
  return id;
}

// The image as it is loaded: entry point, then each segment's placement and bytes.
std::string image_bytes(const isa::Program& p) {
  std::string out = "entry " + std::to_string(p.entry) + "\n";
  for (const isa::Segment& s : p.segments) {
    out += "segment " + std::to_string(s.address) + " " + std::to_string(s.mem_size) + " " +
           std::to_string(int(s.executable)) + std::to_string(int(s.writable)) + " " + std::to_string(s.bytes.size()) +
           "\n";
    out.append(reinterpret_cast<const char*>(s.bytes.data()), s.bytes.size());
  }
  return out;
}

// The definitions of the added instructions the image's code holds, in index order.
std::string added_definitions(const isa::Program& p, const isa::riscv::CustomExtensions* custom, const json& overlay) {
  if (!custom) return "";
  std::set<int> present;
  for (const isa::Segment& s : p.segments) {
    if (!s.executable) continue;
    for (size_t off = 0; off + 4 <= s.bytes.size(); off += 4) {
      uint32_t word;
      std::memcpy(&word, s.bytes.data() + off, 4);
      if (const int i = custom->find(word); i >= 0) present.insert(i);
    }
  }
  const json defs = overlay.value("instructions", json::array());
  std::string out;
  for (int i : present) out += "added " + (size_t(i) < defs.size() ? defs[size_t(i)].dump() : "?") + "\n";
  return out;
}

json to_json(const MemoRun& r) {
  json execs = json::array();  // sparse: (word, count) where it ran
  for (size_t i = 0; i < r.executions.size(); ++i)
    if (r.executions[i]) execs.push_back({i, r.executions[i]});
  json added = json::object();
  for (const auto& [m, u] : r.added) added[m] = {u.static_count, u.executions};
  return {{"status", r.status},           {"cycles", r.cycles},  {"hot_lines", r.hot_lines},
          {"words", r.executions.size()}, {"executions", execs}, {"added", added}};
}

MemoRun from_json(const json& j) {
  MemoRun r;
  r.status = j.at("status").get<std::string>();
  r.cycles = j.at("cycles").get<double>();
  r.hot_lines = j.at("hot_lines").get<std::vector<std::pair<int, double>>>();
  r.executions.assign(j.at("words").get<size_t>(), 0);
  for (const json& e : j.at("executions")) r.executions.at(e.at(0).get<size_t>()) = e.at(1).get<uint64_t>();
  for (auto it = j.at("added").begin(); it != j.at("added").end(); ++it)
    r.added[it.key()] = {it.value().at(0).get<uint64_t>(), it.value().at(1).get<uint64_t>()};
  return r;
}

}  // namespace

std::string run_memo_dir() {
  if (const char* d = std::getenv("TLMCRAFT_CORAL_RUN_CACHE"); d && *d) return std::string(d) == "0" ? "" : d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/tlmcraft/coral-runs";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/tlmcraft/coral-runs";
  return "";
}

void evict_run_memo(const std::string& dir, size_t max_entries, uint64_t max_bytes) {
  std::vector<std::tuple<fs::file_time_type, std::string, uint64_t>> entries;
  uint64_t bytes = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".json") continue;
    const uint64_t size = e.file_size(ec);
    entries.emplace_back(e.last_write_time(ec), e.path().string(), size);
    bytes += size;
  }
  std::sort(entries.begin(), entries.end());
  for (size_t i = 0; i < entries.size() && (entries.size() - i > max_entries || bytes > max_bytes); ++i) {
    fs::remove(std::get<1>(entries[i]), ec);
    bytes -= std::get<2>(entries[i]);
  }
}

std::string coral_run_key(const isa::Program& image, const std::string& task, const std::string& task_config,
                          const json& config, const std::string& task_spec, const isa::riscv::CustomExtensions* custom,
                          const json& overlay) {
  return sha256_hex(std::string(kMemoVersion) + "\nsimulator " + simulator_identity() + "\ntask " + task + " " +
                    task_config + " seed 1\nspec " + sha256_hex(task_spec) + "\nconfig " + config.dump() + "\n" +
                    added_definitions(image, custom, overlay) + image_bytes(image));
}

std::optional<MemoRun> load_memo_run(const std::string& key) {
  const std::string dir = run_memo_dir();
  if (dir.empty()) return std::nullopt;
  std::ifstream in(dir + "/" + key + ".json");
  if (!in) return std::nullopt;
  const json j = json::parse(in, nullptr, false);
  if (!j.is_object()) return std::nullopt;  // a torn or foreign file: run again
  try {
    return from_json(j);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void store_memo_run(const std::string& key, const MemoRun& run) {
  const std::string dir = run_memo_dir();
  if (dir.empty()) return;
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string path = dir + "/" + key + ".json", tmp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out << to_json(run).dump();
    if (!out) return;
  }
  fs::rename(tmp, path, ec);  // readers never see a partial file
  if (ec) fs::remove(tmp, ec);
  evict_run_memo(dir, kRunMemoEntries, kRunMemoBytes);
}

}  // namespace tlmcraft::agent::search::coral
