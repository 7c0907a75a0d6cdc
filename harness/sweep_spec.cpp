#include "harness/sweep_spec.h"

#include <filesystem>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "platforms/platform.h"
#include "platforms/platform_config.h"

namespace tlmcraft::harness {
namespace {

namespace fs = std::filesystem;

// "a.yaml+b.yaml" -> {"a.yaml", "b.yaml"}; "none" -> {}.
std::vector<std::string> split_overlays(const std::string& value) {
  std::vector<std::string> out;
  if (value == "none") return out;
  std::stringstream ss(value);
  for (std::string file; std::getline(ss, file, '+');)
    if (!file.empty()) out.push_back(file);
  return out;
}

struct YamlFile {
  std::string path;
  std::string where(const YAML::Node& n) const { return yaml_where(path, n); }
  [[noreturn]] void fail(const YAML::Node& n, const std::string& what) const {
    throw InputError(where(n) + ": " + what);
  }
  std::string scalar(const YAML::Node& n, const std::string& field) const {
    if (!n.IsScalar()) fail(n, "'" + field + "' must be a single value");
    return n.as<std::string>();
  }
  // A scalar or a list of scalars.
  std::vector<std::string> list(const YAML::Node& n, const std::string& field) const {
    if (n.IsScalar()) return {n.as<std::string>()};
    if (!n.IsSequence()) fail(n, "'" + field + "' must be a value or a list of values");
    std::vector<std::string> out;
    for (const auto& item : n) out.push_back(scalar(item, field));
    return out;
  }
  // A path relative to the YAML file's folder (absolute paths unchanged).
  std::string relative(const std::string& p) const {
    if (p.empty() || fs::path(p).is_absolute()) return p;
    return (fs::path(path).parent_path() / p).lexically_normal().string();
  }
  // An isa_ext value: overlay files joined by '+' (stacked, in order), or "none".
  std::string overlays(const std::string& value) const {
    if (value == "none") return value;
    std::string out;
    for (const auto& file : split_overlays(value)) out += (out.empty() ? "" : "+") + relative(file);
    return out;
  }
  // Config names stay names; anything that looks like a file is made relative.
  std::string config(const std::string& c) const {
    return c.find('/') != std::string::npos || c.find(".yaml") != std::string::npos ? relative(c) : c;
  }
};

// `set: {a.b: 1, c.d: x}` -> {"a.b=1", "c.d=x"}.
std::vector<std::string> overrides_of(const YamlFile& f, const YAML::Node& n) {
  if (!n.IsMap()) f.fail(n, "'set' must be a map of KEY: VALUE");
  std::vector<std::string> out;
  for (const auto& kv : n) out.push_back(kv.first.as<std::string>() + "=" + f.scalar(kv.second, kv.first.as<std::string>()));
  return out;
}

VariantSpec variant_of(const YamlFile& f, const YAML::Node& n) {
  if (!n.IsMap()) f.fail(n, "each entry of 'variants' must be a map (name, set, platform_config, isa_dir, isa_ext)");
  VariantSpec v;
  v.platform_config = "";
  for (const auto& kv : n) {
    const std::string k = kv.first.as<std::string>();
    if (k == "name") v.name = f.scalar(kv.second, k);
    else if (k == "set") v.overrides = overrides_of(f, kv.second);
    else if (k == "platform_config") v.platform_config = f.config(f.scalar(kv.second, k));
    else if (k == "isa_dir") v.isa_dir = f.relative(f.scalar(kv.second, k));
    else if (k == "isa_ext")
      for (const auto& file : f.list(kv.second, k)) v.isa_ext.push_back(f.relative(file));
    else f.fail(kv.first, "unknown variant field '" + k + "' (known: name, set, platform_config, isa_dir, isa_ext)");
  }
  return v;
}

void read_field(const YamlFile& f, SweepSpec& s, const std::string& k, const YAML::Node& v) {
  if (k == "platform" || k == "platforms") s.platforms = f.list(v, k);
  else if (k == "tasks" || k == "task") s.tasks = f.list(v, k);
  else if (k == "configs" || k == "config") s.configs = f.list(v, k);
  else if (k == "levels" || k == "level") s.levels = f.list(v, k);
  else if (k == "kernels") {
    const std::string d = f.scalar(v, k);
    s.kernel_dir = d == "baseline" ? "" : f.relative(d);
  } else if (k == "set") s.base.overrides = overrides_of(f, v);
  else if (k == "platform_config") s.base.platform_config = f.config(f.scalar(v, k));
  else if (k == "isa_dir") s.base.isa_dir = f.relative(f.scalar(v, k));
  else if (k == "isa_ext")
    for (const auto& file : f.list(v, k)) s.base.isa_ext.push_back(f.relative(file));
  else if (k == "grid") {
    if (!v.IsMap()) f.fail(v, "'grid' must be a map of KEY: [values]");
    for (const auto& axis : v) {
      SweepAxis a{axis.first.as<std::string>(), f.list(axis.second, axis.first.as<std::string>())};
      if (a.values.empty()) f.fail(axis.second, "grid key '" + a.key + "' has no values");
      for (auto& value : a.values)
        value = a.key == "isa_dir"           ? f.relative(value)
                : a.key == "isa_ext"         ? f.overlays(value)
                : a.key == "platform_config" ? f.config(value)
                                             : value;
      s.grid.push_back(a);
    }
  } else if (k == "variants") {
    if (!v.IsSequence()) f.fail(v, "'variants' must be a list");
    for (const auto& item : v) s.variants.push_back(variant_of(f, item));
  } else if (k == "reference") s.reference = f.scalar(v, k);
  else if (k == "out") s.out = f.scalar(v, k);
  else if (k == "jobs") {
    try {
      s.jobs = v.as<unsigned>();
    } catch (const YAML::Exception&) {
      f.fail(v, "'jobs' must be a non-negative integer");
    }
  } else if (k == "timeout") {
    try {
      s.timeout_seconds = v.as<double>();
    } catch (const YAML::Exception&) {
      f.fail(v, "'timeout' must be a number of seconds");
    }
  } else {
    throw InputError(f.where(v) + ": unknown sweep field '" + k +
                     "' (known: platform, tasks, configs, levels, kernels, set, platform_config, isa_dir, isa_ext, grid, "
                     "variants, reference, out, jobs, timeout)");
  }
}

// Applies one grid coordinate to a variant.
void apply_axis(VariantSpec& v, const std::string& key, const std::string& value) {
  if (key == "platform_config") v.platform_config = value;
  else if (key == "isa_dir") v.isa_dir = value;
  else if (key == "isa_ext")  // after the base's overlays; "a.yaml+b.yaml" stacks two, "none" adds none
    for (const auto& file : split_overlays(value)) v.isa_ext.push_back(file);
  else v.overrides.push_back(key + "=" + value);
}

}  // namespace

SweepSpec load_sweep_yaml(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw InputError(path + ": cannot read the sweep file");
  } catch (const YAML::Exception& e) {
    throw InputError(path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                     ": " + e.msg);
  }
  const YamlFile f{path};
  if (!root.IsMap()) f.fail(root, "a sweep file is a map (platform, tasks, grid, variants, ...)");
  SweepSpec s;
  for (const auto& kv : root) read_field(f, s, kv.first.as<std::string>(), kv.second);
  return s;
}

