// The Model Context Protocol server behind `tlmcraft mcp`: JSON-RPC 2.0 messages, one per
// line (the stdio transport), exposing a Toolbox's tools to any MCP client. Protocol
// revisions 2025-06-18 and 2025-11-25; tools only (no resources, prompts or sampling).
// The server never writes anything but protocol messages to its output stream; notices go
// to the log stream (stderr in the CLI).
#pragma once
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/toolbox.h"

namespace tlmcraft::agent {

// JSON-RPC 2.0 error codes used by the server.
namespace jsonrpc {
constexpr int kParseError = -32700;      // the line is not JSON
constexpr int kInvalidRequest = -32600;  // not a request object, batch, or out of lifecycle order
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;   // missing/wrong params, unknown tool name
constexpr int kInternalError = -32603;   // the server itself failed (never a tool failure)
}  // namespace jsonrpc

struct McpServerInfo {
  std::string name = "tlmcraft";
  std::string title = "tlmcraft virtual accelerator platforms";
  std::string version = "0.1.0";
  std::string instructions;  // optional text for the client's model (omitted when empty)
};

class McpServer {
 public:
  // Protocol revisions this server speaks, oldest first.
  static const std::vector<std::string>& supported_versions();

  McpServer(Toolbox& toolbox, McpServerInfo info = {}, std::ostream* log = nullptr);

  // One incoming line: the response line (without the newline) or nothing (notifications,
  // responses from the client, blank lines).
  std::optional<std::string> handle_line(const std::string& line);

  // Reads messages until EOF on `in`, writing each response as one line to `out` (flushed).
  // Returns the number of messages handled.
  size_t serve(std::istream& in, std::ostream& out);

  bool initialized() const { return state_ != State::AwaitingInitialize; }
  const std::string& protocol_version() const { return protocol_version_; }

 private:
  enum class State { AwaitingInitialize, Initializing, Ready };

  nlohmann::json dispatch(const std::string& method, const nlohmann::json& params);
  nlohmann::json initialize(const nlohmann::json& params);
  nlohmann::json list_tools() const;
  nlohmann::json call_tool(const nlohmann::json& params);
  void notification(const std::string& method);
  void note(const std::string& text) const;

  Toolbox& toolbox_;
  McpServerInfo info_;
  std::ostream* log_;
  State state_ = State::AwaitingInitialize;
  std::string protocol_version_;
};

}  // namespace tlmcraft::agent
