// The one strict reader of platform config files, shared by every platform: a file is
// found by name or path, may name a `base:` config and override only what it changes
// (deep merge), takes `--set KEY=VALUE` overrides, and is read section by section where
// an unknown key is an error. Every message names file:line:col (or the --set text).
#pragma once
#include <cstdint>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "platforms/platform.h"

namespace tlmcraft {

// A loaded config tree and where each of its nodes was written.
class ConfigTree {
 public:
  // Resolves `name_or_path` (platform_config_path), loads it and its base chain, merges
  // them, applies the overrides ("a.b=value"; `example` is shown in usage errors) and
  // checks a `platform:` entry names `platform` (unless check_platform_key is false: a
  // reader that only hashes the tree, for a platform a plugin registered over another's
  // model and configs). Throws InputError on any bad input.
  static ConfigTree load(const std::string& platform, const std::string& name_or_path,
                         const std::vector<std::string>& overrides, const std::string& example,
                         bool check_platform_key = true);

  const std::string& file() const { return file_; }    // the file named (not its bases)
  std::string name() const;                             // its stem: "default", "slow_hbm"
  const YAML::Node& root() const { return root_; }
  // "file:line:col" of a node, naming the file (or --set text) that wrote it.
  std::string where(const YAML::Node& node) const;
  // The effective config as JSON (without the `base` key).
  nlohmann::json to_json() const;

 private:
  struct Origin {
    YAML::Node node;
    std::string source;  // a file, or "--set 'k=v'"
  };
  void note_origin(const YAML::Node& node, const std::string& source);
  std::string in_chain(const std::string& location, const std::string& source) const;

  std::string file_;
  std::string bottom_file_;  // the first config of the base chain: owns every unmarked node
  YAML::Node root_;
  std::vector<Origin> origins_;  // nodes written by a variant or an override, newest last
};

// One mapping of a config tree. Every key read is remembered; finish() rejects the rest,
// so a typo never falls back to a default silently.
class ConfigSection {
 public:
  // The whole tree (path "") or `parent`'s sub-mapping `key`.
  explicit ConfigSection(const ConfigTree& tree);
  ConfigSection(const ConfigTree& tree, const YAML::Node& parent, const std::string& key, const std::string& path);

  bool has(const std::string& key) const { return bool(node_[key]); }
  template <typename T>
  T num(const std::string& key, T lo, T hi);                  // required, yaml-cpp conversion
  template <typename T>
  T num_or(const std::string& key, T lo, T hi, T fallback) { return has(key) ? num<T>(key, lo, hi) : (skip(key), fallback); }
  uint64_t size(const std::string& key, uint64_t lo, uint64_t hi);  // "64KiB", "0x100", "4096"
  bool flag(const std::string& key);
  std::string text(const std::string& key);
  ConfigSection sub(const std::string& key);                  // required sub-mapping
  YAML::Node node(const std::string& key);                     // marks the key read; may be null
  void skip(const std::string& key) { used_.insert(key); }     // read elsewhere (e.g. ppa)
  void finish() const;

  const YAML::Node& yaml() const { return node_; }
  std::string where() const { return tree_->where(node_); }
  std::string where(const YAML::Node& n) const { return tree_->where(n); }
  std::string path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  // InputError "where: 'path.key' cause".
  [[noreturn]] void fail(const YAML::Node& at, const std::string& message) const;

 private:
  YAML::Node required(const std::string& key);

  const ConfigTree* tree_;
  YAML::Node node_;
  std::string path_;
  std::set<std::string> used_;
};

template <typename T>
T ConfigSection::num(const std::string& key, T lo, T hi) {
  const YAML::Node n = required(key);
  T v;
  try {
    v = n.as<T>();
  } catch (const YAML::Exception&) {
    fail(n, "'" + path(key) + "' must be a number, got '" + (n.IsScalar() ? n.Scalar() : std::string("a ") +
                                                                 (n.IsMap() ? "mapping" : "list")) + "'");
  }
  if (v < lo || v > hi) {
    std::ostringstream os;
    os << "'" << path(key) << "' = " << v << " is out of range [" << lo << ", " << hi << "]";
    fail(n, os.str());
  }
  return v;
}

}  // namespace tlmcraft
