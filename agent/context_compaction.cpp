#include "agent/context_compaction.h"

#include <algorithm>
#include <map>
#include <set>

#include "agent/system_prompt.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

const char* kMarker = "[compacted: ";

// What the run knows about each kernel version from its tool results.
struct VersionFacts {
  std::string status;  // "" = never evaluated
  uint64_t cycles = 0;
};

struct History {
  std::map<int, VersionFacts> versions;
  std::map<std::string, int> written_by_call;  // write_code call id -> version it stored
  int latest = 0, best = 0;
};

History history_of(const std::vector<Message>& conv) {
  History h;
  uint64_t best_cycles = 0;
  for (const auto& m : conv) {
    if (m.role != Role::Tool || m.is_error || !m.data.is_object() || !m.data.contains("version")) continue;
    if (!m.data["version"].is_number_integer()) continue;
    const int v = m.data["version"].get<int>();
    if (m.tool_name == "write_code") {
      h.written_by_call[m.tool_call_id] = v;
      h.latest = std::max(h.latest, v);
    }
    if (m.tool_name == "run_evaluation") {
      VersionFacts& f = h.versions[v];
      f.status = m.data.value("status", "");
      f.cycles = m.data.value("cycles", uint64_t(0));
      if (f.status == "pass" && (h.best == 0 || f.cycles < best_cycles)) {
        h.best = v;
        best_cycles = f.cycles;
      }
    }
  }
  return h;
}

std::string version_summary(const History& h, int v) {
  std::string s = "kernel version " + std::to_string(v);
  const auto it = h.versions.find(v);
  if (it == h.versions.end()) return s + ", not evaluated";
  s += ", " + it->second.status;
  if (it->second.status == "pass") s += ", " + std::to_string(it->second.cycles) + " cycles";
  return s;
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > 160) line = line.substr(0, 160) + "...";
  return line;
}

}  // namespace

size_t estimate_request_tokens(const std::vector<Message>& conv, const std::vector<ToolSpec>& tools) {
  size_t n = 0;
  for (const auto& m : conv) {
    n += 4 + estimate_tokens(m.content);
    for (const auto& c : m.tool_calls) n += 8 + estimate_tokens(c.arguments);
    // Thinking blocks (Anthropic) and reasoning items (Responses API) travel too.
    if (m.raw.is_array())
      for (const auto& b : m.raw) {
        const std::string type = b.is_object() ? b.value("type", "") : "";
        if (type == "thinking" || type == "redacted_thinking" || type == "reasoning")
          n += estimate_tokens(b.dump(-1, ' ', false, json::error_handler_t::replace));
      }
  }
  for (const auto& t : tools) n += estimate_tokens(t.name + t.description + t.parameters.dump());
  return n;
}

json CompactionChange::to_json() const {
  json j = {{"index", index}, {"text", text}};
  if (tool_call >= 0) j["tool_call"] = tool_call;
  return j;
}

CompactionChange CompactionChange::from_json(const json& j) {
  CompactionChange c;
  c.index = j.at("index").get<size_t>();
  c.tool_call = j.value("tool_call", -1);
  c.text = j.at("text").get<std::string>();
  return c;
}

void apply_compaction(std::vector<Message>& conv, const std::vector<CompactionChange>& changes) {
  for (const auto& c : changes) {
    if (c.index >= conv.size()) continue;
    Message& m = conv[c.index];
    if (c.tool_call < 0) m.content = c.text;
    else if (size_t(c.tool_call) < m.tool_calls.size()) m.tool_calls[size_t(c.tool_call)].arguments = c.text;
  }
}

std::vector<CompactionChange> compact_conversation(std::vector<Message>& conv, const CompactionOptions& o) {
  const History h = history_of(conv);
  // The first message index of the rounds kept verbatim.
  size_t keep_from = conv.size(), turns = 0;
  for (size_t i = conv.size(); i-- > 0;)
    if (conv[i].role == Role::Assistant) {
      keep_from = i;
      if (++turns >= o.keep_recent_rounds) break;
    }
  if (turns < o.keep_recent_rounds) return {};  // too few rounds to compact anything
  const std::set<int> keep_versions = {h.best, h.latest};

  std::vector<CompactionChange> changes;
  std::map<std::string, int> version_of_call = h.written_by_call;
  for (size_t i = 0; i < keep_from; ++i) {
    const Message& m = conv[i];
    if (m.role == Role::Assistant) {
      for (size_t k = 0; k < m.tool_calls.size(); ++k) {
        const ToolCall& c = m.tool_calls[k];
        const auto it = version_of_call.find(c.id);
        if (c.name != "write_code" || it == version_of_call.end() || keep_versions.count(it->second)) continue;
        json args = json::parse(c.arguments, nullptr, false);
        if (!args.is_object() || !args.contains("code") || !args["code"].is_string()) continue;
        const std::string code = args["code"].get<std::string>();
        if (code.rfind(kMarker, 0) == 0) continue;  // already compacted
        args["code"] = kMarker + version_summary(h, it->second) + "; its source is no longer shown]";
        changes.push_back({i, int(k), args.dump(-1, ' ', false, json::error_handler_t::replace)});
      }
    } else if (m.role == Role::Tool && m.content.size() >= o.min_result_bytes && m.content.rfind(kMarker, 0) != 0) {
      std::string summary = m.tool_name + " result";
      if (m.data.is_object() && m.data.contains("version") && m.data["version"].is_number_integer())
        summary += " for " + version_summary(h, m.data["version"].get<int>());
      changes.push_back({i, -1, kMarker + summary + "] " + first_line(m.content)});
    }
  }
  apply_compaction(conv, changes);
  return changes;
}

}  // namespace tlmcraft::agent
