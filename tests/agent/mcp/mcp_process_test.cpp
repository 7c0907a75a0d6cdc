// `tlmcraft mcp` as a process (no Node.js needed): a whole session over real pipes. Every
// byte on stdout must be a protocol message (the simulator runs in between), answers come
// in order, the PLENA SiLU C1 baseline written through the tools evaluates to "pass",
// and closing stdin ends the server with exit code 0.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "isa/isa_spec.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

struct Session {
  pid_t pid = -1;
  int to_server = -1, from_server = -1;
  std::string pending;  // bytes read but not yet split into lines

  void send(const json& msg) {
    const std::string line = msg.dump() + "\n";
    ASSERT_EQ(::write(to_server, line.data(), line.size()), static_cast<ssize_t>(line.size()));
  }
  // The next stdout line; empty at EOF.
  std::string read_line() {
    for (;;) {
      const auto nl = pending.find('\n');
      if (nl != std::string::npos) {
        std::string line = pending.substr(0, nl);
        pending.erase(0, nl + 1);
        return line;
      }
      char buf[65536];
      const ssize_t n = ::read(from_server, buf, sizeof buf);
      if (n <= 0) return "";
      pending.append(buf, static_cast<size_t>(n));
    }
  }
};

Session start(const std::vector<std::string>& args, const std::string& stderr_path) {
  int in[2], out[2];
  // Close-on-exec: a second server must not inherit the first one's pipe ends (it would
  // hold the first one's stdin open, and closing it would never reach EOF).
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  Session s;
  s.pid = ::fork();
  if (s.pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    const int err = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (err >= 0) ::dup2(err, 2);
    ::close(in[1]);
    ::close(out[0]);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    _exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  s.to_server = in[1];
  s.from_server = out[0];
  return s;
}

TEST(McpProcess, StdioSessionEvaluatesTheBaselineAndEndsOnEof) {
  const std::string binary = std::string(TLMCRAFT_BINARY_DIR) + "/harness/tlmcraft";
  ASSERT_TRUE(std::filesystem::exists(binary)) << binary << " (build the tlmcraft target)";
  const auto dir = std::filesystem::temp_directory_path() / ("tlmcraft-mcp-process-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  Session s = start({binary, "mcp", "--platform", "plena", "--task", "silu", "--config", "C1", "--workspace",
                     (dir / "ws").string(), "--trials", "1"},
                    (dir / "stderr.txt").string());

  int next_id = 0;
  // Sends a request and returns its response, checking that stdout holds nothing else.
  auto call = [&](const std::string& method, const json& params) {
    json req = {{"jsonrpc", "2.0"}, {"id", ++next_id}, {"method", method}, {"params", params}};
    s.send(req);
    const std::string line = s.read_line();
    const json r = json::parse(line, nullptr, false);
    EXPECT_FALSE(r.is_discarded()) << "stdout line is not JSON: " << line;
    EXPECT_EQ(r.value("jsonrpc", ""), "2.0") << line;
    EXPECT_EQ(r.value("id", -1), next_id) << line;
    return r;
  };

  const json init = call("initialize", {{"protocolVersion", "2025-11-25"},
                                        {"capabilities", json::object()},
                                        {"clientInfo", {{"name", "gtest"}, {"version", "1"}}}});
  EXPECT_EQ(init["result"]["protocolVersion"], "2025-11-25");
  s.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});

  const json baseline = call("tools/call", {{"name", "get_baseline"}, {"arguments", json::object()}});
  ASSERT_EQ(baseline["result"]["isError"], false) << baseline;
  const std::string source = baseline["result"]["structuredContent"]["source"].get<std::string>();
  ASSERT_FALSE(source.empty());

  const json written = call("tools/call", {{"name", "write_code"}, {"arguments", {{"code", source}}}});
  EXPECT_EQ(written["result"]["isError"], false) << written;
  const json evaluated = call("tools/call", {{"name", "run_evaluation"}, {"arguments", json::object()}});
  EXPECT_EQ(evaluated["result"]["isError"], false) << evaluated;
  EXPECT_EQ(evaluated["result"]["structuredContent"]["status"], "pass") << evaluated;
  // The simulation ran between these answers; a malformed line still gets its error.
  const std::string garbage = "{\"jsonrpc\":\"2.0\",\"id\":\n";
  ASSERT_EQ(::write(s.to_server, garbage.data(), garbage.size()), static_cast<ssize_t>(garbage.size()));
  EXPECT_EQ(json::parse(s.read_line())["error"]["code"], -32700);

  ::close(s.to_server);  // EOF: the server ends cleanly
  EXPECT_EQ(s.read_line(), "");
  EXPECT_TRUE(s.pending.empty()) << "stray bytes on stdout: " << s.pending;
  int status = 0;
  ::waitpid(s.pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  ::close(s.from_server);
  std::filesystem::remove_all(dir);
}


