#include "agent/mcp/mcp_server.h"

#include "agent/json_schema.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <set>
#include <thread>

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

// A request that ends in a JSON-RPC error response.
struct RpcError {
  int code;
  std::string message;
};

std::string text_of(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

json error_response(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

bool valid_id(const json& id) { return id.is_string() || id.is_number_integer(); }

}  // namespace

const std::vector<std::string>& McpServer::supported_versions() {
  static const std::vector<std::string> v = {"2025-06-18", "2025-11-25"};
  return v;
}

McpServer::McpServer(Toolbox& toolbox, McpServerInfo info, std::ostream* log, McpLimits limits)
    : toolbox_(toolbox), info_(std::move(info)), log_(log), limits_(limits) {}

// Too long or too deep to parse safely: the error to answer, else nothing.
std::string McpServer::refuse_size(size_t bytes) const {
  note("message of " + std::to_string(bytes) + " bytes refused");
  return text_of(error_response(nullptr, jsonrpc::kInvalidRequest,
                                "Invalid Request: message of " + std::to_string(bytes) + " bytes exceeds the limit of " +
                                    std::to_string(limits_.max_message_bytes) + " bytes (tlmcraft mcp --max-message-mb)"));
}

std::optional<std::string> McpServer::refuse_unbounded(const std::string& raw) const {
  if (raw.size() > limits_.max_message_bytes) return refuse_size(raw.size());
  if (json_nesting_depth(raw, limits_.max_depth) > limits_.max_depth) {
    note("message nested too deeply refused");
    return text_of(error_response(nullptr, jsonrpc::kInvalidRequest,
                                  "Invalid Request: JSON nested deeper than the limit of " + std::to_string(limits_.max_depth) +
                                      " levels"));
  }
  return std::nullopt;
}

void McpServer::note(const std::string& text) const {
  if (!log_) return;
  std::lock_guard<std::mutex> lock(log_mutex_);
  *log_ << "tlmcraft mcp: " << text << "\n" << std::flush;
}

// A well-formed tools/call request after initialize: the one kind of message that may run
// long, so serve() queues it for the tool thread instead of answering it on the reader.
bool McpServer::is_tool_call(const std::string& raw) const {
  if (state_.load() == State::AwaitingInitialize || raw.size() > limits_.max_message_bytes ||
      json_nesting_depth(raw, limits_.max_depth) > limits_.max_depth)
    return false;
  const json msg = json::parse(raw, nullptr, false);
  return msg.is_object() && msg.contains("id") && valid_id(msg["id"]) && msg.contains("method") &&
         msg["method"] == "tools/call";
}

std::optional<std::string> McpServer::handle_line(const std::string& raw) {
  const auto first = raw.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return std::nullopt;  // blank line: nothing to answer
  if (auto refused = refuse_unbounded(raw)) return refused;
  json id = nullptr;
  try {
    const json msg = json::parse(raw, nullptr, false);
    if (msg.is_discarded()) {
      // Re-parse with exceptions on for the position and cause of the error.
      std::string why = "not valid JSON";
      try {
        const json again = json::parse(raw);
        (void)again;
      } catch (const json::parse_error& e) {
        why = e.what();
      }
      note("parse error: " + why);
      return text_of(error_response(nullptr, jsonrpc::kParseError, "Parse error: " + why));
    }
    if (msg.is_array())
      return text_of(error_response(nullptr, jsonrpc::kInvalidRequest,
                                    "Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed "
                                    "them); send one message per line"));
    if (!msg.is_object())
      return text_of(error_response(nullptr, jsonrpc::kInvalidRequest, "Invalid Request: a message must be a JSON object"));
    const bool has_id = msg.contains("id");
    if (has_id && !valid_id(msg["id"]))
      return text_of(error_response(nullptr, jsonrpc::kInvalidRequest,
                                    "Invalid Request: id must be a string or an integer (not null)"));
    if (has_id) id = msg["id"];
    if (!msg.contains("jsonrpc") || msg["jsonrpc"] != "2.0")
      return text_of(error_response(id, jsonrpc::kInvalidRequest, "Invalid Request: \"jsonrpc\" must be \"2.0\""));
    if (!msg.contains("method")) {
      if (has_id && (msg.contains("result") || msg.contains("error"))) {
        note("ignoring a response from the client (this server sends no requests)");
        return std::nullopt;
      }
      return text_of(error_response(id, jsonrpc::kInvalidRequest, "Invalid Request: missing \"method\""));
    }
    if (!msg["method"].is_string())
      return text_of(error_response(id, jsonrpc::kInvalidRequest, "Invalid Request: \"method\" must be a string"));
    const std::string method = msg["method"].get<std::string>();
    if (!has_id) {  // a notification: never answered, even when wrong
      notification(method);
      return std::nullopt;
    }
    const json params = msg.contains("params") ? msg["params"] : json::object();
    if (!params.is_object() && !params.is_null())
      return text_of(error_response(id, jsonrpc::kInvalidParams, "Invalid params: \"params\" must be an object"));

    if (state_ == State::AwaitingInitialize && method != "initialize" && method != "ping")
      return text_of(error_response(id, jsonrpc::kInvalidRequest,
                                    "Invalid Request: server not initialized; the first request must be "
                                    "'initialize' (got '" + method + "')"));
    try {
      const json result = dispatch(method, params.is_null() ? json::object() : params);
      return text_of({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}});
    } catch (const RpcError& e) {
      return text_of(error_response(id, e.code, e.message));
    }
  } catch (const std::exception& e) {
    note(std::string("internal error: ") + e.what());
    return text_of(error_response(id, jsonrpc::kInternalError, std::string("Internal error: ") + e.what()));
  } catch (...) {
    note("internal error (unknown exception)");
    return text_of(error_response(id, jsonrpc::kInternalError, "Internal error"));
  }
}

