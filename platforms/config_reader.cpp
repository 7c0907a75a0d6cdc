#include "platforms/config_reader.h"

#include <filesystem>
#include <functional>

#include "models/yaml_config.h"
#include "platforms/platform_config.h"

namespace tlmcraft {
namespace fs = std::filesystem;

namespace {

constexpr int kMaxBaseDepth = 8;  // a longer chain is a mistake (or a cycle)

constexpr uintmax_t kMaxConfigBytes = 16u << 20;  // a config is a few KB; this stops /dev/zero-like input

YAML::Node parse_file(const std::string& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) throw InputError(file + ": platform config not found");
  // A directory, FIFO or device would fail inside the YAML reader or never end.
  if (!fs::is_regular_file(file, ec)) throw InputError(file + ": a platform config must be a regular file");
  if (fs::file_size(file, ec) > kMaxConfigBytes)
    throw InputError(file + ": the platform config is over " + std::to_string(kMaxConfigBytes) + " bytes");
  YAML::Node root;
  try {
    root = YAML::LoadFile(file);
  } catch (const YAML::Exception& e) {
    throw InputError(yaml_error_message(file, e));
  } catch (const std::exception& e) {  // an I/O error while reading
    throw InputError(file + ": cannot read the platform config: " + e.what());
  }
  if (!root.IsMap()) throw InputError(file + ": expected a mapping at the top level");
  return root;
}

// `base: default` names a stock config; a value with a '/' or ending in .yaml is a path,
// relative to the file that names it.
std::string base_file(const std::string& platform, const std::string& file, const std::string& base) {
  if (base.find('/') == std::string::npos && base.find(".yaml") == std::string::npos)
    return platform_config_path(platform, base);
  const fs::path p(base);
  return (p.is_absolute() ? p : fs::path(file).parent_path() / p).lexically_normal().string();
}

// An error in a base config also names where the variant asked for it (`named_at`), so the
// user sees which file to fix.
YAML::Node parse_base_file(const std::string& file, const std::string& named_at) {
  if (named_at.empty()) return parse_file(file);
  try {
    return parse_file(file);
  } catch (const InputError& e) {
    throw InputError(named_at + ": in its base config: " + e.what());
  }
}

std::string key_path(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

}  // namespace

std::string ConfigTree::name() const { return fs::path(file_).stem().string(); }

void ConfigTree::note_origin(const YAML::Node& node, const std::string& source) {
  origins_.push_back({node, source});
  if (node.IsMap())
    for (const auto& kv : node) note_origin(kv.second, source);
  else if (node.IsSequence())
    for (const auto& e : node) note_origin(e, source);
}

std::string ConfigTree::where(const YAML::Node& node) const {
  for (auto it = origins_.rbegin(); it != origins_.rend(); ++it) {
    if (!it->node.is(node)) continue;
    if (it->source.rfind("--set", 0) == 0) return it->source;
    return in_chain(yaml_where(it->source, node), it->source);
  }
  return in_chain(yaml_where(bottom_file_, node), bottom_file_);
}

// A location in a base config also names the file the user gave, which chose that base.
std::string ConfigTree::in_chain(const std::string& location, const std::string& source) const {
  return source == file_ ? location : location + " (base config of " + file_ + ")";
}

nlohmann::json ConfigTree::to_json() const { return yaml_to_json(root_); }

namespace {

// Deep merge: the variant's mappings merge key by key; any other value replaces the base's.
// A key the base lacks is an error (a typo must not pass as a new setting).
void merge(YAML::Node base, const YAML::Node& variant, const std::string& path, const std::string& vfile,
           const std::string& bfile, const std::function<void(const YAML::Node&)>& note) {
  for (const auto& kv : variant) {
    const std::string key = kv.first.as<std::string>();
    if (path.empty() && key == "base") continue;
    const YAML::Node& cbase = base;
    const YAML::Node old = cbase[key];
    if (!old)
      throw InputError(yaml_where(vfile, kv.first) + ": unknown key '" + key_path(path, key) + "': the base config " +
                       bfile + " has no such entry (a variant only changes entries of its base)");
    if (old.IsMap() != kv.second.IsMap())
      throw InputError(yaml_where(vfile, kv.second) + ": '" + key_path(path, key) + "' is " +
                       (old.IsMap() ? "a mapping" : "not a mapping") + " in the base config " + bfile);
    if (old.IsMap()) {
      merge(base[key], kv.second, key_path(path, key), vfile, bfile, note);
    } else {
      base[key] = kv.second;
      note(kv.second);
    }
  }
}

}  // namespace

ConfigTree ConfigTree::load(const std::string& platform, const std::string& name_or_path,
                            const std::vector<std::string>& overrides, const std::string& example,
                            bool check_platform_key) {
  ConfigTree t;
  t.file_ = platform_config_path(platform, name_or_path.empty() ? "default" : name_or_path);
  // The chain from the named file down to a config without `base:`.
  std::vector<std::pair<std::string, YAML::Node>> chain;
  std::string named_at;  // where the current file was named as a base ("" for the first)
  for (std::string file = t.file_;;) {
    for (const auto& [seen, _] : chain)
      if (fs::path(seen).lexically_normal() == fs::path(file).lexically_normal())
        throw InputError(named_at + ": 'base' makes a cycle through " + file);
    if (chain.size() >= size_t(kMaxBaseDepth))
      throw InputError(t.file_ + ": more than " + std::to_string(kMaxBaseDepth) + " configs in its 'base' chain");
    const YAML::Node root = parse_base_file(file, named_at);
    chain.emplace_back(file, root);
    const YAML::Node base = root["base"];
    if (!base) break;
    if (!base.IsScalar() || base.Scalar().empty())
      throw InputError(yaml_where(file, base) + ": 'base' must name a config (e.g. base: default) or a file");
    named_at = yaml_where(file, base);
    file = base_file(platform, file, base.Scalar());
  }
  t.bottom_file_ = chain.back().first;
  t.root_ = chain.back().second;
  for (size_t i = chain.size() - 1; i-- > 0;) {
    const std::string& vfile = chain[i].first;
    try {
      merge(t.root_, chain[i].second, "", vfile, chain[i + 1].first, [&](const YAML::Node& n) { t.note_origin(n, vfile); });
    } catch (const InputError& e) {
      if (i == 0) throw;
      throw InputError(std::string(e.what()) + " (in the base chain of " + t.file_ + ")");
    }
  }
  for (const auto& o : overrides) {
    apply_config_override(t.root_, o, example);
    YAML::Node n = t.root_;
    std::stringstream key(o.substr(0, o.find('=')));
    for (std::string part; std::getline(key, part, '.');) n.reset(n[part]);
    t.note_origin(n, "--set '" + o + "'");
  }
  const YAML::Node p = t.root_["platform"];
  if (check_platform_key && p && (!p.IsScalar() || p.Scalar() != platform))
    throw InputError(t.where(p) + ": this is a config for platform '" + (p.IsScalar() ? p.Scalar() : "?") + "', not " +
                     platform);
  return t;
}

// ---- sections -------------------------------------------------------------------------

ConfigSection::ConfigSection(const ConfigTree& tree) : tree_(&tree), node_(tree.root()) {}

ConfigSection::ConfigSection(const ConfigTree& tree, const YAML::Node& parent, const std::string& key,
                             const std::string& path)
    : tree_(&tree), node_(parent[key]), path_(path) {
  if (!node_ || !node_.IsMap()) {
    if (node_) throw InputError(tree.where(node_) + ": '" + path + "' must be a mapping");
    throw InputError(tree.where(parent) + ": missing section '" + path + "'");
  }
}

void ConfigSection::fail(const YAML::Node& at, const std::string& message) const {
  throw InputError(tree_->where(at) + ": " + message);
}

YAML::Node ConfigSection::required(const std::string& key) {
  used_.insert(key);
  const YAML::Node n = node_[key];
  if (!n) fail(node_, "missing key '" + path(key) + "'");
  return n;
}

uint64_t ConfigSection::size(const std::string& key, uint64_t lo, uint64_t hi) {
  const YAML::Node n = required(key);
  uint64_t v = 0;
  try {
    if (!n.IsScalar()) throw models::ConfigError("not a scalar");
    v = models::parse_size(n.Scalar(), path(key));
  } catch (const models::ConfigError&) {
    fail(n, "'" + path(key) + "' must be a non-negative integer, got '" + (n.IsScalar() ? n.Scalar() : "?") + "'");
  }
  if (v < lo || v > hi)
    fail(n, "'" + path(key) + "' = " + std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "]");
  return v;
}

bool ConfigSection::flag(const std::string& key) {
  const YAML::Node n = required(key);
  try {
    return n.as<bool>();
  } catch (const YAML::Exception&) {
    fail(n, "'" + path(key) + "' must be true or false, got '" + (n.IsScalar() ? n.Scalar() : "?") + "'");
  }
}

std::string ConfigSection::text(const std::string& key) {
  const YAML::Node n = required(key);
  if (!n.IsScalar()) fail(n, "'" + path(key) + "' must be a name");
  return n.Scalar();
}

ConfigSection ConfigSection::sub(const std::string& key) {
  used_.insert(key);
  return ConfigSection(*tree_, node_, key, path(key));
}

YAML::Node ConfigSection::node(const std::string& key) {
  used_.insert(key);
  return node_[key];
}

void ConfigSection::finish() const {
  for (const auto& kv : node_) {
    const auto k = kv.first.as<std::string>();
    if (!used_.count(k)) {
      std::string known;
      for (const auto& u : used_) known += (known.empty() ? "" : ", ") + u;
      fail(kv.first, "unknown key '" + path(k) + "'" + (known.empty() ? "" : " (known here: " + known + ")"));
    }
  }
}

}  // namespace tlmcraft
