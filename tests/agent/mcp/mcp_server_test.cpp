// The MCP server driven through in-memory streams with a fake Toolbox: lifecycle and
// version negotiation, tools/list and tools/call shapes, every JSON-RPC error code,
// notifications (never answered), batches, and tool failures that must not end the server.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <sstream>
#include <streambuf>
#include <thread>

#include <nlohmann/json.hpp>

#include "agent/mcp/mcp_server.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

class FakeToolbox : public Toolbox {
 public:
  std::vector<ToolSpec> specs() const override {
    if (fail_specs) throw std::runtime_error("spec table corrupted");
    return {{"echo", "Echo the text back.",
             json::parse(R"({"type":"object","properties":{"text":{"type":"string"}},"required":["text"],
                             "additionalProperties":false})")},
            {"boom", "Always throws.", json()},
            {"bad", "Always reports a tool error.", json{{"type", "object"}}}};
  }
  ToolResult call(const std::string& tool, const std::string& arguments_json) override {
    calls.push_back(tool + " " + arguments_json);
    if (tool == "boom") throw std::runtime_error("simulator exploded");
    if (tool == "bad") return {true, "kernel.asm:3:7: error: unknown register 'gp99'", json{{"errors", 1}}};
    const json args = json::parse(arguments_json);
    return {false, "echo: " + args.value("text", ""), json{{"echoed", args.value("text", "")}}};
  }
  bool fail_specs = false;
  std::vector<std::string> calls;
};

