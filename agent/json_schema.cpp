#include "agent/json_schema.h"

#include <algorithm>

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

std::string kind_of(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a number";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    default: return "an unsupported value";
  }
}

bool has_type(const json& v, const std::string& type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_boolean();
  if (type == "null") return v.is_null();
  if (type == "integer") {
    if (v.is_number_integer()) return true;
    // 3.0 is an integer in JSON Schema; 3.5 is not.
    return v.is_number_float() && v.get<double>() == static_cast<double>(static_cast<long long>(v.get<double>()));
  }
  if (type == "number") return v.is_number();
  return false;
}

std::string article(const std::string& type) {
  if (type == "object" || type == "array" || type == "integer") return "an " + type;
  return "a " + type;
}

std::string field_name(const std::string& path) { return path.empty() ? "arguments" : "field '" + path + "'"; }

}  // namespace

std::vector<std::string> validate_json(const json& value, const json& schema, const std::string& path) {
  std::vector<std::string> errors;
  if (!schema.is_object()) return errors;
  const std::string where = field_name(path);

  if (schema.contains("type")) {
    const json& t = schema["type"];
    std::vector<std::string> types;
    if (t.is_string()) types.push_back(t.get<std::string>());
    else if (t.is_array())
      for (const auto& x : t)
        if (x.is_string()) types.push_back(x.get<std::string>());
    if (!types.empty() && std::none_of(types.begin(), types.end(), [&](const std::string& s) { return has_type(value, s); })) {
      std::string want;
      for (size_t i = 0; i < types.size(); ++i) want += (i ? " or " : "") + article(types[i]);
      errors.push_back(where + ": expected " + want + ", got " + kind_of(value));
      return errors;  // further keywords would only repeat the type mismatch
    }
  }
  if (schema.contains("enum") && schema["enum"].is_array()) {
    const json& e = schema["enum"];
    if (std::find(e.begin(), e.end(), value) == e.end()) {
      std::string allowed;
      for (const auto& x : e) allowed += (allowed.empty() ? "" : ", ") + x.dump();
      errors.push_back(where + ": " + value.dump() + " is not one of " + allowed);
    }
  }
  if (value.is_number()) {
    const double v = value.get<double>();
    if (schema.contains("minimum") && v < schema["minimum"].get<double>())
      errors.push_back(where + ": " + value.dump() + " is below the minimum " + schema["minimum"].dump());
    if (schema.contains("maximum") && v > schema["maximum"].get<double>())
      errors.push_back(where + ": " + value.dump() + " is above the maximum " + schema["maximum"].dump());
  }
  if (value.is_string()) {
    const size_t n = value.get_ref<const std::string&>().size();
    if (schema.contains("minLength") && n < schema["minLength"].get<size_t>())
      errors.push_back(where + ": must have at least " + schema["minLength"].dump() + " character(s), got " +
                       std::to_string(n));
    if (schema.contains("maxLength") && n > schema["maxLength"].get<size_t>())
      errors.push_back(where + ": must have at most " + schema["maxLength"].dump() + " characters, got " +
                       std::to_string(n));
  }
  if (value.is_array() && schema.contains("items")) {
    for (size_t i = 0; i < value.size(); ++i) {
      auto sub = validate_json(value[i], schema["items"], path + "[" + std::to_string(i) + "]");
      errors.insert(errors.end(), sub.begin(), sub.end());
    }
  }
  if (value.is_object()) {
    const json props = schema.value("properties", json::object());
    if (schema.contains("required") && schema["required"].is_array()) {
      for (const auto& r : schema["required"]) {
        if (r.is_string() && !value.contains(r.get<std::string>()))
          errors.push_back("missing required field '" + (path.empty() ? "" : path + ".") + r.get<std::string>() + "'");
      }
    }
    const bool closed = schema.contains("additionalProperties") && schema["additionalProperties"] == false;
    for (const auto& [key, v] : value.items()) {
      const std::string sub_path = path.empty() ? key : path + "." + key;
      if (props.contains(key)) {
        auto sub = validate_json(v, props[key], sub_path);
        errors.insert(errors.end(), sub.begin(), sub.end());
      } else if (closed) {
        std::string allowed;
        for (const auto& [k, _] : props.items()) allowed += (allowed.empty() ? "" : ", ") + k;
        errors.push_back("unexpected field '" + sub_path + "' (allowed: " + (allowed.empty() ? "none" : allowed) + ")");
      }
    }
  }
  return errors;
}

size_t json_nesting_depth(const std::string& text, size_t limit) {
  size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

bool parse_arguments(const std::string& text, json& out, std::string& error) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    out = json::object();
    return true;
  }
  if (text.size() > kMaxArgumentBytes) {
    error = "arguments of " + std::to_string(text.size()) + " bytes exceed the limit of " + std::to_string(kMaxArgumentBytes) +
            " bytes";
    return false;
  }
  if (json_nesting_depth(text) > kMaxJsonDepth) {
    error = "arguments are nested deeper than the limit of " + std::to_string(kMaxJsonDepth) + " levels";
    return false;
  }
  try {
    out = json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann's message includes the byte position; drop its "[json.exception...]" prefix.
    std::string what = e.what();
    const auto p = what.find("] ");
    error = "arguments are not valid JSON: " + (p == std::string::npos ? what : what.substr(p + 2));
    return false;
  }
  if (!out.is_object()) {
    error = "arguments must be a JSON object, got " + kind_of(out);
    return false;
  }
  return true;
}

}  // namespace tlmcraft::agent
