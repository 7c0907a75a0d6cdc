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

// Parses tool-argument text: empty or all-blank text is the empty object. On failure
// returns false and sets `error` ("arguments are not valid JSON: ..." or "arguments must
// be a JSON object, got an array").
bool parse_arguments(const std::string& text, nlohmann::json& out, std::string& error);

}  // namespace tlmcraft::agent
