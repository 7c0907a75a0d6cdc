// The tool-argument validator: each keyword, and messages that name the field.
#include <gtest/gtest.h>

#include "agent/json_schema.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

const json kSchema = json::parse(R"({
  "type": "object",
  "properties": {
    "code": {"type": "string", "minLength": 1},
    "n": {"type": "integer", "minimum": 1, "maximum": 10},
    "mode": {"type": "string", "enum": ["a", "b"]},
    "ratio": {"type": "number"},
    "flag": {"type": "boolean"},
    "rows": {"type": "array", "items": {"type": "integer"}},
    "inner": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"], "additionalProperties": false}
  },
  "required": ["code"],
  "additionalProperties": false
})");

TEST(JsonSchema, ConformingValuesHaveNoErrors) {
  EXPECT_TRUE(validate_json(json{{"code", "x"}}, kSchema).empty());
  EXPECT_TRUE(validate_json(json::parse(R"({"code":"x","n":3,"mode":"b","ratio":2,"flag":true,"rows":[1,2],"inner":{"x":"y"}})"), kSchema).empty());
  EXPECT_TRUE(validate_json(json::parse(R"({"code":"x","n":3.0})"), kSchema).empty());  // 3.0 is an integer
}

TEST(JsonSchema, EachViolationNamesTheField) {
  using V = std::vector<std::string>;
  EXPECT_EQ(validate_json(json::object(), kSchema), V{"missing required field 'code'"});
  EXPECT_EQ(validate_json(json{{"code", ""}}, kSchema), V{"field 'code': must have at least 1 character(s), got 0"});
  EXPECT_EQ(validate_json(json{{"code", "x"}, {"n", 2.5}}, kSchema), V{"field 'n': expected an integer, got a number"});
  EXPECT_EQ(validate_json(json{{"code", "x"}, {"n", 11}}, kSchema), V{"field 'n': 11 is above the maximum 10"});
  // Integral but beyond int64 (fuzz_mcp finding: the check itself overflowed): not an integer.
  EXPECT_EQ(validate_json(json::parse(R"({"code":"x","n":1e300})"), kSchema),
            V{"field 'n': expected an integer, got a number"});
  EXPECT_EQ(validate_json(json::parse(R"({"code":"x","n":-9.3e18})"), kSchema),
            V{"field 'n': expected an integer, got a number"});
  EXPECT_EQ(validate_json(json{{"code", "x"}, {"mode", "c"}}, kSchema), V{"field 'mode': \"c\" is not one of \"a\", \"b\""});
  EXPECT_EQ(validate_json(json{{"code", "x"}, {"flag", "yes"}}, kSchema), V{"field 'flag': expected a boolean, got a string"});
  EXPECT_EQ(validate_json(json::parse(R"({"code":"x","rows":[1,"2"]})"), kSchema),
            V{"field 'rows[1]': expected an integer, got a string"});
  EXPECT_EQ(validate_json(json::parse(R"({"code":"x","inner":{"y":1}})"), kSchema),
            (V{"missing required field 'inner.x'", "unexpected field 'inner.y' (allowed: x)"}));
  EXPECT_EQ(validate_json(json{{"code", "x"}, {"extra", 1}}, kSchema),
            V{"unexpected field 'extra' (allowed: code, flag, inner, mode, n, ratio, rows)"});
  EXPECT_EQ(validate_json(json::array(), kSchema), V{"arguments: expected an object, got an array"});
}

TEST(JsonSchema, ParseArguments) {
  json out;
  std::string err;
  EXPECT_TRUE(parse_arguments("  \n", out, err));
  EXPECT_EQ(out, json::object());
  EXPECT_TRUE(parse_arguments(R"({"a":1})", out, err));
  EXPECT_EQ(out["a"], 1);
  EXPECT_FALSE(parse_arguments("{\"a\":", out, err));
  EXPECT_EQ(err.rfind("arguments are not valid JSON: ", 0), 0u) << err;
  EXPECT_FALSE(parse_arguments("\"text\"", out, err));
  EXPECT_EQ(err, "arguments must be a JSON object, got a string");
}

}  // namespace
}  // namespace tlmcraft::agent
