// Keeping a conversation under the model's context window. When the next request would
// not fit (or the provider said it did not), older rounds are compacted: the kernel a
// write_code call carried becomes "kernel version N: status, cycles", and a long tool
// result becomes a one-line summary; the system prompt (task, ISA reference), every user
// message, the best and the latest kernel versions and the most recent rounds stay
// verbatim. Each change is recorded (message index, field, new text) so a transcript
// reader applies the same compaction on resume.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/llm.h"

namespace tlmcraft::agent {

// Estimated tokens of the request for `conversation` with `tools` (estimate_tokens of the
// text, the tool calls' arguments, the recorded raw messages and the tool schemas).
size_t estimate_request_tokens(const std::vector<Message>& conversation, const std::vector<ToolSpec>& tools);

struct CompactionOptions {
  size_t keep_recent_rounds = 2;   // the newest assistant turns (and their results) left alone
  size_t min_result_bytes = 300;   // tool results shorter than this are left alone
};

// One change: conversation[index]'s content (tool_call < 0) or tool_calls[tool_call].arguments.
struct CompactionChange {
  size_t index = 0;
  int tool_call = -1;
  std::string text;
  nlohmann::json to_json() const;
  static CompactionChange from_json(const nlohmann::json&);
};

// Compacts `conversation` in place and returns what changed (empty: nothing left to compact).
std::vector<CompactionChange> compact_conversation(std::vector<Message>& conversation, const CompactionOptions& options);

// Applies recorded changes (a transcript's compaction event); indexes out of range are ignored.
void apply_compaction(std::vector<Message>& conversation, const std::vector<CompactionChange>& changes);

}  // namespace tlmcraft::agent
