// The reasoning-model options of `tlmcraft agent` / `agent-bench` as a user meets them:
// exact messages and exit 2 for bad values, the dry-run estimate derived by hand, and the
// shared rate limiter: `agent-bench --jobs 4` against a fake that counts requests per
// window never receives more than the limit.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>

#include <nlohmann/json.hpp>

#include "model_fakes.h"
#include "scripted_http_server.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const std::string kExe = std::string(TLMCRAFT_BINARY_DIR) + "/harness/tlmcraft";

struct CliRun {
  int code = -1;
  std::string out, err;
};

// Runs `args` (shell words) with stderr captured to a file.
CliRun tlmcraft(const std::string& args, const fs::path& dir) {
  fs::create_directories(dir);
  const std::string err = (dir / "stderr.txt").string();
  const std::string cmd = "env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u ANTHROPIC_API_KEY NO_PROXY=127.0.0.1 "
                          "SYSC_DISABLE_COPYRIGHT_MESSAGE=1 " + kExe + " " + args + " 2>" + err;
  CliRun r;
  FILE* p = ::popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  for (size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err);
  r.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return r;
}

class LlmCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kExe)) GTEST_SKIP() << kExe << " is not built";
    dir = fs::temp_directory_path() / ("tlmcraft-llm-cli-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  CliRun agent(const std::string& extra) {
    return tlmcraft("agent -p plena --task silu --config C1 --provider openai --model m --api-key k "
                    "--base-url http://127.0.0.1:9/v1 --workspace " + (dir / "ws").string() + " " + extra, dir);
  }
  fs::path dir;
};

TEST_F(LlmCli, ExtraBodyMustBeABoundedJsonObject) {
  CliRun r = agent("--extra-body '[1]'");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "tlmcraft agent: error: --extra-body: must be a JSON object, got array\n");
  r = agent("--extra-body '{\"a\":'");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("tlmcraft agent: error: --extra-body: not JSON: parse error at line 1, column 6: ", 0), 0u) << r.err;
  const std::string big = "{\"pad\":\"" + std::string(70000, 'x') + "\"}";  // 70010 bytes
  r = agent("--extra-body '" + big + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "tlmcraft agent: error: --extra-body: 70010 bytes, more than the 65536 allowed\n");
}

TEST_F(LlmCli, ThinkingAndProfileValuesAreChecked) {
  CliRun r = tlmcraft("agent -p plena --task silu --config C1 --provider anthropic --model m --api-key k --base-url "
                   "http://127.0.0.1:9 --workspace " + (dir / "ws").string() + " --thinking sometimes", dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "tlmcraft agent: error: --thinking: 'sometimes' is not adaptive, enabled or off\n");
  r = tlmcraft("agent -p plena --task silu --config C1 --provider anthropic --model m --api-key k --base-url "
               "http://127.0.0.1:9 --workspace " + (dir / "ws").string() + " --thinking enabled --thinking-budget 500", dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "tlmcraft agent: error: --thinking-budget 500: must be at least 1024 and below --max-tokens 8192\n");
  r = tlmcraft("agent -p plena --task silu --config C1 --provider anthropic --model m --api-key k --base-url "
               "http://127.0.0.1:9 --workspace " + (dir / "ws").string() + " --thinking adaptive --temperature 0.2", dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "tlmcraft agent: error: --temperature must be 1 (or left out) with --thinking adaptive\n");
  r = agent("--thinking adaptive");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "tlmcraft agent: error: --thinking applies to --provider anthropic; use --reasoning-effort or "
                   "--extra-body for openai\n");
  r = agent("--provider-profile bedrock");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "tlmcraft agent: error: --provider-profile: 'bedrock' is not one of openai, gemini-openai, deepseek, "
                   "vllm, openrouter\n");
}

TEST_F(LlmCli, BadPriceTableNamesFileLineAndColumn) {
  fs::create_directories(dir);
  const std::string table = (dir / "prices.json").string();
  std::ofstream(table) << "{\"models\": {\n  \"m\": {\"input\": 1,, }\n}}\n";
  CliRun r = agent("--price-table " + table);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("tlmcraft agent: error: " + table + ": not JSON: parse error at line 2, column 20: ", 0), 0u)
      << r.err;
  std::ofstream(table, std::ios::trunc) << R"({"models": {"m": {"input": -1, "output": 2}}})";
  r = agent("--price-table " + table);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "tlmcraft agent: error: " + table + ": models.m: \"input\" must be a number >= 0\n");
}

