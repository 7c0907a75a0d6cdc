// A small JSON Schema validator for tool arguments. It covers the subset the tool
// declarations use: type (object, string, integer, number, boolean, array), properties,
// required, additionalProperties: false, enum, minimum/maximum, minLength/maxLength and
// items. Messages name the offending field so a model can fix its call.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlmcraft::agent {

// Every violation of `schema` by `value`, one message each ("field 'code': expected a
// string, got a number"); empty when the value conforms. `path` prefixes field names
// (nested objects give "outer.inner").
std::vector<std::string> validate_json(const nlohmann::json& value, const nlohmann::json& schema,
                                       const std::string& path = "");

// Bounds on JSON from untrusted sources (model tool calls, MCP clients), checked on the
// text before parsing: copying, dumping and validating parsed JSON recurse per level.
constexpr size_t kMaxJsonDepth = 64;
constexpr size_t kMaxArgumentBytes = 8u << 20;  // one tool call's arguments (a 4 MB kernel, escaped)

// The deepest nesting of arrays and objects in JSON text (strings skipped), scanning no
// further than one level past `limit`.
size_t json_nesting_depth(const std::string& text, size_t limit = kMaxJsonDepth);

// Parses tool-argument text: empty or all-blank text is the empty object. On failure
// returns false and sets `error` ("arguments are not valid JSON: ..." or "arguments must
// be a JSON object, got an array"); also for text longer than kMaxArgumentBytes or nested
// deeper than kMaxJsonDepth.
bool parse_arguments(const std::string& text, nlohmann::json& out, std::string& error);

}  // namespace tlmcraft::agent