class McpServerTest : public ::testing::Test {
 protected:
  // Sends one line; returns the parsed response (null json when there is none).
  json send(const std::string& line) {
    const auto out = server.handle_line(line);
    return out ? json::parse(*out) : json();
  }
  json send(const char* line) { return send(std::string(line)); }
  json send(const json& msg) { return send(msg.dump()); }
  void initialize(const std::string& version = "2025-06-18") {
    const json r = send(json{{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
                             {"params", {{"protocolVersion", version}, {"capabilities", json::object()},
                                         {"clientInfo", {{"name", "test"}, {"version", "1"}}}}}});
    ASSERT_TRUE(r.contains("result")) << r;
    EXPECT_EQ(send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"), json());
  }
  static json request(int id, const std::string& method, json params = nullptr) {
    json j = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
    if (!params.is_null()) j["params"] = params;
    return j;
  }
  static void expect_error(const json& r, const json& id, int code, const std::string& message_part) {
    ASSERT_TRUE(r.contains("error")) << r;
    EXPECT_EQ(r["jsonrpc"], "2.0");
    EXPECT_EQ(r["id"], id);
    EXPECT_EQ(r["error"]["code"], code);
    EXPECT_NE(r["error"]["message"].get<std::string>().find(message_part), std::string::npos) << r;
    EXPECT_FALSE(r.contains("result"));
  }

  FakeToolbox toolbox;
  std::ostringstream log;
  McpServer server{toolbox, McpServerInfo{}, &log};
};

TEST_F(McpServerTest, InitializeAnswersTheClientsSupportedVersion) {
  for (const std::string v : {"2025-06-18", "2025-11-25"}) {
    FakeToolbox tb;
    McpServer s(tb);
    const json r = json::parse(*s.handle_line(
        request(1, "initialize", {{"protocolVersion", v}, {"capabilities", json::object()}}).dump()));
    EXPECT_EQ(r["id"], 1);
    EXPECT_EQ(r["result"]["protocolVersion"], v);
    EXPECT_EQ(r["result"]["capabilities"], json::parse(R"({"tools":{"listChanged":false}})"));
    EXPECT_EQ(r["result"]["serverInfo"]["name"], "tlmcraft");
    EXPECT_TRUE(r["result"]["serverInfo"].contains("version"));
    EXPECT_EQ(s.protocol_version(), v);
  }
}

TEST_F(McpServerTest, UnsupportedVersionGetsTheNewestSupported) {
  const json r = send(request(7, "initialize", {{"protocolVersion", "2024-11-05"}}));
  EXPECT_EQ(r["result"]["protocolVersion"], "2025-11-25");
  EXPECT_NE(log.str().find("client asked for protocol 2024-11-05; offering 2025-11-25"), std::string::npos);
}

TEST_F(McpServerTest, RequestsBeforeInitializeAreRejectedButPingIsAllowed) {
  expect_error(send(request(1, "tools/list")), 1, jsonrpc::kInvalidRequest, "server not initialized");
  EXPECT_EQ(send(request(2, "ping")), json::parse(R"({"jsonrpc":"2.0","id":2,"result":{}})"));
  // An initialized notification before initialize changes nothing (and is not answered).
  EXPECT_EQ(send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"), json());
  expect_error(send(request(3, "tools/call", {{"name", "echo"}})), 3, jsonrpc::kInvalidRequest,
               "the first request must be 'initialize'");
  EXPECT_TRUE(toolbox.calls.empty());
  initialize();
  EXPECT_TRUE(send(request(4, "tools/list")).contains("result"));
}

TEST_F(McpServerTest, InitializeTwiceAndWithoutVersionAreErrors) {
  expect_error(send(request(1, "initialize", json::object())), 1, jsonrpc::kInvalidParams, "protocolVersion");
  expect_error(send(request(2, "initialize", {{"protocolVersion", 20250618}})), 2, jsonrpc::kInvalidParams,
               "protocolVersion");
  EXPECT_FALSE(server.initialized());
  initialize();
  expect_error(send(request(3, "initialize", {{"protocolVersion", "2025-06-18"}})), 3, jsonrpc::kInvalidRequest,
               "already initialized");
}

TEST_F(McpServerTest, ToolsListCarriesNameDescriptionAndObjectSchemas) {
  initialize();
  const json r = send(request(5, "tools/list", json::object()));
  const json& tools = r["result"]["tools"];
  ASSERT_EQ(tools.size(), 3u);
  EXPECT_EQ(tools[0]["name"], "echo");
  EXPECT_EQ(tools[0]["description"], "Echo the text back.");
  EXPECT_EQ(tools[0]["inputSchema"]["required"], json::array({"text"}));
  EXPECT_EQ(tools[1]["inputSchema"], json::parse(R"({"type":"object"})"));  // no schema declared
  EXPECT_FALSE(r["result"].contains("nextCursor"));
}

TEST_F(McpServerTest, ToolsCallSuccessAndToolFailureShapes) {
  initialize();
  const json ok = send(request(6, "tools/call", {{"name", "echo"}, {"arguments", {{"text", "hi"}}}}));
  EXPECT_EQ(ok["result"], json::parse(R"({"content":[{"type":"text","text":"echo: hi"}],"isError":false,
                                           "structuredContent":{"echoed":"hi"}})"));
  EXPECT_EQ(toolbox.calls.back(), R"(echo {"text":"hi"})");

  // A tool error is a result with isError, not a JSON-RPC error.
  const json bad = send(request(7, "tools/call", {{"name", "bad"}}));
  EXPECT_EQ(bad["result"]["isError"], true);
  EXPECT_EQ(bad["result"]["content"][0]["text"], "kernel.asm:3:7: error: unknown register 'gp99'");
  EXPECT_EQ(toolbox.calls.back(), "bad {}");  // absent arguments are an empty object

  // An exception inside a tool is reported the same way and the server keeps serving.
  const json boom = send(request(8, "tools/call", {{"name", "boom"}, {"arguments", nullptr}}));
  EXPECT_EQ(boom["result"]["isError"], true);
  EXPECT_EQ(boom["result"]["content"][0]["text"], "tool 'boom' failed: simulator exploded");
  EXPECT_FALSE(boom["result"].contains("structuredContent"));
  EXPECT_EQ(send(request(9, "ping"))["result"], json::object());
}

TEST_F(McpServerTest, InvalidParamsForToolsCall) {
  initialize();
  expect_error(send(request(10, "tools/call", json::object())), 10, jsonrpc::kInvalidParams, "needs \"name\"");
  expect_error(send(request(11, "tools/call", {{"name", 3}})), 11, jsonrpc::kInvalidParams, "needs \"name\"");
  expect_error(send(request(12, "tools/call", {{"name", "nope"}})), 12, jsonrpc::kInvalidParams,
               "Unknown tool: 'nope' (tools: bad, boom, echo)");
  expect_error(send(request(13, "tools/call", {{"name", "echo"}, {"arguments", "text=hi"}})), 13,
               jsonrpc::kInvalidParams, "\"arguments\" must be an object");
  expect_error(send(R"({"jsonrpc":"2.0","id":14,"method":"tools/call","params":[1,2]})"), 14, jsonrpc::kInvalidParams,
               "\"params\" must be an object");
  EXPECT_TRUE(toolbox.calls.empty());
}

TEST_F(McpServerTest, ParseErrorAndInvalidRequestsHaveNullIdWhenTheIdIsUnknown) {
  expect_error(send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"), nullptr, jsonrpc::kParseError, "Parse error");
  expect_error(send("not json at all"), nullptr, jsonrpc::kParseError, "Parse error");
  expect_error(send("42"), nullptr, jsonrpc::kInvalidRequest, "must be a JSON object");
  expect_error(send(R"({"jsonrpc":"2.0","id":null,"method":"ping"})"), nullptr, jsonrpc::kInvalidRequest,
               "id must be a string or an integer");
  expect_error(send(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})"), nullptr, jsonrpc::kInvalidRequest,
               "id must be a string or an integer");
  expect_error(send(R"({"jsonrpc":"1.0","id":"a","method":"ping"})"), "a", jsonrpc::kInvalidRequest,
               "\"jsonrpc\" must be \"2.0\"");
  expect_error(send(R"({"id":"b","method":"ping"})"), "b", jsonrpc::kInvalidRequest, "\"jsonrpc\" must be \"2.0\"");
  expect_error(send(R"({"jsonrpc":"2.0","id":5})"), 5, jsonrpc::kInvalidRequest, "missing \"method\"");
  expect_error(send(R"({"jsonrpc":"2.0","id":6,"method":17})"), 6, jsonrpc::kInvalidRequest,
               "\"method\" must be a string");
}

TEST_F(McpServerTest, BatchesAreRejectedAsAWhole) {
  initialize();
  const json r = send(json::array({request(1, "ping"), request(2, "tools/list")}));
  expect_error(r, nullptr, jsonrpc::kInvalidRequest, "batches are not supported");
  expect_error(send("[]"), nullptr, jsonrpc::kInvalidRequest, "batches are not supported");
}

TEST_F(McpServerTest, UnknownMethodsAndNotifications) {
  initialize();
  expect_error(send(request(20, "resources/list")), 20, jsonrpc::kMethodNotFound, "Method not found: 'resources/list'");
  // Notifications are never answered, known or not, well-formed or not.
  EXPECT_EQ(send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}})"), json());
  EXPECT_EQ(send(R"({"jsonrpc":"2.0","method":"notifications/whatever"})"), json());
  EXPECT_EQ(send(R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo"}})"), json());
  EXPECT_TRUE(toolbox.calls.empty());  // a tools/call without id is a notification: not run
  // A response from the client (we never send requests) is dropped.
  EXPECT_EQ(send(R"({"jsonrpc":"2.0","id":99,"result":{}})"), json());
  EXPECT_EQ(send("   "), json());
  EXPECT_NE(log.str().find("ignoring notification 'notifications/whatever'"), std::string::npos);
}

TEST_F(McpServerTest, StringIdsAreEchoedExactly) {
  initialize();
  const json r = send(R"({"jsonrpc":"2.0","id":"req-1","method":"ping"})");
  EXPECT_EQ(r, json::parse(R"({"jsonrpc":"2.0","id":"req-1","result":{}})"));
}

TEST_F(McpServerTest, InternalFailureOutsideAToolIsInternalError) {
  initialize();
  toolbox.fail_specs = true;
  expect_error(send(request(30, "tools/list")), 30, jsonrpc::kInternalError, "spec table corrupted");
  toolbox.fail_specs = false;
  EXPECT_TRUE(send(request(31, "tools/list")).contains("result"));
}

TEST_F(McpServerTest, InvalidUtf8InToolOutputIsReplacedNotFatal) {
  class Binary : public FakeToolbox {
    ToolResult call(const std::string&, const std::string&) override { return {false, "bytes \xff\xfe end", nullptr}; }
  } tb;
  McpServer s(tb);
  s.handle_line(request(1, "initialize", {{"protocolVersion", "2025-11-25"}}).dump());
  const auto out = s.handle_line(request(2, "tools/call", {{"name", "echo"}, {"arguments", {{"text", "x"}}}}).dump());
  ASSERT_TRUE(out);
  const json r = json::parse(*out);
  EXPECT_EQ(r["result"]["content"][0]["text"], "bytes \xEF\xBF\xBD\xEF\xBF\xBD end");  // U+FFFD for each bad byte
}

TEST_F(McpServerTest, ServeAnswersEveryLineUntilEof) {
  std::istringstream in(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})" "\n"
      R"({"jsonrpc":"2.0","method":"notifications/initialized"})" "\n"
      "\n"
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a"}}})" "\r\n"
      "{broken\n"
      R"({"jsonrpc":"2.0","id":3,"method":"ping"})");  // last line without a newline
  std::ostringstream out;
  EXPECT_EQ(server.serve(in, out), 6u);
  std::istringstream lines(out.str());
  std::vector<json> responses;
  for (std::string l; std::getline(lines, l);) responses.push_back(json::parse(l));
  ASSERT_EQ(responses.size(), 4u);  // the notification and the blank line get no answer
  // The tool call runs on serve's thread, the rest is answered by the reader in order: the
  // echo may come anywhere after the initialize answer.
  std::vector<json> others;
  json echo;
  for (const json& r : responses) (r["id"] == 2 ? echo : others.emplace_back()) = r;
  EXPECT_EQ(echo["result"]["content"][0]["text"], "echo: a");
  ASSERT_EQ(others.size(), 3u);
  EXPECT_EQ(others[0]["id"], 1);
  EXPECT_EQ(others[1]["error"]["code"], jsonrpc::kParseError);
  EXPECT_EQ(others[2], json::parse(R"({"jsonrpc":"2.0","id":3,"result":{}})"));
  EXPECT_EQ(out.str().back(), '\n');
}