void McpServer::notification(const std::string& method) {
  if (method == "notifications/initialized") {
    if (state_ == State::Initializing) {
      state_ = State::Ready;
      note("client initialized (protocol " + protocol_version_ + ")");
    } else {
      note("ignoring notifications/initialized " +
           std::string(state_ == State::Ready ? "(already initialized)" : "before initialize"));
    }
  } else if (method == "notifications/cancelled") {
    note("cancellation ignored: a tool call runs to its end (each is bounded by the run's wall-clock limit)");
  } else {
    note("ignoring notification '" + method + "'");
  }
}

json McpServer::dispatch(const std::string& method, const json& params) {
  if (method == "initialize") return initialize(params);
  if (method == "ping") return json::object();
  if (method == "tools/list") return list_tools();
  if (method == "tools/call") return call_tool(params);
  throw RpcError{jsonrpc::kMethodNotFound, "Method not found: '" + method + "'"};
}

json McpServer::initialize(const json& params) {
  if (state_ != State::AwaitingInitialize)
    throw RpcError{jsonrpc::kInvalidRequest, "Invalid Request: already initialized (initialize may be sent once)"};
  if (!params.contains("protocolVersion") || !params["protocolVersion"].is_string())
    throw RpcError{jsonrpc::kInvalidParams, "Invalid params: initialize needs \"protocolVersion\" (a string)"};
  const std::string asked = params["protocolVersion"].get<std::string>();
  const auto& known = supported_versions();
  // The client's revision if we speak it, else our newest (the client then decides).
  protocol_version_ = std::find(known.begin(), known.end(), asked) != known.end() ? asked : known.back();
  if (protocol_version_ != asked) note("client asked for protocol " + asked + "; offering " + protocol_version_);
  state_ = State::Initializing;

  json server_info = {{"name", info_.name}, {"version", info_.version}};
  if (!info_.title.empty()) server_info["title"] = info_.title;
  json result = {{"protocolVersion", protocol_version_},
                 {"capabilities", {{"tools", {{"listChanged", false}}}}},
                 {"serverInfo", server_info}};
  if (!info_.instructions.empty()) result["instructions"] = info_.instructions;
  return result;
}

json McpServer::list_tools() const {
  json tools = json::array();
  for (const auto& spec : toolbox_.specs()) {
    json schema = spec.parameters.is_object() ? spec.parameters : json{{"type", "object"}};
    tools.push_back({{"name", spec.name}, {"description", spec.description}, {"inputSchema", schema}});
  }
  return {{"tools", tools}};  // one page: no nextCursor
}

