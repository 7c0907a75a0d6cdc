// Keeps Coral kernels inside their sandbox: a kernel may not make the toolchain read any
// file but itself and the project's runtime headers. Checked on what the tools actually
// process, not only on the source text, so macro tricks fail too:
//  - assembly: the source (before the assembler runs) and the assembler's listing with
//    macro expansions (after), for .incbin, .include, .nolist, .altmacro, directive names
//    built from macro arguments, and .file/.loc naming absolute or parent paths;
//  - C: the preprocessed text (clang -E -nostdinc with only the allowed include
//    directories) must come from the kernel and allowed headers alone; __has_include and
//    #include_next are refused; inline asm (read from the LLVM IR, after string literals
//    are joined) obeys the assembly rules and may not use macros.
// Every refusal is an error diagnostic naming the kernel file, the line and the cause.
#pragma once
#include <string>
#include <vector>

#include "isa/program.h"

namespace tlmcraft::coral {

// Assembly source, before assembling.
std::vector<isa::Diagnostic> check_assembly_source(const std::vector<std::string>& lines, const std::string& user_file);

// GNU as listing (-alm=FILE): every statement the assembler processed, macro expansions
// included. Only lines of `tool_file` are checked (the runtime's prelude comes first).
std::vector<isa::Diagnostic> check_assembly_listing(const std::string& listing, const std::string& user_file);

// C source text: constructs the preprocessor evaluates against the host's file system.
// Checked on the text as the preprocessor reads it (c_logical_lines), so digraphs,
// trigraphs, line splices and comments inside a directive do not hide it.
std::vector<isa::Diagnostic> check_c_source(const std::vector<std::string>& lines, const std::string& user_file);

// The lines of C source as translation phases 1-3 see them: `%:` and `??=` read as `#`,
// `??/` as `\`, backslash-newline splices joined (the logical line is reported at its
// first physical line: index i of the result is physical line i + 1, continuation lines
// become empty), and comments replaced by one space (a comment over several lines joins
// them, as in translation phase 3). String and character literals are
// kept as they are.
std::vector<std::string> c_logical_lines(const std::vector<std::string>& lines);

// The one refusal every attempt to read a file outside the sandbox gets, whether the file
// exists, is unreadable or is missing on the host: it names no path, so no kernel can tell
// which host files exist.
extern const char* const kFileRefusal;

// Host paths in tool output (the toolchain's install folders, the build's temporary
// directory, a crashed tool's command line): each absolute path becomes its last component,
// `tool_file` becomes `user_file`.
std::string scrub_host_paths(const std::string& text, const std::string& tool_file, const std::string& user_file);

// clang -E output: each line marker must name `tool_file` or a file under one of
// `allowed_dirs` (clang's own headers, the runtime).
std::vector<isa::Diagnostic> check_preprocessed_c(const std::string& text, const std::string& tool_file,
                                                  const std::vector<std::string>& allowed_dirs,
                                                  const std::string& user_file);

// True if preprocessed C may contain inline asm (an asm keyword anywhere).
bool may_contain_inline_asm(const std::string& preprocessed);

// LLVM IR (clang -S -emit-llvm): the text of every inline and module-level asm statement.
std::vector<isa::Diagnostic> check_inline_asm_ir(const std::string& ir, const std::vector<std::string>& source_lines,
                                                 const std::string& user_file);

// Tool messages about a file the tool could not open (the Landlock sandbox, tool_sandbox.h,
// denied it, or it is missing) all become the same refusal (kFileRefusal); host paths in
// the other messages are scrubbed (scrub_host_paths). `tool_file` is the kernel's name in
// the build directory, `user_file` the name the user gave.
std::vector<isa::Diagnostic> explain_sandbox_denials(std::vector<isa::Diagnostic> diags, const std::string& tool_file = "",
                                                     const std::string& user_file = "");

}  // namespace tlmcraft::coral
