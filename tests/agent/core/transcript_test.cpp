// Transcript reading: complete rounds only, resume markers, torn and bad lines.
#include <gtest/gtest.h>

#include <fstream>

#include "agent/transcript.h"
#include "test_support.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

std::string msg(int round, const std::string& role, const std::string& content) {
  return json{{"type", "message"}, {"round", round}, {"message", {{"role", role}, {"content", content}}}}.dump() + "\n";
}
std::string end(int round) { return json{{"type", "round_end"}, {"round", round}, {"state", {{"rounds", round}}}}.dump() + "\n"; }

TEST(Transcript, KeepsCompleteRoundsAndDropsTheRoundBeforeAResume) {
  test::TempDir dir("transcript");
  const std::string path = dir / "t.jsonl";
  std::ofstream(path) << R"({"type":"start","workload":{"key":"silu/plena/C1"}})" << "\n"
                      << msg(0, "system", "S") << msg(0, "user", "U") << end(0)
                      << msg(1, "assistant", "first try") << msg(1, "tool", "T")  // no round_end: interrupted
                      << R"({"type":"resume","from_round":0})" << "\n"
                      << msg(1, "assistant", "second try") << end(1)
                      << msg(2, "assistant", "unfinished");
  const TranscriptState st = read_transcript(path);
  ASSERT_EQ(st.conversation.size(), 3u);
  EXPECT_EQ(st.conversation[0].content, "S");
  EXPECT_EQ(st.conversation[2].content, "second try");
  ASSERT_EQ(st.assistant_turns.size(), 1u);
  EXPECT_EQ(st.last_round_end["round"], 1);
  EXPECT_FALSE(st.result.has_value());
  EXPECT_EQ(st.start["workload"]["key"], "silu/plena/C1");
  // The last line has no newline but parses: it counts as a line (of an incomplete round).
  EXPECT_EQ(st.torn_bytes, 0u);
  EXPECT_EQ(st.lines, 10u);
}

TEST(Transcript, BadLinesNameFileAndLine) {
  test::TempDir dir("transcript-bad");
  const std::string path = dir / "t.jsonl";
  std::ofstream(path) << msg(0, "system", "S") << "\n" << "not json\n" << end(0);
  try {
    read_transcript(path);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), path + ":3: not a JSON object");  // line 2 is blank
  }
  std::ofstream(path) << R"({"type":"message","message":{"role":"wizard"}})" << "\n";
  try {
    read_transcript(path);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), path + ":1: bad message event: unknown message role 'wizard'");
  }
  EXPECT_THROW(read_transcript(dir / "missing.jsonl"), std::runtime_error);
}

TEST(Transcript, WriterCutsATornTailAndAppendsWholeLines) {
  test::TempDir dir("transcript-writer");
  const std::string path = dir / "t.jsonl";
  std::ofstream(path) << end(0) << R"({"type":"mess)";
  {
    TranscriptWriter w(path);
    w.write({{"type", "resume"}, {"time", 1.5}});
  }
  EXPECT_EQ(test::read_file(path), end(0) + R"({"time":1.5,"type":"resume"})" + "\n");
  const TranscriptState st = read_transcript(path);
  EXPECT_EQ(st.lines, 2u);
}

}  // namespace
}  // namespace tlmcraft::agent
