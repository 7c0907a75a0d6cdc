// The documents an agent may search (grep_docs) and that the system prompt quotes: the
// ISA reference of a platform (generated from the ISA YAML where the ISA is described
// as data, e.g. PLENA; docs/isa/<isa>*.md files otherwise), docs/platforms/<platform>.md,
// and the task text.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlmcraft::agent {

struct DocFile {
  std::string name;                 // shown in results: "isa/plena.md", "platforms/plena.md", "task/silu_C1.txt"
  std::vector<std::string> lines;
};

// The ISA reference text of a platform (Markdown). `platform_config` is the platform's
// effective configuration: its timing.latency table becomes per-class cycle notes.
// Empty when the platform has no ISA reference.
std::string isa_reference(const std::string& platform, const nlohmann::json& platform_config);
// The name the ISA reference goes by in results ("isa/plena.md").
std::string isa_reference_name(const std::string& platform);

// Splits text into lines (without their '\n').
std::vector<std::string> split_lines(const std::string& text);

struct DocMatch {
  std::string file;
  size_t line = 0;                  // 1-based
  std::string text;
  std::string context;              // the next non-empty line (may be empty)
};

// Bounds on a client's query (the query comes from an agent or MCP client: untrusted).
constexpr size_t kGrepMaxQuery = 500;             // characters
constexpr int kGrepTimeLimitMs = 2000;            // whole search
constexpr int64_t kGrepRegexMemory = 8 << 20;     // RE2's compiled-program budget

// Case-insensitive search. The query is used as an RE2 regular expression (linear-time
// matching: no catastrophic backtracking) when it is one; when it is not a valid RE2
// pattern, or the regex finds nothing, a line matches when it contains every
// blank-separated word of the query literally ("sigmoid(x)", "vector exp"). `total` is
// the number of matches before truncation to max_results. Stops after kGrepTimeLimitMs
// (mode then says the results are incomplete); throws std::invalid_argument for a query
// longer than kGrepMaxQuery.
std::vector<DocMatch> grep_docs(const std::vector<DocFile>& files, const std::string& query, size_t max_results,
                                size_t& total, std::string& mode);

}  // namespace tlmcraft::agent
