// The `tlmcraft` command: dispatches to the subcommands in commands.h.
#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>

#include "harness/cli/commands.h"
#include "harness/version.h"
#include "platforms/plugins.h"

namespace {

struct Command {
  int (*fn)(const tlmcraft::cli::Args&);
  const char* summary;
};

std::map<std::string, Command>& commands() {
  using namespace tlmcraft::cli;
  static std::map<std::string, Command> table = {
      {"list", {cmd_list, "list platforms, ISAs and tasks"}},
      {"isa", {cmd_isa, "render (doc) or validate (check) an ISA description"}},
      {"asm", {cmd_asm, "assemble a kernel: check, list, encode"}},
      {"run", {cmd_run, "run a kernel on a platform (optionally evaluated against a task)"}},
      {"baseline", {cmd_baseline, "emit the baseline kernel of a task configuration"}},
      {"bench", {cmd_bench, "suite run over platforms x tasks x configs"}},
      {"report", {cmd_report, "HTML report from suite results"}},
      {"sweep", {cmd_sweep, "suite runs over hardware/ISA variants into one results store"}},
      {"compare", {cmd_compare, "A/B comparison of two result sets or two sweep variants"}},
  };
  return table;
}

}  // namespace

bool tlmcraft::cli::register_command(const char* name, CommandFn fn, const char* summary) {
  return commands().emplace(name, Command{fn, summary}).second;
}

namespace {

void usage(std::ostream& os) {
  os << "usage: tlmcraft <command> [options]   (tlmcraft <command> --help for details; tlmcraft --version)\n\ncommands:\n";
  for (const auto& [name, c] : commands()) os << "  " << name << std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') << c.summary << "\n";
  os << "\n  --version   print the tlmcraft version and git commit\n";
  os << "\nexit codes: 0 ok, 1 kernel or task failure, 2 usage or input error\n";
}

}  // namespace

int main(int argc, char** argv) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    usage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 2 : 0;
  }
  if (std::string(argv[1]) == "--version") {
    std::cout << "tlmcraft " << tlmcraft::harness::tlmcraft_version() << "\n";
    return 0;
  }
  try {
    tlmcraft::load_plugins();  // out-of-tree platforms (platforms/plugins.h)
  } catch (const std::exception& e) {
    std::cerr << "tlmcraft: error: " << e.what() << "\n";
    return 2;
  }
  const auto it = commands().find(argv[1]);
  if (it == commands().end()) {
    std::cerr << "tlmcraft: unknown command '" << argv[1] << "'\n";
    usage(std::cerr);
    return 2;
  }
  try {
    return it->second.fn(tlmcraft::cli::Args(argv + 2, argv + argc));
  } catch (const std::exception& e) {
    std::cerr << "tlmcraft " << argv[1] << ": error: " << e.what() << "\n";
    return 2;
  }
}