// `tlmcraft mcp` with an ISA variant: V_RELU_V exists only in an overlay (--isa-ext) or in
// an edited copy of the ISA folder (--isa-dir); grep_docs finds it, a kernel using it
// passes (its evaluation says how often it ran), get_instruction_size counts it by name.
// PLENA ReLU C1.
class McpIsaVariant : public ::testing::Test {
 protected:
  const std::string binary = std::string(TLMCRAFT_BINARY_DIR) + "/harness/tlmcraft";
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tlmcraft-mcp-isa-" + std::to_string(::getpid()));
  static constexpr const char* kEntry =
      "  - mnemonic: V_RELU_V\n    opcode: 0x3A\n    class: V\n    unit: vector\n    latency_class: vector_relu\n"
      "    operands:\n      - {name: rd, kind: gp, field: rd}\n      - {name: rs1, kind: gp, field: rs1}\n"
      "      - {name: rmask, kind: flag, field: rs3}\n    doc: \"ReLU of every lane.\"\n"
      "    operation: \"VRAM[gp[rd]] = max(VRAM[gp[rs1]], 0)\"\n    fused: [\"V_MAX_VF rd, rs1, f0, rmask\"]\n";
  static constexpr const char* kClass = "  - {name: vector_relu, cycles: 2, doc: \"one max pass\"}\n";

  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(binary)) << binary << " (build the tlmcraft target)";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "isa" / "plena");
    setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    write(dir / "relu.yaml", std::string("isa: plena\nlatency_classes:\n") + kClass + "instructions:\n" + kEntry);
    std::string yaml = read(tlmcraft::isa::isa_yaml_path_in("", "plena"));
    const std::string classes = "latency_classes:\n";
    yaml.insert(yaml.find(classes) + classes.size(), kClass);
    write(dir / "isa" / "plena" / "plena.yaml", yaml + kEntry);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  static void write(const std::filesystem::path& p, const std::string& text) { std::ofstream(p) << text; }
  static std::string read(const std::string& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  // A whole session with `variant` arguments; checks what the Must-show asks.
  void session_uses_relu(const std::vector<std::string>& variant, const std::string& tag) {
    std::vector<std::string> args = {binary, "mcp", "--platform", "plena", "--task", "relu", "--config", "C1",
                                     "--workspace", (dir / tag).string(), "--trials", "1"};
    args.insert(args.end(), variant.begin(), variant.end());
    Session s = start(args, (dir / (tag + ".err")).string());
    int next_id = 0;
    auto call = [&](const std::string& tool, const json& arguments) {
      s.send({{"jsonrpc", "2.0"}, {"id", ++next_id}, {"method", "tools/call"},
              {"params", {{"name", tool}, {"arguments", arguments}}}});
      const json r = json::parse(s.read_line(), nullptr, false);
      EXPECT_FALSE(r.is_discarded()) << read((dir / (tag + ".err")).string());
      return r.is_discarded() ? json::object() : r["result"];
    };
    s.send({{"jsonrpc", "2.0"}, {"id", ++next_id}, {"method", "initialize"},
            {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                        {"clientInfo", {{"name", "gtest"}, {"version", "1"}}}}}});
    ASSERT_FALSE(s.read_line().empty()) << read((dir / (tag + ".err")).string());
    s.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});

    const json found = call("grep_docs", {{"query", "V_RELU_V"}});
    EXPECT_NE(found["content"][0]["text"].get<std::string>().find("V_RELU_V rd, rs1, rmask"), std::string::npos) << found;
    const json baseline = call("get_baseline", json::object());
    std::string source = baseline["structuredContent"]["source"].get<std::string>();
    const std::string max_line = "V_MAX_VF gp2, gp2, f0, 0";
    ASSERT_NE(source.find(max_line), std::string::npos) << source;
    source.replace(source.find(max_line), max_line.size(), "V_RELU_V gp2, gp2, 0");
    EXPECT_EQ(call("write_code", {{"code", source}})["isError"], false);
    const json evaluated = call("run_evaluation", json::object());
    EXPECT_EQ(evaluated["structuredContent"]["status"], "pass") << evaluated;
    // Baseline 68 cycles; four 4-cycle V_MAX_VF become four 2-cycle V_RELU_V: 68 - 4 x 2.
    EXPECT_EQ(evaluated["structuredContent"]["cycles"], 60);
    // The one V_RELU_V line runs once per row (4); a one-step composition adds no datapath.
    EXPECT_NE(evaluated["content"][0]["text"].get<std::string>().find(
                  "\nisa variant: V_RELU_V: placed 1 time, executed 4 times (area +0.000000 mm2)"),
              std::string::npos)
        << evaluated;
    EXPECT_EQ(evaluated["structuredContent"]["isa_variant_uses"][0]["executions"], 4);
    EXPECT_EQ(call("get_instruction_size", json::object())["structuredContent"]["by_mnemonic"]["V_RELU_V"], 1);
    ::close(s.to_server);
    EXPECT_EQ(s.read_line(), "");
    int status = 0;
    ::waitpid(s.pid, &status, 0);
    EXPECT_EQ(WEXITSTATUS(status), 0);
    ::close(s.from_server);
  }
};