TEST_F(McpServerTest, ServeStopsWhenTheOutputIsClosed) {
  std::istringstream in(R"({"jsonrpc":"2.0","id":1,"method":"ping"})" "\n"
                        R"({"jsonrpc":"2.0","id":2,"method":"ping"})" "\n");
  std::ostringstream out;
  out.setstate(std::ios::badbit);  // as when writing to a closed pipe fails
  EXPECT_EQ(server.serve(in, out), 1u);
  EXPECT_NE(log.str().find("output closed; stopping"), std::string::npos);
}

// An output stream that notes, thread-safely, when a given response line was written.
class WatchedOutput : public std::streambuf {
 public:
  explicit WatchedOutput(std::string needle) : needle_(std::move(needle)) {}
  std::atomic<bool> seen{false};
  std::string text() {
    std::lock_guard<std::mutex> lock(m_);
    return text_;
  }

 protected:
  int overflow(int c) override {
    if (c != traits_type::eof()) {
      std::lock_guard<std::mutex> lock(m_);
      text_ += static_cast<char>(c);
      if (text_.find(needle_) != std::string::npos) seen = true;
    }
    return c;
  }

 private:
  std::mutex m_;
  std::string text_, needle_;
};

// A tool that runs until the ping sent after it has been answered (or 60 s pass: a bound
// for a broken server only, far above what a loaded host needs).
class SlowToolbox : public Toolbox {
 public:
  explicit SlowToolbox(std::atomic<bool>& answered) : answered_(answered) {}
  std::vector<ToolSpec> specs() const override { return {{"slow", "Waits.", json{{"type", "object"}}}}; }
  ToolResult call(const std::string&, const std::string&) override {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!answered_ && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return {false, answered_ ? "the ping was answered while I ran" : "the ping waited for me", nullptr};
  }

