// `tlmcraft agent --provider openai` end to end: the real executable (loop, tools,
// OpenAI-compatible provider over HTTP) against a scripted Chat Completions server in
// this test process. Checks what the loop sends (roles, tool answers, the phase-2 note)
// and that the run reaches the correct PLENA SiLU kernel.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

#include "test_support.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

const std::string kExe = std::string(TLMCRAFT_BINARY_DIR) + "/harness/tlmcraft";

// Answers each POST with the next scripted assistant turn (tool calls), HTTP/1.1 with
// Connection: close; records every request body.
class ScriptedChatServer {
 public:
  explicit ScriptedChatServer(std::vector<json> turns) : turns_(std::move(turns)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, 8) != 0) return;
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~ScriptedChatServer() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    if (thread_.joinable()) thread_.join();
  }
  int port() const { return port_; }
  std::vector<json> requests() {
    std::lock_guard<std::mutex> l(mutex_);
    return requests_;
  }

 private:
  void serve() {
    while (!stop_) {
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      std::string req;
      char buf[65536];
      size_t body_at = std::string::npos, length = 0;
      while (true) {
        const ssize_t n = ::recv(c, buf, sizeof buf, 0);
        if (n <= 0) break;
        req.append(buf, size_t(n));
        if (body_at == std::string::npos && (body_at = req.find("\r\n\r\n")) != std::string::npos) {
          body_at += 4;
          std::string lower = req.substr(0, body_at);
          for (auto& ch : lower) ch = char(std::tolower(static_cast<unsigned char>(ch)));
          const auto p = lower.find("content-length:");
          length = p == std::string::npos ? 0 : std::stoul(lower.substr(p + 15));
          if (lower.find("expect: 100-continue") != std::string::npos)  // libcurl, for large bodies
            ::send(c, "HTTP/1.1 100 Continue\r\n\r\n", 25, MSG_NOSIGNAL);
        }
        if (body_at != std::string::npos && req.size() >= body_at + length) break;
      }
      json body = json::parse(req.substr(body_at == std::string::npos ? req.size() : body_at), nullptr, false);
      size_t n;
      {
        std::lock_guard<std::mutex> l(mutex_);
        requests_.push_back(body);
        n = requests_.size() - 1;
      }
      const json calls = turns_.at(std::min(n, turns_.size() - 1));
      json tool_calls = json::array();
      for (size_t i = 0; i < calls.size(); ++i)
        tool_calls.push_back({{"id", "call_" + std::to_string(n) + "_" + std::to_string(i)},
                              {"type", "function"},
                              {"function", {{"name", calls[i][0]}, {"arguments", calls[i][1].dump()}}}});
      const json resp = {{"id", "r"}, {"object", "chat.completion"}, {"model", "scripted"},
                         {"choices", {{{"index", 0}, {"finish_reason", "tool_calls"},
                                       {"message", {{"role", "assistant"}, {"content", nullptr}, {"tool_calls", tool_calls}}}}}},
                         {"usage", {{"prompt_tokens", 1000}, {"completion_tokens", 50}}}};
      const std::string out = resp.dump();
      const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " +
                               std::to_string(out.size()) + "\r\n\r\n";
      const std::string all = head + out;
      ::send(c, all.data(), all.size(), MSG_NOSIGNAL);
      ::close(c);
    }
  }

  std::vector<json> turns_;
  int fd_ = -1, port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::mutex mutex_;
  std::vector<json> requests_;
};

TEST(OpenAiLoop, ScriptedEndpointDrivesTheRealExecutableToACorrectKernel) {
  if (!std::filesystem::exists(kExe)) GTEST_SKIP() << kExe << " is not built";
  test::TempDir dir("openai");
  ScriptedChatServer server({json::array({json::array({"write_code", {{"code", test::silu_c1_wrong_kernel()}}}),
                                          json::array({"run_evaluation", json::object()})}),
                             json::array({json::array({"write_code", {{"code", test::silu_c1_kernel()}}}),
                                          json::array({"run_evaluation", json::object()})}),
                             json::array({json::array({"submit", json::object()})})});
  ASSERT_GT(server.port(), 0);
  const std::string cmd = "env -u OPENAI_API_KEY -u OPENAI_BASE_URL SYSC_DISABLE_COPYRIGHT_MESSAGE=1 " + kExe +
                          " agent -p plena --task silu --config C1 --provider openai --model scripted --api-key k"
                          " --retries 0 --json -q --base-url http://127.0.0.1:" + std::to_string(server.port()) +
                          "/v1 --workspace " + dir.str() + " 2>/dev/null";
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::array<char, 4096> buf;
  for (size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) out.append(buf.data(), n);
  const int status = ::pclose(p);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0) << out;

  const json rep = json::parse(out);
  EXPECT_EQ(rep["status"], "pass");
  EXPECT_EQ(rep["agent"]["stop_reason"], "submit");
  EXPECT_EQ(rep["agent"]["rounds"], 3);
  EXPECT_EQ(rep["agent"]["first_correct_round"], 2);
  // 3 turns x (1000, 50); the scripted usage reports no cache or reasoning split.
  EXPECT_EQ(rep["agent"]["tokens"], (json{{"input", 3000}, {"output", 150}, {"cached_input", 0}, {"cache_write", 0},
                                          {"reasoning", 0}}));
  EXPECT_EQ(rep["agent"]["best_version"], 2);

  const auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_EQ(reqs[0]["model"], "scripted");
  EXPECT_EQ(reqs[0]["tools"].size(), 12u);
  // Round 2 sees round 1's tool answers, the failing evaluation among them.
  const json& m2 = reqs[1]["messages"];
  std::vector<std::string> roles;
  for (const auto& m : m2) roles.push_back(m["role"]);
  EXPECT_EQ(roles, (std::vector<std::string>{"system", "user", "assistant", "tool", "tool"}));
  EXPECT_EQ(m2[4]["tool_call_id"], "call_0_1");
  EXPECT_NE(m2[4]["content"].get<std::string>().find("status: fail"), std::string::npos);
  // Round 3 ends with the phase-2 note after the passing evaluation.
  const json& m3 = reqs[2]["messages"];
  EXPECT_EQ(m3.back()["role"], "user");
  EXPECT_EQ(m3.back()["content"].get<std::string>().rfind("Phase 2: version 2 is correct", 0), 0u);
}

}  // namespace
}  // namespace tlmcraft::agent