SweepAxis parse_grid_option(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--grid '" + text + "': expected KEY=v1,v2,... (e.g. arch.vlen=64,128)");
  SweepAxis a{text.substr(0, eq), {}};
  std::stringstream ss(text.substr(eq + 1));
  std::string v;
  while (std::getline(ss, v, ','))
    if (!v.empty()) a.values.push_back(v);
  if (a.values.empty()) throw InputError("--grid '" + text + "': no values after '='");
  return a;
}

VariantSpec parse_variant_option(const std::string& text) {
  VariantSpec v;
  v.platform_config = "";
  std::string rest = text;
  const auto colon = text.find(':');
  if (colon != std::string::npos) {
    v.name = text.substr(0, colon);
    v.name.erase(v.name.find_last_not_of(" \t") + 1);
    rest = text.substr(colon + 1);
  }
  std::stringstream ss(rest);
  std::string word;
  while (ss >> word) {
    const auto eq = word.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--variant '" + text + "': '" + word + "' is not KEY=VALUE (form: 'NAME: KEY=V KEY=V')");
    apply_axis(v, word.substr(0, eq), word.substr(eq + 1));
  }
  return v;
}

std::vector<VariantSpec> expand_variants(const SweepSpec& spec) {
  std::vector<VariantSpec> out;
  // The list (or the base alone), each starting from the base.
  std::vector<VariantSpec> listed = spec.variants.empty() ? std::vector<VariantSpec>{VariantSpec{}} : spec.variants;
  for (auto& v : listed) {
    VariantSpec merged = spec.base;
    merged.name = v.name;
    if (!v.platform_config.empty()) merged.platform_config = v.platform_config;
    if (!v.isa_dir.empty()) merged.isa_dir = v.isa_dir;
    merged.overrides.insert(merged.overrides.end(), v.overrides.begin(), v.overrides.end());
    merged.isa_ext.insert(merged.isa_ext.end(), v.isa_ext.begin(), v.isa_ext.end());
    v = merged;
  }
  // Grid points, the last axis fastest.
  size_t points = 1;
  for (const auto& a : spec.grid) points *= a.values.size();
  for (const auto& base : listed) {
    for (size_t p = 0; p < points; ++p) {
      VariantSpec v = base;
      std::string point;
      size_t rest = p;
      std::vector<std::pair<std::string, std::string>> coords(spec.grid.size());
      for (size_t i = spec.grid.size(); i-- > 0;) {
        coords[i] = {spec.grid[i].key, spec.grid[i].values[rest % spec.grid[i].values.size()]};
        rest /= spec.grid[i].values.size();
      }
      for (const auto& [k, value] : coords) {
        apply_axis(v, k, value);
        point += (point.empty() ? "" : ", ") + k + "=" + value;
      }
      if (!point.empty()) v.name = v.name.empty() ? point : v.name + ", " + point;
      out.push_back(v);
    }
  }
  std::set<std::string> names;
  for (auto& v : out) {
    if (v.name.empty()) v.name = variant_spec_label(v);
    if (!names.insert(v.name).second) throw InputError("two sweep variants are both named '" + v.name + "'");
  }
  return out;
}

}  // namespace tlmcraft::harness
