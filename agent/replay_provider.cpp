// make_replay_provider: plays back the assistant turns of a recorded transcript in
// order, for tests and demos. Accepts transcripts written by the loop (message events
// of complete rounds) and hand-written scripts whose lines are plain assistant messages
// ({"role": "assistant", "content": ..., "tool_calls": [...]}).
#include <fstream>

#include "agent/providers.h"
#include "agent/transcript.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

class ReplayProvider : public Provider {
 public:
  explicit ReplayProvider(const std::string& path) : path_(path) { load(); }

  std::string name() const override { return "replay"; }

  Completion complete(const std::vector<Message>&, const std::vector<ToolSpec>&) override {
    if (next_ >= turns_.size())
      throw ProviderError("replay: " + path_ + " has no more assistant messages (" + std::to_string(turns_.size()) +
                          " played)");
    return turns_[next_++];
  }

 private:
  void load() {
    std::ifstream in(path_, std::ios::binary);
    if (!in) throw ProviderError("replay: cannot open " + path_);
    // Plain-message scripts are recognised by their first object having a "role".
    std::string line;
    size_t line_no = 0;
    bool plain = false, decided = false;
    while (std::getline(in, line)) {
      ++line_no;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      const json j = json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.is_object())
        throw ProviderError("replay: " + path_ + ":" + std::to_string(line_no) + ": not a JSON object");
      if (!decided) {
        plain = j.contains("role");
        decided = true;
      }
      if (!plain) break;
      add(j, j, line_no);
    }
    if (plain) return;
    try {
      const TranscriptState st = read_transcript(path_);
      for (const auto& ev : st.assistant_turns) add(ev.at("message"), ev, 0);
    } catch (const ProviderError&) {
      throw;
    } catch (const std::exception& e) {
      throw ProviderError(std::string("replay: ") + e.what());
    }
  }

  void add(const json& message, const json& event, size_t line_no) {
    Completion c;
    try {
      c.message = Message::from_json(message);
    } catch (const std::exception& e) {
      throw ProviderError("replay: " + path_ + (line_no ? ":" + std::to_string(line_no) : std::string()) +
                          ": bad message: " + e.what());
    }
    if (c.message.role != Role::Assistant) return;  // scripts may keep other roles for context
    if (event.contains("usage")) c.usage = Usage::from_json(event["usage"]);
    c.stop_reason = event.value("stop_reason", c.message.tool_calls.empty() ? "end_turn" : "tool_calls");
    turns_.push_back(std::move(c));
  }

  std::string path_;
  std::vector<Completion> turns_;
  size_t next_ = 0;
};

}  // namespace

std::unique_ptr<Provider> make_replay_provider(const ProviderOptions& options) {
  if (options.replay_path.empty()) throw ProviderError("replay: no transcript given (--transcript FILE or --replay FILE)");
  return std::make_unique<ReplayProvider>(options.replay_path);
}

}  // namespace tlmcraft::agent
