// The Model Context Protocol server behind `tlmcraft mcp`: JSON-RPC 2.0 messages, one per
// line (the stdio transport), exposing a Toolbox's tools to any MCP client. Protocol
// revisions 2025-06-18 and 2025-11-25; tools only (no resources, prompts or sampling).
// The server never writes anything but protocol messages to its output stream; notices go
// to the log stream (stderr in the CLI).
#pragma once
#include <atomic>
#include <istream>
#include <mutex>
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

// Bounds on what a client may send and what one reply may hold (docs/reliability.md).
struct McpLimits {
  size_t max_message_bytes = 8u << 20;  // one JSON-RPC line; longer ones get an error and are skipped
  size_t max_depth = 64;                // nesting of arrays/objects, checked before parsing
  size_t max_reply_bytes = 4u << 20;    // a tool result beyond this is cut, with a note
};

class McpServer {
 public:
  // Protocol revisions this server speaks, oldest first.
  static const std::vector<std::string>& supported_versions();

  McpServer(Toolbox& toolbox, McpServerInfo info = {}, std::ostream* log = nullptr, McpLimits limits = {});

  // One incoming line: the response line (without the newline) or nothing (notifications,
  // responses from the client, blank lines).
  std::optional<std::string> handle_line(const std::string& line);

  // Reads messages until EOF on `in`, writing each response as one line to `out` (flushed).
  // A line longer than the message limit is answered with an error without being kept
  // in memory. Tool calls run one at a time on the calling thread, in arrival order;
  // every other message (ping, initialize, tools/list, errors) is answered by a reader
  // thread at once, also while a tool call runs, so responses may come out of order (each
  // carries its request's id). Returns after the last tool call queued before EOF has
  // been answered; returns the number of messages read.
  size_t serve(std::istream& in, std::ostream& out);

  bool initialized() const { return state_.load() != State::AwaitingInitialize; }
  const std::string& protocol_version() const { return protocol_version_; }

 private:
  enum class State { AwaitingInitialize, Initializing, Ready };

  bool is_tool_call(const std::string& raw) const;
  nlohmann::json dispatch(const std::string& method, const nlohmann::json& params);
  nlohmann::json initialize(const nlohmann::json& params);
  nlohmann::json list_tools() const;
  nlohmann::json call_tool(const nlohmann::json& params);
  std::optional<std::string> refuse_unbounded(const std::string& raw) const;
  std::string refuse_size(size_t bytes) const;
  nlohmann::json capped_result(nlohmann::json result, size_t text_bytes) const;
  void notification(const std::string& method);
  void note(const std::string& text) const;

  Toolbox& toolbox_;
  McpServerInfo info_;
  std::ostream* log_;
  McpLimits limits_;
  std::atomic<State> state_{State::AwaitingInitialize};  // changed by the reader thread only
  mutable std::mutex log_mutex_;
  std::string protocol_version_;
};

}  // namespace tlmcraft::agent
