// libFuzzer harness: the MCP server's message handling (agent/mcp/mcp_server.cpp) and the
// tool-argument checks every tool call goes through (agent/json_schema.cpp:
// parse_arguments, validate_json). Each input is a session: one JSON-RPC message per line,
// sent to a fresh, initialized server. The tools are the real ones' names and argument
// schemas (fuzz/mcp_tool_schemas.json, copied from `tlmcraft mcp`'s tools/list); a call
// whose arguments pass validation answers with them instead of running the harness, so the
// fuzzer spends its time on the protocol and argument layer.
//
// Checked besides crashes, leaks and UB: every answer is one line of JSON-RPC 2.0 with a
// result or an error; every request with a valid id is answered.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "agent/json_schema.h"
#include "agent/mcp/mcp_server.h"
#include "fuzz/fuzz_input.h"

using namespace tlmcraft::agent;
using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_mcp: property violated: %s\n", what.c_str());
  std::abort();
}

std::vector<ToolSpec> load_tool_specs() {
  const std::string path = std::string(TLMCRAFT_SOURCE_DIR) + "/fuzz/mcp_tool_schemas.json";
  std::ifstream in(path);
  if (!in) fail("cannot read " + path);
  std::vector<ToolSpec> specs;
  for (const auto& t : json::parse(in)) specs.push_back({t.at("name"), "", t.at("inputSchema")});
  return specs;
}

// The tools' argument layer without the harness behind it.
class SchemaToolbox : public Toolbox {
 public:
  std::vector<ToolSpec> specs() const override {
    static const std::vector<ToolSpec> s = load_tool_specs();
    return s;
  }
  ToolResult call(const std::string& tool, const std::string& arguments_json) override {
    for (const auto& spec : specs()) {
      if (spec.name != tool) continue;
      json args;
      std::string error;
      if (!parse_arguments(arguments_json, args, error)) return {true, error, nullptr};
      const auto violations = validate_json(args, spec.parameters);
      if (!violations.empty()) return {true, violations.front(), nullptr};
      return {false, "arguments accepted", args};
    }
    return {true, "unknown tool '" + tool + "'", nullptr};
  }
};

void check_answer(const std::string& line, const std::optional<std::string>& answer) {
  json request = json::parse(line, nullptr, false);
  const bool expects_answer = request.is_object() && request.contains("method") && request.contains("id") &&
                              (request["id"].is_string() || request["id"].is_number_integer());
  if (!answer) {
    if (expects_answer) fail("no answer to a request: " + line.substr(0, 200));
    return;
  }
  if (answer->find('\n') != std::string::npos) fail("an answer spans several lines");
  const json reply = json::parse(*answer, nullptr, false);
  if (!reply.is_object() || reply.value("jsonrpc", "") != "2.0") fail("an answer is not a JSON-RPC 2.0 object");
  if (reply.contains("result") == reply.contains("error")) fail("an answer needs exactly one of result and error");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  SchemaToolbox toolbox;
  McpServer server(toolbox);
  (void)server.handle_line(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}})");
  (void)server.handle_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  std::istringstream session(tlmcraft::fuzz::as_text(data, size));
  std::string line;
  while (std::getline(session, line)) {
    const auto answer = server.handle_line(line);
    check_answer(line, answer);
  }
  return 0;
}
