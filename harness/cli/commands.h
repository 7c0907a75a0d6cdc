// Subcommands of the `tlmcraft` CLI. Each takes the arguments after the subcommand name
// and returns the process exit code: 0 ok, 1 kernel/task failure, 2 usage or input error.
#pragma once
#include <string>
#include <vector>

namespace tlmcraft::cli {

using Args = std::vector<std::string>;

int cmd_list(const Args& args);      // tlmcraft list [platforms|tasks|isas]
int cmd_isa(const Args& args);       // tlmcraft isa doc|check NAME
int cmd_asm(const Args& args);       // tlmcraft asm [--check|--list|--encode] KERNEL
int cmd_run(const Args& args);       // tlmcraft run --platform P [--task T --config C] KERNEL
int cmd_baseline(const Args& args);  // tlmcraft baseline --platform P --task T --config C
int cmd_bench(const Args& args);     // tlmcraft bench (suite runs)
int cmd_report(const Args& args);    // tlmcraft report RESULTS.jsonl -o report.html
int cmd_sweep(const Args& args);     // tlmcraft sweep SPEC.yaml | --grid KEY=v1,v2 ...
int cmd_compare(const Args& args);   // tlmcraft compare A.jsonl B.jsonl

// Commands built outside harness/ (agent/cli: agent, agent-bench, mcp) add themselves to
// the dispatch table from a static initialiser in a source file of the executable:
//   static const bool registered = register_command("mcp", cmd_mcp, "MCP server over stdio");
using CommandFn = int (*)(const Args&);
bool register_command(const char* name, CommandFn fn, const char* summary);

}  // namespace tlmcraft::cli