TEST_F(McpIsaVariant, IsaExtOverlay) { session_uses_relu({"--isa-ext", (dir / "relu.yaml").string()}, "ext"); }

TEST_F(McpIsaVariant, IsaDirIsHonoured) { session_uses_relu({"--isa-dir", (dir / "isa").string()}, "dir"); }

TEST_F(McpIsaVariant, BadOverlayExitsTwoBeforeServing) {
  write(dir / "bad.yaml", "isa: plena\ninstructions:\n  - mnemonic: V_EXP_V\n");
  Session s = start({binary, "mcp", "--platform", "plena", "--isa-ext", (dir / "bad.yaml").string()},
                    (dir / "bad.err").string());
  ::close(s.to_server);
  EXPECT_EQ(s.read_line(), "");
  int status = 0;
  ::waitpid(s.pid, &status, 0);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  const std::string err = read((dir / "bad.err").string());
  EXPECT_NE(err.find((dir / "bad.yaml").string() + ":3:15: mnemonic V_EXP_V is already defined ("), std::string::npos)
      << err;
  ::close(s.from_server);
}

// Issue 22: two servers sharing a workspace evaluated each other's kernels (each took the
// newest version on disk). Session A writes the correct SiLU baseline, session B a kernel
// that does nothing, interleaved three times: every evaluation must be of the session's
// own latest write (A passes, B fails), and every version number is handed out once.
TEST(McpProcess, TwoServersOnOneWorkspaceEachEvaluateTheirOwnKernel) {
  const std::string binary = std::string(TLMCRAFT_BINARY_DIR) + "/harness/tlmcraft";
  ASSERT_TRUE(std::filesystem::exists(binary)) << binary << " (build the tlmcraft target)";
  const auto dir = std::filesystem::temp_directory_path() / ("tlmcraft-mcp-shared-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  const std::vector<std::string> args = {binary, "mcp", "--platform", "plena", "--task", "silu", "--config", "C1",
                                         "--workspace", (dir / "ws").string(), "--trials", "1"};
  Session a = start(args, (dir / "a.txt").string()), b = start(args, (dir / "b.txt").string());
  int next_id = 0;
  auto call = [&](Session& s, const std::string& method, const json& params) {
    s.send({{"jsonrpc", "2.0"}, {"id", ++next_id}, {"method", method}, {"params", params}});
    const json r = json::parse(s.read_line(), nullptr, false);
    EXPECT_EQ(r.value("id", -1), next_id) << r;
    return r;
  };
  for (Session* s : {&a, &b}) {
    call(*s, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                            {"clientInfo", {{"name", "gtest"}, {"version", "1"}}}});
    s->send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  }
  const std::string good =
      call(a, "tools/call", {{"name", "get_baseline"}, {"arguments", json::object()}})["result"]["structuredContent"]["source"];
  std::set<int> versions;
  for (int round = 0; round < 3; ++round) {
    const json wa = call(a, "tools/call", {{"name", "write_code"}, {"arguments", {{"code", good}}}});
    const json wb = call(b, "tools/call", {{"name", "write_code"}, {"arguments", {{"code", "; does nothing\n"}}}});
    const int va = wa["result"]["structuredContent"]["version"], vb = wb["result"]["structuredContent"]["version"];
    EXPECT_TRUE(versions.insert(va).second && versions.insert(vb).second) << va << " " << vb;
    const json ea = call(a, "tools/call", {{"name", "run_evaluation"}, {"arguments", json::object()}});
    const json eb = call(b, "tools/call", {{"name", "run_evaluation"}, {"arguments", json::object()}});
    EXPECT_EQ(ea["result"]["structuredContent"]["version"], va) << ea;
    EXPECT_EQ(ea["result"]["structuredContent"]["status"], "pass") << ea;
    EXPECT_EQ(eb["result"]["structuredContent"]["version"], vb) << eb;
    EXPECT_NE(eb["result"]["structuredContent"]["status"], "pass") << eb;
    // view_output answers about the session's own last evaluation too.
    EXPECT_EQ(call(a, "tools/call", {{"name", "view_output"}, {"arguments", json::object()}})["result"]["structuredContent"]["version"], va);
  }
  EXPECT_EQ(versions, (std::set<int>{1, 2, 3, 4, 5, 6}));
  for (Session* s : {&a, &b}) {
    ::close(s->to_server);
    EXPECT_EQ(s->read_line(), "");
    int status = 0;
    ::waitpid(s->pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ::close(s->from_server);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tlmcraft::agent