TEST_F(LlmCli, DryRunEstimateDerivedByHand) {
  // One run of 3 rounds, O = 1000 output and T = 500 result tokens a round, prompt P:
  //   requests carry P, P + 1500, P + 3000  -> input 3P + 4500
  //   cached (the previous prompt) 0 + P + (P + 1500) = 2P + 1500; writes the rest = P + 3000
  //   output 3 x 1000 = 3000
  // at claude-sonnet-4-5 prices ($3 input, $0.30 cached, $3.75 write, $15 output per million):
  //   cost = ((2P + 1500) x 0.30 + (P + 3000) x 3.75 + 3000 x 15) / 1e6
  const CliRun r = tlmcraft("agent-bench --platform plena --tasks silu --configs C1 --provider anthropic "
                         "--model claude-sonnet-4-5 --budget 3 --estimate-output-tokens 1000 "
                         "--estimate-result-tokens 500 --dry-run --json --out " + (dir / "out").string(), dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["runs"].size(), 1u);
  const double P = j["runs"][0]["prompt_tokens"].get<double>();
  EXPECT_GT(P, 1000);
  EXPECT_EQ(j["total"]["input_tokens"].get<double>(), 3 * P + 4500);
  EXPECT_EQ(j["total"]["cached_input_tokens"].get<double>(), 2 * P + 1500);
  EXPECT_EQ(j["total"]["cache_write_tokens"].get<double>(), P + 3000);
  EXPECT_EQ(j["total"]["output_tokens"], 3000);
  EXPECT_NEAR(j["cost_usd"].get<double>(), ((2 * P + 1500) * 0.30 + (P + 3000) * 3.75 + 3000 * 15) / 1e6, 1e-12);
  EXPECT_EQ(j["price"], "claude-sonnet-4-5*");
  EXPECT_FALSE(fs::exists(dir / "out"));  // nothing ran, nothing was written
}

TEST_F(LlmCli, AnthropicThinkingRunReportsItsCostAndRecordsTheRawTurns) {
  // Two turns with these usage fields (the fake's):
  //   turn 1: input 1000, cache write 9000, cache read 0,    output 500
  //   turn 2: input 200,  cache write 800,  cache read 9000, output 50
  // at the table's "claude-test*" prices ($2 input, $0.20 cached, $2.50 write, $10 output per
  // million): (1200 x 2 + 9000 x 0.20 + 9800 x 2.50 + 550 x 10) / 1e6
  //         = (2400 + 1800 + 24500 + 5500) / 1e6 = 0.0342 dollars.
  std::ifstream k(std::string(TLMCRAFT_SOURCE_DIR) + "/platforms/plena/kernels/silu_c1.asm");
  const std::string kernel((std::istreambuf_iterator<char>(k)), std::istreambuf_iterator<char>());
  test::FakeOptions fo;
  fo.usage = {json::parse(R"({"input_tokens":1000,"cache_creation_input_tokens":9000,"cache_read_input_tokens":0,"output_tokens":500})"),
              json::parse(R"({"input_tokens":200,"cache_creation_input_tokens":800,"cache_read_input_tokens":9000,"output_tokens":50})")};
  test::ModelFake fake("anthropic",
                       [kernel](int turn) -> test::ToolCalls {
                         if (turn == 1) return {{"write_code", {{"code", kernel}}}, {"run_evaluation", json::object()}};
                         return {{"submit", json::object()}};
                       },
                       fo);
  fs::create_directories(dir);
  const std::string table = (dir / "prices.json").string();
  std::ofstream(table) << R"({"models":{"claude-test*":{"input":2,"cached_input":0.2,"cache_write":2.5,"output":10,
                              "context_tokens":150000}}})";
  const std::string transcript = (dir / "t.jsonl").string();
  const CliRun r = tlmcraft("agent -p plena --task silu --config C1 --provider anthropic --model claude-test-1 --api-key k "
                            "--base-url " + fake.url() + " --thinking enabled --thinking-budget 2048 --price-table " +
                            table + " --retries 0 --json -q --workspace " + (dir / "ws").string() + " --transcript " +
                            transcript, dir);
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_TRUE(fake.rejections().empty());
  const json rep = json::parse(r.out);
  EXPECT_NEAR(rep["agent"]["cost_usd"].get<double>(), 0.0342, 1e-12);
  EXPECT_EQ(rep["agent"]["tokens"],
            (json{{"input", 20000}, {"output", 550}, {"cached_input", 9000}, {"cache_write", 9800}, {"reasoning", 0}}));
  // The transcript: the options, and each assistant turn's raw blocks (thinking first).
  std::ifstream in(transcript);
  int raw_turns = 0;
  for (std::string line; std::getline(in, line);) {
    const json ev = json::parse(line);
    if (ev["type"] == "start") {
      EXPECT_EQ(ev["run"]["llm"]["thinking"], "enabled");
      EXPECT_EQ(ev["run"]["llm"]["thinking_budget"], 2048);
      EXPECT_EQ(ev["run"]["llm"]["context_tokens"], 150000);  // the table's window for the model
      EXPECT_EQ(ev["run"]["llm"]["price"]["key"], "claude-test*");
    }
    if (ev["type"] == "message" && ev["message"]["role"] == "assistant") {
      ++raw_turns;
      EXPECT_EQ(ev["message"]["raw_format"], "anthropic");
      EXPECT_EQ(ev["message"]["raw"][0]["type"], "thinking");
    }
  }
  EXPECT_EQ(raw_turns, 2);
}

