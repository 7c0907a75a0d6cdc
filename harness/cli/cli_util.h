// Option groups and printing shared by the CLI subcommands.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "harness/cli/commands.h"
#include "isa/isa_variant.h"
#include "platforms/platform.h"

namespace tlmcraft::cli {

namespace po = boost::program_options;

// --platform, --platform-config, --set KEY=VALUE..., --isa-dir, --isa-ext FILE...
void add_platform_options(po::options_description& opts);
// --isa-dir, --isa-ext FILE... alone (commands without add_platform_options).
void add_isa_variant_options(po::options_description& opts);
// The ISA variant the options name (isa/isa_variant.h).
isa::IsaVariant isa_variant_from(const po::variables_map& vm);
// That variant, checked against `platform` (an overlay for another ISA, or one that does
// not validate, is an InputError naming file:line:col) and made the process's variant, so
// every ISA the command loads sees it. Returns it for the command to pass on explicitly.
isa::IsaVariant use_isa_variant(const po::variables_map& vm, const std::string& platform);
// --max-instructions, --max-cycles, --timeout, --vcd, --perfetto, --window, --scope, --trace-budget-mb
void add_run_options(po::options_description& opts);
// Parses; prints --help (returns false, vm has "help") or throws InputError on bad usage.
bool parse_or_help(const Args& args, const po::options_description& opts,
                   const po::positional_options_description& pos, po::variables_map& vm);

std::unique_ptr<Platform> make_platform_from(const po::variables_map& vm);
RunLimits limits_from(const po::variables_map& vm);
TraceOptions traces_from(const po::variables_map& vm);

std::string read_text_file(const std::string& path);  // throws InputError
// A kernel file within the input bounds (a regular file of at most
// TLMCRAFT_MAX_KERNEL_BYTES, isa/input_limits.h); InputError otherwise.
std::string read_kernel_text(const std::string& path);
// Writes next to `path` and renames, so a reader never sees half a file; throws InputError.
void write_text_file_atomically(const std::string& path, const std::string& text);
// Assembles a kernel file, printing every diagnostic to `err`; false on errors.
bool assemble_file(const Platform& p, const std::string& path, isa::Program& out, std::ostream& err);
// FILE[@ADDR] into the platform's HBM.
void load_input_file(Platform& p, const std::string& spec);
// MEMORY:ADDR:LEN; appends a JSON entry and a text hexdump.
void dump_memory(const Platform& p, const std::string& spec, nlohmann::json& out, std::ostream& text);

std::string format_run(const Platform& p, const isa::Program& prog, const RunResult& r);
std::string format_report(const nlohmann::json& report);

}  // namespace tlmcraft::cli
