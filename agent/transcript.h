// Transcripts: one JSON object per line (JSONL), one line per event, each line written
// with a single write() and fsynced, so an interrupted run loses at most the line being
// written. Events ("type"):
//   start          workload, provider, budget, options
//   prompt_parts   the system prompt's parts: name, tokens, bytes
//   message        one conversation message (Message::to_json, the provider's raw assistant
//                  message included) with its round; an assistant one with its usage split
//                  (input, cached input, cache writes, output, reasoning) and cost_usd
//   completion     a model turn's usage (input/output tokens), seconds, stop reason
//   tool_call      name, arguments, is_error, seconds, the result text
//   phase          a phase change (1 -> 2) and why
//   round_end      a complete round: the counters after it (rounds, tokens, phase, best)
//   compaction     older rounds compacted before a request (reason, estimated tokens before
//                  and after, the changes: message index, tool call, new text)
//   provider_error the provider's failure
//   resume         a later run continued from the last complete round before this line
//   result         the final result (LoopResult::to_json)
// A reader keeps the messages up to the last round_end; messages of an incomplete round
// (after the last round_end, or before a resume marker) are dropped.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/llm.h"

namespace tlmcraft::agent {

class TranscriptWriter {
 public:
  // Opens `path` for appending (creating it and its directory). If the file ends in a
  // torn line (no newline), that tail is cut off first. Throws std::runtime_error.
  explicit TranscriptWriter(const std::string& path);
  ~TranscriptWriter();
  TranscriptWriter(const TranscriptWriter&) = delete;
  TranscriptWriter& operator=(const TranscriptWriter&) = delete;

  // Adds "time" (seconds since the Unix epoch, millisecond resolution) when absent,
  // then appends the event as one line and fsyncs. Throws std::runtime_error.
  void write(nlohmann::json event);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

struct TranscriptState {
  nlohmann::json start;                    // the first start event (null if none)
  std::vector<Message> conversation;       // messages of complete rounds
  nlohmann::json last_round_end;           // counters after the last complete round (null if none)
  std::optional<nlohmann::json> result;    // the result event, when the run finished
  std::vector<nlohmann::json> assistant_turns;  // committed assistant message events (replay)
  size_t lines = 0;                        // complete lines read
  size_t torn_bytes = 0;                   // an unterminated, unparsable last line
};

// Reads a transcript. Throws std::runtime_error "path:line: cause" for a line that is not
// a JSON object or a message event that does not parse (a torn last line is tolerated).
TranscriptState read_transcript(const std::string& path);

}  // namespace tlmcraft::agent