// A model behind Chat Completions that writes the reference kernel and evaluates it, then
// submits; it answers 429 to any request that would make more than `limit` in a sliding
// window of `window` seconds, and counts those.
class CountingModel {
 public:
  CountingModel(int limit, double window) : limit_(limit), window_(window) {
    std::ifstream in(std::string(TLMCRAFT_SOURCE_DIR) + "/platforms/plena/kernels/silu_c1.asm");
    kernel_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    server_.set_handler([this](const test::RecordedRequest& r) { return handle(r); });
  }
  std::string url() const { return server_.url() + "/v1"; }
  int requests() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return int(arrivals_.size());
  }
  int over_limit() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return over_;
  }

 private:
  test::ScriptedResponse handle(const test::RecordedRequest& r) {
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    std::lock_guard<std::mutex> lock(mutex_);
    int in_window = 1;
    for (double t : arrivals_) in_window += t > now - window_;
    arrivals_.push_back(now);
    if (in_window > limit_) {
      ++over_;
      return {429, R"({"error":{"message":"over the fake's limit"}})", {{"retry-after", "1"}}, 0};
    }
    const json body = json::parse(r.body);
    bool answered = false;
    for (const auto& m : body["messages"]) answered |= m["role"] == "tool";
    json calls = json::array();
    if (!answered) {
      calls.push_back({{"id", "w"}, {"type", "function"},
                       {"function", {{"name", "write_code"}, {"arguments", json{{"code", kernel_}}.dump()}}}});
      calls.push_back({{"id", "e"}, {"type", "function"}, {"function", {{"name", "run_evaluation"}, {"arguments", "{}"}}}});
    } else {
      calls.push_back({{"id", "s"}, {"type", "function"}, {"function", {{"name", "submit"}, {"arguments", "{}"}}}});
    }
    const json reply = {{"choices", json::array({{{"message", {{"role", "assistant"}, {"content", nullptr}, {"tool_calls", calls}}},
                                                  {"finish_reason", "tool_calls"}}})},
                        {"usage", {{"prompt_tokens", 100}, {"completion_tokens", 10}}}};
    return {200, reply.dump(), {}, 0};
  }

  int limit_;
  double window_;
  std::string kernel_;
  mutable std::mutex mutex_;
  std::vector<double> arrivals_;
  int over_ = 0;
  test::ScriptedHttpServer server_;
};

TEST_F(LlmCli, AgentBenchWorkersShareOneRequestBudget) {
  // 4 runs x 2 requests, 4 workers, at most 3 requests per 3 s window. The fake counts over
  // a 2 s window: a request the limiter let through right at a window's edge may reach the
  // server later than the limiter saw it (process and socket latency on a busy host), never
  // earlier, so the fake's shorter window tolerates up to 1 s of that; without the limiter
  // the four workers' first requests arrive together and the fake sees the excess.
  CountingModel model(3, 2.0);
  const CliRun r = tlmcraft("agent-bench --platform plena --tasks silu --configs C1 --samples 4 --jobs 4 --provider openai "
                         "--model fake --base-url " + model.url() + " --budget 3 --trials 1 --requests-per-minute 3 "
                         "--rate-limit-window 3 --quiet --json --out " + (dir / "out").string(), dir);
  EXPECT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_EQ(model.requests(), 8);
  EXPECT_EQ(model.over_limit(), 0);
  EXPECT_TRUE(fs::exists(dir / "out" / "ratelimit.json"));
}

}  // namespace
}  // namespace tlmcraft::agent