 private:
  std::atomic<bool>& answered_;
};

// Issue 22: one long tools/call (a check_syntax of a hostile AIE-ML file took 25 s) kept a
// ping waiting. The reader thread answers pings while a tool call runs: the tool here only
// returns once the ping's answer is on the output, so with a server that reads the ping
// after the call the tool would wait its 60 s and say so.
TEST(McpServerConcurrency, PingIsAnsweredWhileAToolCallRuns) {
  WatchedOutput buf(R"("id":9,)");  // the ping's answer (keys come sorted)
  std::ostream out(&buf);
  SlowToolbox tools(buf.seen);
  McpServer server(tools);
  std::istringstream in(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})" "\n"
                        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}})" "\n"
                        R"({"jsonrpc":"2.0","id":9,"method":"ping"})" "\n");
  EXPECT_EQ(server.serve(in, out), 3u);
  std::istringstream lines(buf.text());
  std::vector<json> responses;
  for (std::string l; std::getline(lines, l);) responses.push_back(json::parse(l));
  ASSERT_EQ(responses.size(), 3u);
  EXPECT_EQ(responses[1]["id"], 9);  // the ping, before the tool call's answer
  EXPECT_EQ(responses[2]["id"], 2);
  EXPECT_EQ(responses[2]["result"]["content"][0]["text"], "the ping was answered while I ran");
}

}  // namespace
}  // namespace tlmcraft::agent