json McpServer::call_tool(const json& params) {
  if (!params.contains("name") || !params["name"].is_string() || params["name"].get<std::string>().empty())
    throw RpcError{jsonrpc::kInvalidParams, "Invalid params: tools/call needs \"name\" (a tool name)"};
  const std::string name = params["name"].get<std::string>();
  std::set<std::string> names;
  for (const auto& spec : toolbox_.specs()) names.insert(spec.name);
  if (!names.count(name)) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw RpcError{jsonrpc::kInvalidParams, "Unknown tool: '" + name + "' (tools: " + list + ")"};
  }
  std::string arguments = "{}";
  if (params.contains("arguments") && !params["arguments"].is_null()) {
    if (!params["arguments"].is_object())
      throw RpcError{jsonrpc::kInvalidParams, "Invalid params: tools/call \"arguments\" must be an object"};
    arguments = text_of(params["arguments"]);
  }

  // Tool failures (bad arguments, failing kernels, even exceptions) are results with
  // isError, so the client's model sees them; they never end the server.
  ToolResult r;
  try {
    r = toolbox_.call(name, arguments);
  } catch (const std::exception& e) {
    r = ToolResult{true, "tool '" + name + "' failed: " + e.what(), nullptr};
    note(r.text);
  } catch (...) {
    r = ToolResult{true, "tool '" + name + "' failed with an unknown error", nullptr};
    note(r.text);
  }
  json result = {{"content", json::array({{{"type", "text"}, {"text", r.text}}})}, {"isError", r.is_error}};
  if (r.data.is_object() && !r.data.empty())
    result["structuredContent"] = r.data;
  else if (!r.data.is_null() && !r.data.is_object())
    result["structuredContent"] = {{"result", r.data}};
  return capped_result(std::move(result), r.text.size());
}

// A reply over the limit keeps the start of its text and drops the structured copy.
json McpServer::capped_result(json result, size_t text_bytes) const {
  const size_t bytes = text_of(result).size();
  if (bytes <= limits_.max_reply_bytes) return result;
  const std::string note_text = "\n... (reply of " + std::to_string(bytes) + " bytes cut to the limit of " +
                                std::to_string(limits_.max_reply_bytes) + " bytes; structuredContent dropped)";
  std::string text = result["content"][0]["text"].get<std::string>();
  const size_t keep = std::min(text_bytes, limits_.max_reply_bytes / 2);
  text = text.substr(0, keep) + note_text;
  result["content"][0]["text"] = text;
  result["structuredContent"] = {{"truncated", true}, {"reply_bytes", bytes}};
  note("reply of " + std::to_string(bytes) + " bytes cut");
  return result;
}

// Reads one line into `line`, keeping at most `max` bytes (the rest is skipped; `cut` is
// set). False at end of input with nothing read.
static bool read_bounded_line(std::istream& in, std::string& line, size_t max, size_t& total) {
  line.clear();
  total = 0;
  std::streambuf* sb = in.rdbuf();
  bool any = false;
  for (;;) {
    const int c = sb->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return any;
    }
    any = true;
    if (c == '\n') return true;
    ++total;
    if (line.size() < max) line += static_cast<char>(c);
  }
}

size_t McpServer::serve(std::istream& in, std::ostream& out) {
  std::mutex mutex;  // guards out, calls, reading_done and closed
  std::condition_variable wake;
  std::deque<std::string> calls;  // tool calls waiting for this thread
  bool reading_done = false, closed = false;
  std::atomic<size_t> handled{0};
  const auto write = [&](const std::string& response) {  // with `mutex` held
    out << response << '\n' << std::flush;
    if (!out && !closed) {  // the client closed its end: nobody is listening any more
      closed = true;
      note("output closed; stopping");
    }
  };
  // The reader answers everything but tool calls at once, so a long evaluation never
  // delays a ping (a client's liveness check) or a refusal.
  std::thread reader([&] {
    std::string line;
    size_t total = 0;
    while (read_bounded_line(in, line, limits_.max_message_bytes, total)) {
      ++handled;
      if (total <= limits_.max_message_bytes && is_tool_call(line)) {
        std::lock_guard<std::mutex> lock(mutex);
        calls.push_back(std::move(line));
        wake.notify_one();
      } else {
        const auto response = total > limits_.max_message_bytes ? refuse_size(total) : handle_line(line);
        std::lock_guard<std::mutex> lock(mutex);
        if (response) write(*response);
      }
      std::lock_guard<std::mutex> lock(mutex);
      if (closed) break;
    }
    std::lock_guard<std::mutex> lock(mutex);
    reading_done = true;
    wake.notify_one();
  });
  // Tool calls run here, on the caller's thread (the simulator and the toolchain's child
  // processes stay on the thread that made them), one at a time in arrival order.
  for (;;) {
    std::string call;
    {
      std::unique_lock<std::mutex> lock(mutex);
      wake.wait(lock, [&] { return closed || !calls.empty() || reading_done; });
      if (closed || calls.empty()) break;
      call = std::move(calls.front());
      calls.pop_front();
    }
    const auto response = handle_line(call);
    std::lock_guard<std::mutex> lock(mutex);
    if (response) write(*response);
  }
  reader.join();
  note("end of input; " + std::to_string(handled.load()) + " messages handled");
  return handled.load();
}

}  // namespace tlmcraft::agent
