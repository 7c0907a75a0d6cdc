#include "harness/slurm_shards.h"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tlmcraft::harness {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string numbered(int shard) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d", shard);
  return buf;
}

void write_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw std::runtime_error("cannot write '" + tmp + "'");
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw std::runtime_error("cannot rename '" + tmp + "' to '" + path + "': " + ec.message());
}

json read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read the file");
  std::stringstream ss;
  ss << in.rdbuf();
  json j = json::parse(ss.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw std::runtime_error(path + ": not a JSON object");
  return j;
}

std::string string_field(const json& j, const char* name, const std::string& where) {
  const auto it = j.find(name);
  if (it == j.end() || !it->is_string()) throw std::runtime_error(where + ": '" + name + "' missing or not a string");
  return it->get<std::string>();
}

std::vector<std::string> string_list(const json& j, const char* name, const std::string& where) {
  const auto it = j.find(name);
  if (it == j.end()) return {};
  if (!it->is_array()) throw std::runtime_error(where + ": '" + name + "' is not a list");
  std::vector<std::string> out;
  for (const auto& v : *it) {
    if (!v.is_string()) throw std::runtime_error(where + ": '" + name + "' holds a non-string");
    out.push_back(v.get<std::string>());
  }
  return out;
}

json shard_job_json(const ShardJob& j) {
  json job = job_json(j.job);
  job["level"] = j.job.level;
  job["extra_args"] = j.job.extra_args;
  // A sweep variant's provenance goes into the node's records as into local ones.
  if (!j.job.provenance.is_null()) job["provenance"] = j.job.provenance;
  return {{"job", job}, {"argv", j.argv}};
}

ShardJob shard_job_from(const json& entry, const std::string& where) {
  if (!entry.is_object() || !entry.contains("job") || !entry["job"].is_object())
    throw std::runtime_error(where + ": an entry has no 'job' object");
  const json& j = entry["job"];
  ShardJob out;
  out.job.platform = string_field(j, "platform", where);
  out.job.task = string_field(j, "task", where);
  out.job.config = string_field(j, "config", where);
  out.job.kernel = string_field(j, "kernel", where);
  out.job.level = j.value("level", 0);
  out.job.extra_args = string_list(j, "extra_args", where);
  if (j.contains("variant")) out.job.variant = string_field(j, "variant", where);
  if (j.contains("provenance")) out.job.provenance = j["provenance"];
  out.argv = string_list(entry, "argv", where);
  if (out.argv.empty()) throw std::runtime_error(where + ": job " + out.job.task + "/" + out.job.config + " has no argv");
  return out;
}

}  // namespace

std::string SlurmRunDir::spec(int shard) const { return shards_dir() + "/" + numbered(shard) + ".json"; }
std::string SlurmRunDir::results(int shard) const { return results_dir() + "/" + numbered(shard) + ".jsonl"; }
std::string SlurmRunDir::refusal(int shard) const { return results_dir() + "/" + numbered(shard) + ".refused"; }

void SlurmRunDir::create() const {
  for (const auto& d : {shards_dir(), results_dir(), logs_dir()}) {
    std::error_code ec;
    fs::create_directories(d, ec);
    if (ec) throw std::runtime_error("cannot create directory '" + d + "': " + ec.message());
  }
}

void write_shard_spec(const std::string& path, const ShardSpec& spec) {
  json jobs = json::array();
  for (const auto& j : spec.jobs) jobs.push_back(shard_job_json(j));
  const json doc = {{"schema", "tlmcraft.shard/1"}, {"shard", spec.shard}, {"version", spec.version},
                    {"timeout_seconds", spec.timeout_seconds}, {"jobs", jobs}};
  write_atomically(path, doc.dump(1) + "\n");
}

ShardSpec read_shard_spec(const std::string& path) {
  const json doc = read_json_file(path);
  if (doc.value("schema", "") != "tlmcraft.shard/1") throw std::runtime_error(path + ": not a tlmcraft.shard/1 file");
  ShardSpec spec;
  if (!doc.contains("shard") || !doc["shard"].is_number_integer()) throw std::runtime_error(path + ": 'shard' missing");
  spec.shard = doc["shard"].get<int>();
  spec.version = string_field(doc, "version", path);
  spec.timeout_seconds = doc.value("timeout_seconds", 0.0);
  if (!doc.contains("jobs") || !doc["jobs"].is_array()) throw std::runtime_error(path + ": 'jobs' missing or not a list");
  for (const auto& entry : doc["jobs"]) spec.jobs.push_back(shard_job_from(entry, path));
  return spec;
}

json shard_header(int shard, const std::string& version, const std::string& slurm_job) {
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  return {{"shard_header", {{"shard", shard}, {"version", version}, {"slurm_job", slurm_job}, {"host", host}}}};
}

std::string foreign_results_reason(const std::string& path, const std::string& version) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return "";
  const JsonlContents c = read_jsonl(path);
  bool has_results = false;
  for (const auto& r : c.records) {
    if (r.contains("shard_header") && r["shard_header"].is_object()) {
      const std::string v = r["shard_header"].value("version", "");
      if (v != version)
        return path + " was written by tlmcraft " + (v.empty() ? "(unknown version)" : v) +
               " (Slurm job " + r["shard_header"].value("slurm_job", "?") + "), but this is tlmcraft " + version +
               "; results of different versions are not mixed (delete the file to run the shard again)";
    } else if (!record_key(r).empty()) {
      has_results = true;
    }
  }
  if (has_results && !c.records.empty() && !c.records.front().contains("shard_header"))
    return path + " has results but no shard header naming the tlmcraft version that wrote them";
  return "";
}

ShardResults read_shard_results(const std::string& path, const std::string& version) {
  ShardResults out;
  out.refused = foreign_results_reason(path, version);
  if (!out.refused.empty()) return out;
  JsonlContents c = read_jsonl(path);
  // A torn last line is an attempt still writing (or killed mid-write): not an error here.
  for (auto& w : c.warnings)
    if (w.find("incomplete last line") == std::string::npos && w.find("unreadable last line") == std::string::npos)
      out.warnings.push_back(std::move(w));
  for (auto& r : c.records)
    if (!record_key(r).empty()) out.records.push_back(std::move(r));
  return out;
}

int shard_of_file(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  size_t digits = 0;
  while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[digits]))) ++digits;
  if (digits == 0 || digits > 9) return -1;
  return std::stoi(name.substr(0, digits));
}

std::map<int, ShardState> read_shard_states(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return {};
  const json doc = read_json_file(path);
  std::map<int, ShardState> out;
  if (!doc.contains("shards") || !doc["shards"].is_object()) throw std::runtime_error(path + ": 'shards' missing");
  for (const auto& [key, v] : doc["shards"].items()) {
    if (!v.is_object() || key.empty() || key.find_first_not_of("0123456789") != std::string::npos)
      throw std::runtime_error(path + ": shard entry '" + key + "' is malformed");
    ShardState s;
    s.slurm_job = v.value("slurm_job", "");
    s.attempts = v.value("attempts", 0);
    s.last_state = v.value("last_state", "");
    out[std::stoi(key)] = s;
  }
  return out;
}

void write_shard_states(const std::string& path, const std::map<int, ShardState>& states) {
  json shards = json::object();
  for (const auto& [n, s] : states)
    shards[std::to_string(n)] = {{"slurm_job", s.slurm_job}, {"attempts", s.attempts}, {"last_state", s.last_state}};
  write_atomically(path, json{{"schema", "tlmcraft.slurm-state/1"}, {"shards", shards}}.dump(1) + "\n");
}

}  // namespace tlmcraft::harness
