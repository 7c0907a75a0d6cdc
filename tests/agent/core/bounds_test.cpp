// Bounds on what agents and MCP clients send: grep_docs patterns (linear-time RE2, query
// length, time limit), tool-argument size and nesting, kernel code size, and evaluation
// numbers (hence seeds) that two processes sharing a workspace never both get.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <set>

#include "agent/docs_index.h"
#include "agent/json_schema.h"
#include "agent/workspace.h"
#include "test_support.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

std::vector<DocFile> docs() {
  std::vector<std::string> lines;
  for (int i = 0; i < 2000; ++i) lines.push_back(std::string(60, 'a') + " line " + std::to_string(i));
  lines.push_back("V_EXP_V computes exp of each element");
  return {{"isa/x.md", lines}};
}

TEST(GrepBounds, CatastrophicPatternsReturnPromptly) {
  const auto files = docs();
  for (const std::string& q : std::vector<std::string>{"(.*){1000}x", "(a*)*b", "(a|aa)*c", std::string(249, '(') + std::string(249, ')')}) {
    size_t total = 0;
    std::string mode;
    const auto t0 = Clock::now();
    grep_docs(files, q, 5, total, mode);
    // grep_docs stops at its 2 s limit; the bound is far above that so a loaded host passes,
    // and far below what a backtracking matcher takes on these patterns (hours).
    EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 60.0) << q;
  }
}

TEST(GrepBounds, RegexStillMatchesAndLongQueriesAreRefused) {
  const auto files = docs();
  size_t total = 0;
  std::string mode;
  const auto m = grep_docs(files, "v_exp_[a-z]", 5, total, mode);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(mode, "regex");
  EXPECT_EQ(m[0].line, 2001u);
  try {
    grep_docs(files, std::string(kGrepMaxQuery + 1, 'a'), 5, total, mode);
    FAIL() << "a query over the limit must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "query of 501 characters is longer than the limit of 500");
  }
}

TEST(ArgumentBounds, DeepOrHugeArgumentsAreRefusedBeforeParsing) {
  json out;
  std::string err;
  EXPECT_FALSE(parse_arguments("{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}", out, err));
  EXPECT_EQ(err, "arguments are nested deeper than the limit of 64 levels");
  EXPECT_FALSE(parse_arguments("{\"a\":\"" + std::string(kMaxArgumentBytes, 'x') + "\"}", out, err));
  EXPECT_NE(err.find("exceed the limit of 8388608 bytes"), std::string::npos) << err;
  EXPECT_TRUE(parse_arguments("{\"s\":\"[[[[\"}", out, err)) << err;  // brackets inside strings do not count
  EXPECT_EQ(json_nesting_depth("{\"a\":[{\"b\":[]}]}"), 4u);
}

TEST(WorkspaceBounds, KernelCodeOverTheSizeLimitIsRefused) {
  test::TempDir dir("ws_bounds");
  Workspace ws(dir.str());
  try {
    ws.write_version({"plena", "silu", "C1"}, std::string((4u << 20) + 1, ';'));
    FAIL() << "expected the size limit";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the kernel code is 4194305 bytes, over the kernel size limit of 4194304 bytes (raise it with "
                           "TLMCRAFT_MAX_KERNEL_BYTES)");
  }
}

TEST(WorkspaceBounds, ProcessesSharingAWorkspaceNeverGetTheSameEvaluationNumber) {
  test::TempDir dir("ws_seeds");
  const Workload w{"plena", "silu", "C1"};
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const int kEach = 40;
  std::vector<pid_t> kids;
  for (int k = 0; k < 2; ++k) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      Workspace ws(dir.str());
      for (int i = 0; i < kEach; ++i) {
        const uint64_t n = ws.reserve_evaluation(w);
        if (write(fds[1], &n, sizeof n) != sizeof n) _exit(1);
      }
      _exit(0);
    }
    kids.push_back(pid);
  }
  close(fds[1]);
  for (pid_t pid : kids) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::set<uint64_t> seen;
  uint64_t n = 0;
  while (read(fds[0], &n, sizeof n) == sizeof n) EXPECT_TRUE(seen.insert(n).second) << "number " << n << " handed out twice";
  close(fds[0]);
  EXPECT_EQ(seen.size(), size_t(2 * kEach));
  EXPECT_EQ(*seen.rbegin(), uint64_t(2 * kEach - 1));
}

}  // namespace
}  // namespace tlmcraft::agent
