// tlmcraft mcp: the MCP server over stdio. stdout carries protocol messages only: the real
// stdout is kept for the protocol and file descriptor 1 is pointed at stderr, so nothing
// the simulator or a library prints can corrupt the stream.
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <streambuf>

#include <boost/program_options.hpp>

#include "agent/mcp/mcp_server.h"
#include "agent/toolbox.h"
#include "harness/cli/cli_util.h"
#include "harness/cli/commands.h"

namespace tlmcraft::cli {
namespace {

const char* kMcpHelp = R"(usage: tlmcraft mcp [--platform P] [--task T --config C] [--workspace DIR] [options]

Serves the agent tools (write_code, check_syntax, run_evaluation, view_output, profile,
get_instruction_size, grep_docs, get_task, get_hardware_config, list_tasks, ...) to an
MCP client over stdio: JSON-RPC 2.0, one message per line, protocol revisions 2025-06-18
and 2025-11-25. stdout carries only protocol messages; notices go to stderr. The server
ends when stdin closes. --task/--config set the workload tools use when a call names none.

The ISA variant (--isa-dir DIR, --isa-ext FILE: docs/isa-extensions.md) applies to every
tool: grep_docs and get_instruction_size show the added instructions, kernels use them.

examples:
  tlmcraft mcp --platform plena --task silu --config C1 --workspace /tmp/silu-ws
  tlmcraft mcp --platform plena --task silu --config C1 --isa-ext my_silu.yaml
  claude mcp add tlmcraft -- /path/to/tlmcraft mcp --platform plena --task gemm --config C2

options)";

// An output stream buffer writing straight to a file descriptor (the saved stdout).
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof buf_); }
  ~FdBuf() override { sync(); }

 protected:
  int overflow(int c) override {
    if (sync() != 0) return traits_type::eof();
    if (c != traits_type::eof()) {
      *pptr() = static_cast<char>(c);
      pbump(1);
    }
    return c == traits_type::eof() ? 0 : c;
  }
  int sync() override {
    const char* p = pbase();
    while (p < pptr()) {
      const ssize_t n = ::write(fd_, p, static_cast<size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return -1;  // the client went away; the next read sees EOF
      p += n;
    }
    setp(buf_, buf_ + sizeof buf_);
    return 0;
  }

 private:
  int fd_;
  char buf_[1 << 16];
};

}  // namespace

int cmd_mcp(const Args& args) {
  po::options_description opts(kMcpHelp);
  add_platform_options(opts);
  opts.add_options()
      ("task", po::value<std::string>()->default_value(""), "default task for tool calls that name none")
      ("config", po::value<std::string>()->default_value(""), "default configuration C1..C5")
      ("workspace", po::value<std::string>()->default_value("mcp-workspace"),
       "directory for kernel versions and reports (created if missing)")
      ("trials", po::value<int>()->default_value(3), "trials per evaluation")
      ("seed", po::value<uint64_t>(), "first trial's seed (default: fresh seeds from the OS for every evaluation)")
      ("max-message-mb", po::value<unsigned>()->default_value(8), "longest JSON-RPC message accepted (MB)")
      ("max-reply-mb", po::value<unsigned>()->default_value(4), "longest tool reply sent; longer ones are cut (MB)");
  po::positional_options_description pos;
  po::variables_map vm;
  if (!parse_or_help(args, opts, pos, vm)) return vm.count("help") ? 0 : 2;
  const std::string task = vm["task"].as<std::string>(), config = vm["config"].as<std::string>();
  if (task.empty() != config.empty()) throw InputError("--task and --config go together");
  if (vm["trials"].as<int>() < 1) throw InputError("--trials must be at least 1");

  agent::ToolboxOptions o;
  o.workspace_dir = vm["workspace"].as<std::string>();
  o.workload = {vm["platform"].as<std::string>(), task, config};
  // --isa-dir / --isa-ext: checked before serving (exit 2 naming file:line:col); every tool
  // call runs with it (grep_docs, get_instruction_size, the assembler, evaluations).
  o.isa = use_isa_variant(vm, o.workload.platform);
  o.platform_config = vm["platform-config"].as<std::string>();
  o.overrides = vm["set"].as<std::vector<std::string>>();
  o.trials = vm["trials"].as<int>();
  if (vm.count("seed")) o.seed = vm["seed"].as<uint64_t>();
  std::error_code ec;
  std::filesystem::create_directories(o.workspace_dir, ec);
  if (ec) throw InputError("cannot create workspace " + o.workspace_dir + ": " + ec.message());
  auto toolbox = agent::make_toolbox(o);

  // Keep the real stdout for the protocol; everything else written to fd 1 lands on stderr.
  std::cout.flush();
  std::fflush(stdout);
  const int protocol_fd = ::dup(STDOUT_FILENO);
  if (protocol_fd < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) throw InputError("cannot set up stdout");
  // A client that closes its end makes writes fail with EPIPE instead of killing us.
  std::signal(SIGPIPE, SIG_IGN);
  FdBuf buf(protocol_fd);
  std::ostream protocol(&buf);

  agent::McpServerInfo info;
  info.instructions =
      "Tools for writing and optimising " + o.workload.platform + " kernels on a cycle-accurate virtual platform" +
      (task.empty() ? std::string() : " (default workload: " + task + " " + config + ")") +
      ". Read get_task and get_hardware_config first, write the kernel with write_code, check it with "
      "check_syntax, then run_evaluation; reach a correct kernel, then reduce cycles (profile shows where they go).";
  std::cerr << "tlmcraft mcp: serving " << o.workload.platform << (task.empty() ? "" : " " + task + " " + config)
            << " tools on stdio, workspace " << o.workspace_dir << "\n";
  agent::McpLimits limits;
  if (vm["max-message-mb"].as<unsigned>() < 1 || vm["max-reply-mb"].as<unsigned>() < 1)
    throw InputError("--max-message-mb and --max-reply-mb must be at least 1");
  limits.max_message_bytes = size_t(vm["max-message-mb"].as<unsigned>()) << 20;
  limits.max_reply_bytes = size_t(vm["max-reply-mb"].as<unsigned>()) << 20;
  agent::McpServer server(*toolbox, info, &std::cerr, limits);
  server.serve(std::cin, protocol);
  protocol.flush();
  ::close(protocol_fd);
  return 0;
}

namespace {
[[maybe_unused]] const bool registered = register_command("mcp", cmd_mcp, "MCP server over stdio (agent tools for any MCP client)");
}  // namespace

}  // namespace tlmcraft::cli
