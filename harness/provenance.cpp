#include "harness/provenance.h"

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>

#include "common/sha256.h"
#include "harness/build_info.h"
#include "harness/version.h"
#include "isa/isa_spec.h"
#include "platforms/platform.h"
#include "platforms/config_reader.h"
#include "platforms/platform_config.h"
#include "platforms/registry.h"

namespace tlmcraft::harness {

using nlohmann::json;

namespace {

std::string read_bytes(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(what + ": cannot read '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Overrides as a key -> value object; a later override of the same key replaces the earlier.
json override_object(const std::vector<std::string>& overrides) {
  json out = json::object();
  for (const auto& o : overrides) {
    const auto eq = o.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("override '" + o + "' is not KEY=VALUE (e.g. timing.mode=pipelined)");
    out[o.substr(0, eq)] = o.substr(eq + 1);
  }
  return out;
}

json isa_files(const std::string& platform, const std::string& isa_dir) {
  json files = json::array();
  const std::string home = platform_isa_dir(platform);  // a plugin's own isa/ ("" = the data folder's)
  for (const auto& name : platform_isa_names(platform)) {
    const std::string path = isa::isa_yaml_path_in(isa_dir, name, home);
    files.push_back({{"name", name}, {"path", path}, {"fnv1a64", fnv1a64_hex(read_bytes(path, "ISA " + name))}});
  }
  return files;
}

// Each overlay's path and SHA-256, in the order they are merged.
json overlay_files(const std::vector<std::string>& overlays) {
  json files = json::array();
  for (const auto& path : overlays)
    files.push_back({{"path", path}, {"sha256", sha256_hex(read_bytes(path, "ISA overlay"))}});
  return files;
}

// What decides the results: the platform, the effective config and the ISA content. Names,
// paths, comments and overrides that set a value the file already has are left out, so a
// copied config file or `--set timing.mode=serial` on a serial config is the same variant.
std::string variant_id(const std::string& platform, const json& p, const json& config) {
  json identity = {{"platform", platform}, {"config", fnv1a64_hex(config.dump())}, {"isa", json::array()}};
  for (const auto& f : p["isa"]) identity["isa"].push_back({f["name"], f["fnv1a64"]});
  // Overlays by content and order (a variant without any keeps its earlier id).
  if (p.contains("isa_ext") && !p["isa_ext"].empty())
    for (const auto& f : p["isa_ext"]) identity["isa_ext"].push_back(f["sha256"]);
  return fnv1a64_hex(identity.dump());
}

}  // namespace

std::string fnv1a64_hex(const std::string& bytes) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

json variant_provenance(const std::string& platform, const VariantSpec& v) {
  const std::string config_file = platform_config_path(platform, v.platform_config);
  json p;
  p["platform_config"] = v.platform_config;
  p["config_file"] = config_file;
  p["config_fnv1a64"] = fnv1a64_hex(read_bytes(config_file, "platform config '" + v.platform_config + "'"));
  p["overrides"] = override_object(v.overrides);
  // The config the platform reads: the file merged over its `base:` chain, with the
  // overrides applied (platforms/config_reader.h). Its `platform:` key is the platform
  // loader's to check: a plugin may run another platform's model with that one's configs.
  const json effective =
      ConfigTree::load(platform, v.platform_config, v.overrides, "KEY=VALUE", /*check_platform_key=*/false).to_json();
  p["effective_config_fnv1a64"] = fnv1a64_hex(effective.dump());
  p["isa_dir"] = v.isa_dir;
  p["isa"] = isa_files(platform, v.isa_dir);
  p["isa_ext"] = overlay_files(v.isa_ext);
  p["tlmcraft"] = {{"version", build_version()}, {"commit", build_commit()}, {"modified", build_dirty()}};
  p["variant"] = variant_id(platform, p, effective);
  if (!v.name.empty()) p["name"] = v.name;
  return p;
}

std::string provenance_variant(const json& provenance) {
  if (!provenance.is_object()) return "";
  const auto it = provenance.find("variant");
  return it != provenance.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string variant_label(const json& p) {
  if (!p.is_object()) return "default";
  if (p.contains("name") && p["name"].is_string()) return p["name"].get<std::string>();
  std::string s;
  const std::string config = p.value("platform_config", std::string("default"));
  if (config != "default") s = config;
  if (p.contains("overrides") && p["overrides"].is_object())
    for (const auto& [k, val] : p["overrides"].items())
      s += (s.empty() ? "" : ", ") + k + "=" + (val.is_string() ? val.get<std::string>() : val.dump());
  const std::string isa_dir = p.value("isa_dir", std::string());
  if (!isa_dir.empty()) s += (s.empty() ? "" : ", ") + std::string("isa ") + isa_dir;
  if (p.contains("isa_ext") && p["isa_ext"].is_array())
    for (const auto& f : p["isa_ext"])
      if (f.is_object())
        s += (s.empty() ? "" : ", ") + std::string("isa-ext ") + f.value("path", std::string("?")) + " (sha256 " +
             f.value("sha256", std::string("?")).substr(0, 12) + ")";
  return s.empty() ? "default" : s;
}

std::string variant_spec_label(const VariantSpec& v) {
  std::string s = v.platform_config == "default" || v.platform_config.empty() ? "" : v.platform_config;
  for (const auto& o : v.overrides) s += (s.empty() ? "" : ", ") + o;
  if (!v.isa_dir.empty()) s += (s.empty() ? "" : ", ") + std::string("isa ") + v.isa_dir;
  for (const auto& f : v.isa_ext) s += (s.empty() ? "" : ", ") + std::string("isa-ext ") + f;
  return s.empty() ? "default" : s;
}

std::vector<std::string> variant_worker_args(const VariantSpec& v) {
  std::vector<std::string> args;
  if (v.platform_config != "default") args.insert(args.end(), {"--platform-config", v.platform_config});
  for (const auto& o : v.overrides) args.insert(args.end(), {"--set", o});
  if (!v.isa_dir.empty()) args.insert(args.end(), {"--isa-dir", v.isa_dir});
  for (const auto& f : v.isa_ext) args.insert(args.end(), {"--isa-ext", f});
  return args;
}

std::string version_text() { return "tlmcraft " + tlmcraft_version(); }

}  // namespace tlmcraft::harness
