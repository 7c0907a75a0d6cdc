// The Coral kernel toolchain: RISC-V assembly through GNU binutils, C through clang-16 and
// ld.lld-16, both linked with the platform's crt0 and linker script (platforms/coral/
// runtime/). Tool messages become isa::Diagnostic on the kernel's own lines; results are
// cached by a hash of everything that goes into the image (recipe, tool identities, flags,
// runtime files, C prelude, file name, source), in memory and on disk. Kernels stay in
// their sandbox (kernel_sandbox.h) and every tool runs under ToolLimits.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/program.h"
#include "isa/riscv/custom_ext.h"
#include "platforms/coral/subprocess.h"

namespace tlmcraft::coral {

enum class KernelLanguage { Assembly, C };

// ".c" -> C; everything else (".s", ".S", ".asm", no extension) is assembly.
KernelLanguage language_of(const std::string& file_name);

// Directory holding crt0.s, prelude.s and coral.ld (platforms/coral/runtime in the data folder).
std::string runtime_dir();

struct ToolchainOptions {
  ToolLimits limits = ToolLimits::from_environment();  // per tool invocation
  bool memory_cache = true;
  bool disk_cache = true;         // $XDG_CACHE_HOME/tlmcraft/coral (off if TLMCRAFT_CORAL_DISK_CACHE=0)
  // C only: text compiled before the kernel (the task layout's #defines), followed by
  // `#line 1` so diagnostics and line tables keep the kernel's own line numbers.
  std::string c_prelude;
  // The variant's custom instructions (null: the shipped ISA). With them, assembly
  // kernels may write their mnemonics (rewritten to `.insn` on the same line), C kernels
  // see the generated header's wrappers, and when any is composed the compiled assembly
  // goes through the peephole pass (isa/riscv/peephole.h) before it is assembled.
  std::shared_ptr<const isa::riscv::CustomExtensions> custom;
};

// Builds the kernel and fills `out` (isa "riscv": segments, entry, symbols, one
// isa::Instruction per 32-bit word of code with its source line, line_of_address,
// source_name, source_lines). On failure returns false and fills `diags`; warnings
// may be present on success too.
bool build_kernel(const std::string& source, const std::string& file_name, isa::Program& out,
                  std::vector<isa::Diagnostic>& diags, const ToolchainOptions& options = {});

// Parsers of tool output, exposed for tests. `tool_file` is the name the tool saw
// ("kernel.s"), `user_file` the name diagnostics carry.
std::vector<isa::Diagnostic> parse_gnu_as_messages(const std::string& output, const std::string& tool_file,
                                                   const std::string& user_file,
                                                   const std::vector<std::string>& source_lines);
std::vector<isa::Diagnostic> parse_clang_messages(const std::string& output, const std::string& tool_file,
                                                  const std::string& user_file);
std::vector<isa::Diagnostic> parse_linker_messages(const std::string& output, const std::string& tool_file,
                                                   const std::string& user_file, KernelLanguage lang);

}  // namespace tlmcraft::coral
