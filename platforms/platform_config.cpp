#include "platforms/platform_config.h"

#include <sstream>
#include <vector>

#include "common/data_dir.h"
#include "common/platform_catalog.h"
#include "platforms/platform.h"

namespace tlmcraft {

std::string yaml_where(const std::string& file, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  if (m.line < 0) return file;
  return file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

std::string yaml_error_message(const std::string& file, const YAML::Exception& e) {
  if (e.mark.is_null()) return file + ": " + e.msg;
  return file + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) + ": " + e.msg;
}

nlohmann::json yaml_to_json(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json j = nlohmann::json::object();
      for (const auto& kv : n) j[kv.first.as<std::string>()] = yaml_to_json(kv.second);
      return j;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& e : n) j.push_back(yaml_to_json(e));
      return j;
    }
    case YAML::NodeType::Scalar: {
      const std::string s = n.Scalar();
      if (n.Tag() == "!") return s;  // quoted
      try {
        size_t p;
        const long long v = std::stoll(s, &p, 0);
        if (p == s.size()) return v;
      } catch (...) {
      }
      try {
        size_t p;
        const double v = std::stod(s, &p);
        if (p == s.size()) return v;
      } catch (...) {
      }
      if (s == "true") return true;
      if (s == "false") return false;
      return s;
    }
    default: return nullptr;
  }
}

void apply_config_override(YAML::Node root, const std::string& text, const std::string& example) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--set '" + text + "': expected KEY=VALUE, e.g. " + example);
  const std::string key = text.substr(0, eq), value = text.substr(eq + 1);
  std::vector<std::string> parts;
  std::stringstream ss(key);
  for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
  YAML::Node node = root;
  std::string walked;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!node.IsMap() || !node[parts[i]]) {
      std::string known;
      if (node.IsMap())
        for (const auto& kv : node) known += (known.empty() ? "" : ", ") + kv.first.as<std::string>();
      throw InputError("--set '" + text + "': unknown key '" + (walked.empty() ? "" : walked + ".") + parts[i] + "'" +
                       (known.empty() ? "" : " (known here: " + known + ")"));
    }
    walked += (walked.empty() ? "" : ".") + parts[i];
    if (i + 1 < parts.size()) node.reset(node[parts[i]]);  // reset: yaml-cpp's operator= would assign through
  }
  YAML::Node parsed;
  try {
    parsed = YAML::Load(value);
  } catch (const YAML::Exception& e) {
    throw InputError("--set '" + text + "': value is not valid YAML: " + e.msg);
  }
  node[parts.back()] = parsed;
}

std::string platform_config_path(const std::string& platform, const std::string& name_or_path) {
  if (name_or_path.find('/') != std::string::npos || name_or_path.find(".yaml") != std::string::npos)
    return name_or_path;
  const PlatformInfo* info = find_platform_info(platform);
  if (info && !info->config_dir.empty()) return info->config_dir + "/" + name_or_path + ".yaml";
  return data::data_path("platforms/" + platform + "/configs/" + name_or_path + ".yaml");
}

}  // namespace tlmcraft
