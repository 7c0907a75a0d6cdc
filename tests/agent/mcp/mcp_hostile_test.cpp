// The MCP server against hostile requests: messages nested 200,000 levels deep, messages
// over the size limit (also when read from the stream), oversized tool replies; each gets
// a JSON-RPC error or a cut reply and the server keeps answering.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "agent/mcp/mcp_server.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

// One tool whose reply is as long as asked.
class BigToolbox : public Toolbox {
 public:
  std::vector<ToolSpec> specs() const override { return {{"big", "A long reply.", json{{"type", "object"}}}}; }
  ToolResult call(const std::string&, const std::string& arguments_json) override {
    const size_t n = json::parse(arguments_json).value("n", 0);
    return {false, std::string(n, 'x'), json{{"payload", std::string(n, 'y')}}};
  }
};

const char* kInit =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})";
const char* kPing = R"({"jsonrpc":"2.0","id":7,"method":"ping"})";

std::string deep_message(size_t depth) {
  return R"({"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":)" + std::string(depth, '[') + std::string(depth, ']') + "}}";
}

TEST(McpHostile, DeepNestingGetsAnErrorThenPingWorks) {
  BigToolbox tools;
  McpServer server(tools);
  const auto r = server.handle_line(deep_message(200000));
  ASSERT_TRUE(r);
  const json j = json::parse(*r);
  EXPECT_EQ(j["error"]["code"], jsonrpc::kInvalidRequest);
  EXPECT_NE(j["error"]["message"].get<std::string>().find("nested deeper than the limit of 64 levels"), std::string::npos) << j;
  const json pong = json::parse(*server.handle_line(kPing));
  EXPECT_EQ(pong["id"], 7);
  EXPECT_EQ(pong["result"], json::object());
}

TEST(McpHostile, NestingWithinTheLimitIsParsed) {
  BigToolbox tools;
  McpServer server(tools);
  const json j = json::parse(*server.handle_line(deep_message(60)));
  EXPECT_EQ(j["id"], 5);
  EXPECT_TRUE(j.contains("result")) << j;
}

TEST(McpHostile, OversizedLineFromTheStreamIsRefusedWithoutStoppingTheServer) {
  BigToolbox tools;
  McpLimits limits;
  limits.max_message_bytes = 1000;
  McpServer server(tools, {}, nullptr, limits);
  const std::string big =
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"pad\":\"" + std::string(5000, 'a') + "\"}}";
  std::istringstream in(std::string(kInit) + "\n" + big + "\n" + kPing + "\n");
  std::ostringstream out;
  EXPECT_EQ(server.serve(in, out), 3u);
  std::istringstream lines(out.str());
  std::string init, refused, pong;
  std::getline(lines, init);
  std::getline(lines, refused);
  std::getline(lines, pong);
  const json e = json::parse(refused);
  EXPECT_EQ(e["error"]["code"], jsonrpc::kInvalidRequest);
  EXPECT_EQ(e["error"]["message"], "Invalid Request: message of " + std::to_string(big.size()) +
                                       " bytes exceeds the limit of 1000 bytes (tlmcraft mcp --max-message-mb)");
  EXPECT_EQ(json::parse(pong)["id"], 7);
}

TEST(McpHostile, RepliesOverTheLimitAreCut) {
  BigToolbox tools;
  McpLimits limits;
  limits.max_reply_bytes = 10000;
  McpServer server(tools, {}, nullptr, limits);
  server.handle_line(kInit);
  const json r = json::parse(*server.handle_line(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"big","arguments":{"n":50000}}})"));
  const std::string text = r["result"]["content"][0]["text"];
  EXPECT_LT(text.size(), 10000u);
  EXPECT_NE(text.find("cut to the limit of 10000 bytes"), std::string::npos);
  EXPECT_EQ(r["result"]["structuredContent"]["truncated"], true);
  // A small reply is untouched.
  const json small = json::parse(*server.handle_line(R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"big","arguments":{"n":10}}})"));
  EXPECT_EQ(small["result"]["content"][0]["text"], "xxxxxxxxxx");
  EXPECT_EQ(small["result"]["structuredContent"]["payload"], "yyyyyyyyyy");
}

}  // namespace
}  // namespace tlmcraft::agent
