#include "platforms/coral/toolchain.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <sstream>

#include "common/data_dir.h"
#include "isa/riscv/peephole.h"
#include "platforms/coral/elf_image.h"
#include "platforms/coral/kernel_sandbox.h"
#include "platforms/coral/subprocess.h"
#include "platforms/coral/tool_sandbox.h"

namespace tlmcraft::coral {
namespace {

namespace fs = std::filesystem;

const char* kAs = "riscv64-unknown-elf-as";
const char* kGnuLd = "riscv64-unknown-elf-ld";
const char* kObjdump = "riscv64-unknown-elf-objdump";
const char* kClang = "clang-16";
const char* kLld = "ld.lld-16";

const std::vector<std::string> kAsFlags = {"-march=rv32imf_zve32x", "-mabi=ilp32", "-g"};
const std::vector<std::string> kClangFlags = {"--target=riscv32", "-march=rv32imf_zve32x", "-mabi=ilp32", "-O2",
                                              "-ffreestanding", "-fno-builtin", "-nostdlib", "-g",
                                              "-fno-color-diagnostics", "-fno-caret-diagnostics",
                                              // A crash writes no reproducer files (they would name host paths).
                                              "-fno-crash-diagnostics"};
// __has_include opens the file it names, and token pasting can build the name the text
// check looks for: the preprocessor itself refuses it, wherever it comes from.
// __has_include_next is always false (clang's own headers ask it for the C library's
// header, which -nostdinc hides anyway), so it probes nothing either.
const std::vector<std::string> kRefuseFileProbes = {
    "-Wno-builtin-macro-redefined",
    "-D__has_include(x)=_Pragma(\"GCC error \\\"__has_include is not allowed: kernels may not probe the host's files\\\"\") 0",
    "-D__has_include_next(x)=0"};
// Bumped when the build recipe or the cached format changes (4: the peephole on the shared
// matcher; 5: .Ltmp labels; 6: no file name in the key, two stages for composed C; 7: the
// peephole tries larger instructions first).
const char* kCacheVersion = "coral-toolchain-7";
// The name a build's diagnostics carry while it is built and cached; each caller's own file
// name replaces it (the tools see only kernel.c / kernel.s, so the image does not depend on
// the name, and one build serves every file holding the same source: `bench`'s kernel, the
// baseline beside it and `codesign`'s own runs).
const char* kStandInName = "\x1ftlmcraft-kernel\x1f";

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The installed tool `name` resolves to: "realpath size mtime" (a package upgrade changes
// it, and with it the cache key; clang's own headers come with the compiler binary).
std::string tool_identity(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string d; std::getline(dirs, d, ':');) {
    const std::string candidate = (d.empty() ? "." : d) + "/" + name;
    char real[4096];
    if (!realpath(candidate.c_str(), real)) continue;
    struct stat st {};
    if (stat(real, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    return std::string(real) + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtime);
  }
  return name + " (not found)";
}

// clang's own headers (riscv_vector.h, stdint.h, ...): the only directory C kernels may include from.
std::string clang_header_dir(const ToolLimits& limits) {
  static std::mutex m;
  static std::string dir;
  std::lock_guard<std::mutex> lock(m);
  if (dir.empty()) {
    const ToolRun r = run_tool({kClang, "-print-resource-dir"}, "", limits);
    std::string out = r.output;
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    if (r.ok() && !out.empty()) dir = out + "/include";
  }
  return dir;
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  const std::string s = read_text(path);
  return std::vector<uint8_t>(s.begin(), s.end());
}

void write_file(const std::string& path, const void* data, size_t n) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : text) {
    if (c == '\n') {
      if (!cur.empty() && cur.back() == '\r') cur.pop_back();
      lines.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) lines.push_back(cur);
  return lines;
}

uint64_t fnv1a(const std::string& s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string hex64(uint64_t v) {
  char buf[17];
  snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string trim(std::string s) {
  s.erase(0, s.find_first_not_of(" \t\r\n"));
  s.erase(s.find_last_not_of(" \t\r\n") + 1);
  return s;
}

isa::Diagnostic make_diag(isa::Severity sev, const std::string& file, uint32_t line, uint32_t col,
                          const std::string& token, const std::string& message, const std::string& hint) {
  isa::Diagnostic d;
  d.severity = sev;
  d.file = file;
  d.line = line;
  d.col = col;
  d.token = token;
  d.message = message;
  d.hint = hint;
  return d;
}

// 1-based column of `token` in the source line (0 if absent).
uint32_t column_of(const std::vector<std::string>& lines, uint32_t line, const std::string& token) {
  if (line == 0 || line > lines.size() || token.empty()) return 0;
  const size_t at = lines[line - 1].find(token);
  return at == std::string::npos ? 0 : static_cast<uint32_t>(at + 1);
}

// ---- caches -------------------------------------------------------------------------

struct CachedBuild {
  bool ok = false;
  std::vector<uint8_t> elf;
  std::vector<std::pair<uint64_t, uint32_t>> lines;  // address -> kernel line
  std::vector<isa::Diagnostic> diags;
};

std::mutex g_cache_mutex;
std::map<uint64_t, std::shared_ptr<const CachedBuild>>& memory_cache() {
  static std::map<uint64_t, std::shared_ptr<const CachedBuild>> m;
  return m;
}

// What every cache key starts with: the recipe version, the tools' installed files and
// the runtime (crt0, prelude, linker script).
const std::string& toolchain_identity() {
  static const std::string text = [] {
    std::string t = kCacheVersion;
    for (const char* tool : {kAs, kGnuLd, kObjdump, kClang, kLld}) t += tool_identity(tool) + "|";
    return t + read_text(runtime_dir() + "/crt0.s") + read_text(runtime_dir() + "/prelude.s") +
           read_text(runtime_dir() + "/coral.ld");
  }();
  return text;
}

std::string disk_cache_dir() {
  if (const char* off = std::getenv("TLMCRAFT_CORAL_DISK_CACHE"); off && std::string(off) == "0") return "";
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/tlmcraft/coral";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/tlmcraft/coral";
  return "";
}

// Disk format: "<line count>\n" then "address line\n" per entry, then the ELF bytes.
bool load_disk(const std::string& path, CachedBuild& b) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  size_t n = 0;
  if (!(in >> n) || n > (1u << 24)) return false;
  for (size_t i = 0; i < n; ++i) {
    uint64_t a;
    uint32_t l;
    if (!(in >> a >> l)) return false;
    b.lines.emplace_back(a, l);
  }
  in.get();  // the newline after the table
  std::ostringstream rest;
  rest << in.rdbuf();
  const std::string s = rest.str();
  if (s.size() < 52) return false;
  b.elf.assign(s.begin(), s.end());
  b.ok = true;
  return true;
}

void store_disk(const std::string& dir, const std::string& path, const CachedBuild& b) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return;
  // Written under a unique name and renamed: readers never see a partial file.
  const std::string tmp = path + ".tmp" + std::to_string(getpid()) + "_" + std::to_string(reinterpret_cast<uintptr_t>(&b));
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) return;
    out << b.lines.size() << "\n";
    for (const auto& [a, l] : b.lines) out << a << " " << l << "\n";
    out.write(reinterpret_cast<const char*>(b.elf.data()), static_cast<std::streamsize>(b.elf.size()));
    if (!out) {
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) fs::remove(tmp, ec);
}

// C kernels with composed instructions build in two cached stages, so that a variant
// recompiles only what it changes (docs/codesign.md, "Coral"): clang's assembly of the
// kernel (keyed by the text clang compiles, which holds the custom header only when the
// kernel names an instruction) and, after the peephole pass, the image of that assembly
// (keyed by the peephole's output: a kernel the variant leaves unchanged links once).
struct FrontBuild {
  std::string assembly;
  std::vector<isa::Diagnostic> diags;
};

std::map<uint64_t, FrontBuild>& front_cache() {
  static std::map<uint64_t, FrontBuild> m;
  return m;
}

bool load_front(uint64_t key, const ToolchainOptions& o, FrontBuild& out) {
  if (o.memory_cache) {
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    auto it = front_cache().find(key);
    if (it != front_cache().end()) {
      out = it->second;
      return true;
    }
  }
  const std::string dir = o.disk_cache ? disk_cache_dir() : "";
  if (dir.empty()) return false;
  std::ifstream in(dir + "/" + hex64(key) + ".clang.s", std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  out = {text.str(), {}};
  return !out.assembly.empty();
}

void store_front(uint64_t key, const ToolchainOptions& o, const FrontBuild& f) {
  if (o.memory_cache) {
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    front_cache()[key] = f;
  }
  const std::string dir = o.disk_cache ? disk_cache_dir() : "";
  if (dir.empty()) return;
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string path = dir + "/" + hex64(key) + ".clang.s", tmp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out << f.assembly;
    if (!out) return;
  }
  fs::rename(tmp, path, ec);
  if (ec) fs::remove(tmp, ec);
}

uint64_t front_key(const std::string& clang_text) {
  std::string flags;
  for (const auto& f : kClangFlags) flags += f + " ";
  return fnv1a(clang_text, fnv1a("|c-front|" + flags, fnv1a(toolchain_identity())));
}

uint64_t back_key(const std::string& peephole_output) {
  return fnv1a(peephole_output, fnv1a("|c-back|", fnv1a(toolchain_identity())));
}

std::shared_ptr<const CachedBuild> load_build(uint64_t key, const ToolchainOptions& o) {
  if (o.memory_cache) {
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    auto it = memory_cache().find(key);
    if (it != memory_cache().end()) return it->second;
  }
  const std::string dir = o.disk_cache ? disk_cache_dir() : "";
  if (dir.empty()) return nullptr;
  auto b = std::make_shared<CachedBuild>();
  return load_disk(dir + "/" + hex64(key) + ".bin", *b) ? b : nullptr;
}

void store_build(uint64_t key, const ToolchainOptions& o, std::shared_ptr<const CachedBuild> b) {
  const std::string dir = o.disk_cache ? disk_cache_dir() : "";
  if (b->ok && !dir.empty()) store_disk(dir, dir + "/" + hex64(key) + ".bin", *b);
  if (o.memory_cache) {
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    memory_cache()[key] = std::move(b);
  }
}

// ---- tool steps ---------------------------------------------------------------------

// The Landlock sandbox of one build's tool runs: the tools' install folders, clang's
// headers and the runtime to read, the build's temporary directory to write. Null without
// Landlock; `unavailable` then says so (once per build, in its diagnostics).
std::unique_ptr<ToolSandbox> build_sandbox(const TempDir& dir, const ToolLimits& limits, std::string& unavailable) {
  std::string reason;
  if (landlock_abi(&reason) <= 0) {
    unavailable = "the toolchain runs without its Landlock sandbox (" + reason +
                  "): only the text checks keep the kernel from reading host files";
    return nullptr;
  }
  static const std::vector<std::string> folders = tool_install_folders({kAs, kGnuLd, kObjdump, kClang, kLld});
  SandboxPaths paths{folders, {dir.path()}};
  paths.read_execute.push_back(runtime_dir());
  if (const std::string headers = clang_header_dir(limits); !headers.empty()) paths.read_execute.push_back(headers);
  return std::make_unique<ToolSandbox>(paths);
}

std::string tool_failure_text(const std::string& tool, const ToolRun& r, const ToolLimits& limits) {
  if (r.sandbox_error) return tool + " could not enter its Landlock sandbox: " + std::strerror(r.sandbox_error);
  if (r.not_found) return tool + " could not be started (is it installed? see docs/platforms/coral.md)";
  if (r.limit != LimitHit::None) return limit_text(tool, r, limits);
  if (r.signal) return tool + " was killed by signal " + std::to_string(r.signal);
  return tool + " failed (exit status " + std::to_string(r.exit_code) + ")";
}

// The crt0 object, assembled once per process.
bool crt0_object(std::vector<uint8_t>& out, std::string& error, const ToolLimits& timeout) {
  static std::mutex m;
  static std::vector<uint8_t> obj;
  static std::string err;
  static bool done = false;
  std::lock_guard<std::mutex> lock(m);
  if (!done) {
    TempDir dir;
    const ToolRun r = run_tool({kAs, "-march=rv32imf_zve32x", "-mabi=ilp32", "-o", dir.file("crt0.o"),
                                runtime_dir() + "/prelude.s", runtime_dir() + "/crt0.s"},
                               dir.path(), timeout);
    if (r.ok()) obj = read_bytes(dir.file("crt0.o"));
    else err = tool_failure_text(kAs, r, timeout) + " on crt0.s: " + r.output;
    done = r.ok() || r.not_found;  // a timeout may be transient: retry next time
    if (!r.ok()) {
      error = tool_failure_text(kAs, r, timeout) + " on crt0.s: " + trim(r.output);
      return false;
    }
  }
  if (obj.empty()) {
    error = err;
    return false;
  }
  out = obj;
  return true;
}

// Kernel line of each code address from the DWARF line table (objdump --dwarf=decodedline).
std::vector<std::pair<uint64_t, uint32_t>> line_table(const std::string& elf_path, const std::string& tool_file,
                                                      const std::string& cwd, const ToolLimits& timeout,
                                                      const ToolSandbox* sandbox) {
  std::vector<std::pair<uint64_t, uint32_t>> table;
  const ToolRun r = run_tool({kObjdump, "--dwarf=decodedline", elf_path}, cwd, timeout, sandbox);
  if (!r.ok()) return table;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::string file, lineno, addr;
    if (!(ls >> file >> lineno >> addr)) continue;
    if (file != tool_file || addr.rfind("0x", 0) != 0) continue;
    try {
      // "-" ends a sequence: addresses from there on have no kernel line.
      table.emplace_back(std::stoull(addr, nullptr, 16), lineno == "-" ? 0u : static_cast<uint32_t>(std::stoul(lineno)));
    } catch (...) {
    }
  }
  std::stable_sort(table.begin(), table.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return table;
}

bool has_error(const std::vector<isa::Diagnostic>& diags) {
  return std::any_of(diags.begin(), diags.end(), [](const isa::Diagnostic& d) { return d.severity == isa::Severity::Error; });
}

// A message about a file other than the kernel means the kernel made a tool read it: its
// text may quote that file, so it never reaches the user.
bool mentions_foreign_file(const std::vector<isa::Diagnostic>& diags, const std::string& user_file) {
  return std::any_of(diags.begin(), diags.end(), [&](const isa::Diagnostic& d) { return !d.file.empty() && d.file != user_file; });
}

// clang's "expanded from macro" notes that point into <command line> or <scratch space>.
std::vector<isa::Diagnostic> without_macro_notes(std::vector<isa::Diagnostic> diags) {
  diags.erase(std::remove_if(diags.begin(), diags.end(), [](const isa::Diagnostic& d) { return !d.file.empty() && d.file[0] == '<'; }),
              diags.end());
  return diags;
}

// Assembles the kernel; refusals (kernel_sandbox.h) replace everything the tool said.
ToolRun assemble_step(const std::string& tool_file, const std::string& file_name, const std::vector<std::string>& src_lines,
                      const TempDir& dir, const ToolchainOptions& o, const ToolSandbox* sandbox,
                      std::vector<isa::Diagnostic>& diags) {
  std::vector<std::string> argv = {kAs};
  argv.insert(argv.end(), kAsFlags.begin(), kAsFlags.end());
  // The listing with macro expansions shows every statement the assembler processed.
  argv.insert(argv.end(), {"-alm=kernel.lst", "-o", "kernel.o", runtime_dir() + "/prelude.s", tool_file});
  const ToolRun r = run_tool(argv, dir.path(), o.limits, sandbox);
  diags = explain_sandbox_denials(parse_gnu_as_messages(r.output, tool_file, file_name, src_lines), tool_file, file_name);
  auto refused = check_assembly_listing(read_text(dir.file("kernel.lst")), file_name);
  if (refused.empty() && mentions_foreign_file(diags, file_name))
    refused.push_back(make_diag(isa::Severity::Error, file_name, 0, 0, "",
                                "the kernel made the assembler read another file; kernels may not read files", ""));
  if (!refused.empty()) {
    diags = std::move(refused);
    ToolRun failed = r;
    failed.exit_code = 1;
    return failed;
  }
  return r;
}

// Whether the variant has a composed instruction for the peephole pass.
bool has_composed(const ToolchainOptions& o) {
  if (!o.custom) return false;
  for (const auto& in : o.custom->instructions())
    if (!in.steps.empty()) return true;
  return false;
}

// clang's assembly -> the composed-instruction peephole -> clang's integrated assembler
// (which keeps the .loc line table of the C source). A note says what was replaced.
// `linked` gets the image of the peephole's output when an earlier build made it (then
// nothing is assembled); else the run assembles it and `back` is its cache key.
ToolRun peephole_step(const std::string& file_name, const TempDir& dir, const ToolchainOptions& o,
                      const ToolSandbox* sandbox, std::vector<isa::Diagnostic>& diags,
                      std::shared_ptr<const CachedBuild>& linked, uint64_t& back) {
  const isa::riscv::PeepholeResult p = isa::riscv::apply_composed_peephole(read_text(dir.file("kernel.clang.s")), *o.custom);
  write_file(dir.file("kernel.peep.s"), p.assembly.data(), p.assembly.size());
  std::string what;
  for (const auto& [mnemonic, n] : p.replaced) what += (what.empty() ? "" : ", ") + mnemonic + " x" + std::to_string(n);
  if (!what.empty())
    diags.push_back(make_diag(isa::Severity::Note, file_name, 0, 0, "", "peephole: composed instructions used: " + what, ""));
  back = back_key(p.assembly);
  if ((linked = load_build(back, o))) return ToolRun{};
  const ToolRun r = run_tool({kClang, "--target=riscv32", "-march=rv32imf_zve32x", "-mabi=ilp32", "-c", "kernel.peep.s",
                              "-o", "kernel.o"},
                             dir.path(), o.limits, sandbox);
  if (!r.ok())
    diags.push_back(make_diag(isa::Severity::Error, file_name, 0, 0, "",
                              "assembling the peephole pass's output failed: " + trim(r.output), ""));
  return r;
}

// Preprocesses, checks and compiles a C kernel. Returns the compiler's run (failed when refused).
ToolRun compile_step(const std::string& tool_file, const std::string& file_name,
                     const std::vector<std::string>& src_lines, const TempDir& dir, const ToolchainOptions& o,
                     const ToolSandbox* sandbox, std::vector<isa::Diagnostic>& diags,
                     std::shared_ptr<const CachedBuild>& linked, uint64_t& back) {
  const bool peephole = has_composed(o);
  const uint64_t front = peephole ? front_key(read_text(dir.file(tool_file))) : 0;
  if (FrontBuild f; peephole && load_front(front, o, f)) {
    write_file(dir.file("kernel.clang.s"), f.assembly.data(), f.assembly.size());
    diags = f.diags;
    return peephole_step(file_name, dir, o, sandbox, diags, linked, back);
  }
  ToolRun refused_run;
  refused_run.exit_code = 1;
  diags = check_c_source(src_lines, file_name);
  if (!diags.empty()) return refused_run;
  const std::string headers = clang_header_dir(o.limits);
  // Only clang's own headers are visible: no system include directories at all.
  std::vector<std::string> argv = {kClang};
  argv.insert(argv.end(), kClangFlags.begin(), kClangFlags.end());
  argv.insert(argv.end(), {"-nostdinc", "-isystem", headers});
  argv.insert(argv.end(), kRefuseFileProbes.begin(), kRefuseFileProbes.end());
  argv.insert(argv.end(), {"-E", tool_file, "-o", "kernel.i"});
  ToolRun r = run_tool(argv, dir.path(), o.limits, sandbox);
  diags = explain_sandbox_denials(without_macro_notes(parse_clang_messages(r.output, tool_file, file_name)), tool_file, file_name);
  if (mentions_foreign_file(diags, file_name)) {
    diags = {make_diag(isa::Severity::Error, file_name, 0, 0, "", "the kernel made the compiler read another file; kernels may not read files", "")};
    return refused_run;
  }
  if (!r.ok()) return r;
  const std::string preprocessed = read_text(dir.file("kernel.i"));
  diags = check_preprocessed_c(preprocessed, tool_file, {headers, runtime_dir()}, file_name);
  if (!diags.empty()) return refused_run;
  if (may_contain_inline_asm(preprocessed)) {
    // The IR holds each asm statement's text after string literals are joined, unparsed.
    std::vector<std::string> ir_argv = {kClang, "--target=riscv32", "-march=rv32imf_zve32x", "-mabi=ilp32", "-ffreestanding",
                                        "-O0", "-S", "-emit-llvm", "-x", "cpp-output", "kernel.i", "-o", "kernel.ll"};
    const ToolRun ir = run_tool(ir_argv, dir.path(), o.limits, sandbox);
    diags = check_inline_asm_ir(read_text(dir.file("kernel.ll")), src_lines, file_name);
    if (!diags.empty()) return refused_run;
    if (!ir.ok()) {  // the compile below reports why
      diags.clear();
    }
  }
  argv = {kClang};
  argv.insert(argv.end(), kClangFlags.begin(), kClangFlags.end());
  argv.insert(argv.end(), {"-x", "cpp-output", peephole ? "-S" : "-c", "kernel.i", "-o", peephole ? "kernel.clang.s" : "kernel.o"});
  r = run_tool(argv, dir.path(), o.limits, sandbox);
  diags = explain_sandbox_denials(parse_clang_messages(r.output, tool_file, file_name), tool_file, file_name);
  if (!r.ok() || !peephole) return r;
  if (!has_error(diags)) store_front(front, o, {read_text(dir.file("kernel.clang.s")), diags});
  return peephole_step(file_name, dir, o, sandbox, diags, linked, back);
}

// Whether a C kernel (with its prelude) may name a custom instruction or its wrappers:
// their names appear in it, or it pastes tokens (##) and so could build one. Only then
// is the generated header compiled in front of it: without a use it changes nothing but
// the cache key, and each variant would compile every kernel again.
bool names_custom(const std::string& text, const isa::riscv::CustomExtensions& custom) {
  if (text.find("##") != std::string::npos) return true;
  for (const auto& in : custom.instructions()) {
    std::string c = in.mnemonic;
    for (char& ch : c)
      if (ch == '.') ch = '_';
    if (text.find(in.mnemonic) != std::string::npos || text.find(c) != std::string::npos) return true;
  }
  return false;
}

CachedBuild run_build(const std::string& source, const std::string& file_name, KernelLanguage lang,
                      const ToolchainOptions& o) {
  CachedBuild b;
  const std::vector<std::string> src_lines = split_lines(source);
  const std::string tool_file = lang == KernelLanguage::C ? "kernel.c" : "kernel.s";
  auto fail = [&](const std::string& msg, const std::string& hint = "") {
    b.diags.push_back(make_diag(isa::Severity::Error, file_name, 0, 0, "", msg, hint));
    return b;
  };
  // Refused before any tool runs, when the source text already shows it.
  if (lang == KernelLanguage::Assembly) {
    b.diags = check_assembly_source(src_lines, file_name);
    if (!b.diags.empty()) return b;
  }
  std::unique_ptr<TempDir> dir;
  try {
    dir = std::make_unique<TempDir>();
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  std::vector<uint8_t> crt0;
  std::string crt0_error;
  if (!crt0_object(crt0, crt0_error, o.limits)) return fail(crt0_error);
  write_file(dir->file("crt0.o"), crt0.data(), crt0.size());
  std::string text =
      lang == KernelLanguage::C && !o.c_prelude.empty() ? o.c_prelude + "\n#line 1\n" + source : source;
  if (o.custom && !o.custom->empty() && lang == KernelLanguage::Assembly)
    text = isa::riscv::expand_custom_mnemonics(text, *o.custom);
  else if (o.custom && !o.custom->empty() && names_custom(text, *o.custom))
    text = isa::riscv::custom_c_header(*o.custom) + "\n#line 1\n" + text;
  write_file(dir->file(tool_file), text.data(), text.size());

  std::unique_ptr<ToolSandbox> sandbox;
  std::string no_sandbox;
  try {
    sandbox = build_sandbox(*dir, o.limits, no_sandbox);
  } catch (const std::exception& e) {
    return fail(e.what());
  }

  // Compile or assemble.
  std::shared_ptr<const CachedBuild> linked;
  uint64_t back = 0;
  ToolRun r = lang == KernelLanguage::C
                  ? compile_step(tool_file, file_name, src_lines, *dir, o, sandbox.get(), b.diags, linked, back)
                  : assemble_step(tool_file, file_name, src_lines, *dir, o, sandbox.get(), b.diags);
  if (!no_sandbox.empty()) b.diags.push_back(make_diag(isa::Severity::Note, file_name, 0, 0, "", no_sandbox, ""));
  if (linked) {  // the peephole's output was linked before
    b.elf = linked->elf;
    b.lines = linked->lines;
    b.ok = true;
    return b;
  }
  const char* compiler = lang == KernelLanguage::C ? kClang : kAs;
  if (!r.ok()) {
    if (r.limit != LimitHit::None || !has_error(b.diags))
      fail(tool_failure_text(compiler, r, o.limits) +
               (r.limit != LimitHit::None || trim(r.output).empty() ? "" : ": " + scrub_host_paths(trim(r.output), tool_file, file_name)),
           r.limit != LimitHit::None ? "see docs/reliability.md, \"Limits on untrusted input\"" : "");
    return b;
  }

  // Link.
  const std::string script = runtime_dir() + "/coral.ld";
  if (lang == KernelLanguage::C)
    r = run_tool({kLld, "-T", script, "-o", "kernel.elf", "crt0.o", "kernel.o"}, dir->path(), o.limits, sandbox.get());
  else
    r = run_tool({kGnuLd, "-m", "elf32lriscv", "-T", script, "-o", "kernel.elf", "crt0.o", "kernel.o"}, dir->path(),
                 o.limits, sandbox.get());
  if (!r.ok()) {
    auto link = r.limit == LimitHit::None ? parse_linker_messages(r.output, tool_file, file_name, lang)
                                          : std::vector<isa::Diagnostic>{};
    if (link.empty())
      link.push_back(make_diag(isa::Severity::Error, file_name, 0, 0, "",
                               tool_failure_text(lang == KernelLanguage::C ? kLld : kGnuLd, r, o.limits) +
                                   (r.limit != LimitHit::None || trim(r.output).empty() ? "" : ": " + scrub_host_paths(trim(r.output), tool_file, file_name)),
                               ""));
    b.diags.insert(b.diags.end(), link.begin(), link.end());
    return b;
  }
  b.elf = read_bytes(dir->file("kernel.elf"));
  b.lines = line_table("kernel.elf", tool_file, dir->path(), o.limits, sandbox.get());
  b.ok = true;
  if (back) store_build(back, o, std::make_shared<CachedBuild>(CachedBuild{true, b.elf, b.lines, {}}));
  return b;
}

}  // namespace

KernelLanguage language_of(const std::string& file_name) {
  const auto dot = file_name.rfind('.');
  if (dot != std::string::npos && file_name.substr(dot) == ".c") return KernelLanguage::C;
  return KernelLanguage::Assembly;
}

std::string runtime_dir() { return data::data_path("platforms/coral/runtime"); }

// ---- diagnostics parsers ------------------------------------------------------------------

std::vector<isa::Diagnostic> parse_gnu_as_messages(const std::string& output, const std::string& tool_file,
                                                   const std::string& user_file,
                                                   const std::vector<std::string>& source_lines) {
  std::vector<isa::Diagnostic> out;
  static const std::regex re(R"(^(.*?):(\d+): (Error|Warning|Info): (.*)$)");
  static const std::regex quoted("`([^']*)'");
  for (const auto& raw : split_lines(output)) {
    std::smatch m;
    if (!std::regex_match(raw, m, re)) continue;
    const std::string file = m[1];
    const bool ours = fs::path(file).filename() == tool_file;
    const uint32_t line = ours ? static_cast<uint32_t>(std::stoul(m[2])) : 0;
    const isa::Severity sev = m[3] == "Error" ? isa::Severity::Error
                              : m[3] == "Warning" ? isa::Severity::Warning : isa::Severity::Note;
    std::string msg = m[4];
    std::string token, hint;
    std::smatch q;
    if (std::regex_search(msg, q, quoted)) token = q[1];
    if (msg.rfind("unrecognized opcode", 0) == 0) {
      const std::string whole = token;
      token = whole.substr(0, whole.find_first_of(" \t"));
      hint = "not an rv32imf_zve32x instruction; Coral's custom instruction is mpause";
    } else if (msg.rfind("illegal operands", 0) == 0) {
      hint = "check the operand count, register names and immediate ranges";
    } else if (msg.find("unknown CSR") != std::string::npos) {
      hint = "Coral has mcycle (0xb00) and minstret (0xb02), not cycle/time/instret";
    }
    // The assembler quotes the operands normalised (no spaces after commas); point at
    // the mnemonic, which appears verbatim in the line.
    const std::string first = token.substr(0, token.find_first_of(" \t,"));
    out.push_back(make_diag(sev, ours ? user_file : file, line, ours ? column_of(source_lines, line, first) : 0, token,
                            msg, hint));
  }
  return out;
}

std::vector<isa::Diagnostic> parse_clang_messages(const std::string& output, const std::string& tool_file,
                                                  const std::string& user_file) {
  std::vector<isa::Diagnostic> out;
  static const std::regex re(R"(^(.*?):(\d+):(\d+): (fatal error|error|warning|note): (.*)$)");
  static const std::regex quoted("'([^']*)'");
  for (const auto& raw : split_lines(output)) {
    std::smatch m;
    if (!std::regex_match(raw, m, re)) continue;
    const std::string file = m[1];
    const bool ours = fs::path(file).filename() == tool_file;
    const std::string kind = m[4];
    const isa::Severity sev = kind == "warning" ? isa::Severity::Warning
                              : kind == "note"  ? isa::Severity::Note : isa::Severity::Error;
    const std::string msg = m[5];
    std::string token;
    std::smatch q;
    if (std::regex_search(msg, q, quoted)) token = q[1];
    std::string hint;
    if (msg.find("riscv_vector.h") != std::string::npos || msg.find("__riscv_") != std::string::npos)
      hint = "RVV intrinsics need #include <riscv_vector.h> and the __riscv_ prefix";
    out.push_back(make_diag(sev, ours ? user_file : file, static_cast<uint32_t>(std::stoul(m[2])),
                            static_cast<uint32_t>(std::stoul(m[3])), token, msg, hint));
  }
  return out;
}

std::vector<isa::Diagnostic> parse_linker_messages(const std::string& output, const std::string& tool_file,
                                                   const std::string& user_file, KernelLanguage lang) {
  std::vector<isa::Diagnostic> out;
  static const std::regex undefined_gnu(R"(undefined reference to `([^']+)')");
  static const std::regex undefined_lld(R"(undefined symbol: (\S+))");
  static const std::regex where_gnu(R"(^(?:.*/)?([^/:]+):(\d+):)");
  static const std::regex where_lld(R"(>>> referenced by (?:.*/)?([^/:]+):(\d+))");
  static const std::regex overflow_gnu(R"(region `(\w+)' overflowed by (\d+) bytes)");
  static const std::regex overflow_lld(R"(will not fit in region '(\w+)': overflowed by (\d+) bytes)");
  std::map<std::string, uint64_t> overflow;  // region -> bytes (tools repeat the message)
  const auto lines = split_lines(output);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& raw = lines[i];
    std::smatch m;
    if (std::regex_search(raw, m, overflow_gnu) || std::regex_search(raw, m, overflow_lld)) {
      overflow[m[1]] = std::stoull(m[2]);
      continue;
    }
    if (std::regex_search(raw, m, undefined_gnu) || std::regex_search(raw, m, undefined_lld)) {
      const std::string sym = m[1];
      uint32_t line = 0;
      std::smatch w;
      if (std::regex_search(raw, w, where_gnu) && w[1] == tool_file) line = static_cast<uint32_t>(std::stoul(w[2]));
      for (size_t k = i + 1; k < lines.size() && k <= i + 3 && line == 0; ++k)
        if (std::regex_search(lines[k], w, where_lld) && w[1] == tool_file) line = static_cast<uint32_t>(std::stoul(w[2]));
      std::string hint;
      if (sym == "main")
        hint = lang == KernelLanguage::C ? "define the kernel's entry point: int main(void) { ... }"
                                         : "define the kernel's entry point: `.globl main` then `main:` (crt0 calls it)";
      else
        hint = "define '" + sym + "' in the kernel (no C library is linked; memcpy, memset and memmove are provided)";
      const bool dup = std::any_of(out.begin(), out.end(), [&](const isa::Diagnostic& d) { return d.token == sym && d.line == line; });
      if (!dup)
        out.push_back(make_diag(isa::Severity::Error, user_file, line, 0, sym, "undefined reference to '" + sym + "'", hint));
    }
  }
  for (const auto& [region, bytes] : overflow) {
    std::string msg, hint;
    if (region == "ITCM") {
      msg = "the kernel's code does not fit the 8 KB ITCM (overflowed by " + std::to_string(bytes) + " bytes)";
      hint = "shorten the code, e.g. unroll less";
    } else if (region == "DTCM") {
      msg = "the kernel's data and the 1 KB stack reserve do not fit the 32 KB DTCM (overflowed by " +
            std::to_string(bytes) + " bytes)";
      hint = "keep large tensors in external memory at 0x20000000 (the task layout places them there)";
    } else {
      msg = "region " + region + " overflowed by " + std::to_string(bytes) + " bytes";
    }
    out.push_back(make_diag(isa::Severity::Error, user_file, 0, 0, region, msg, hint));
  }
  return out;
}

// ---- the driver ---------------------------------------------------------------------------

// A cached build's diagnostic with the stand-in name replaced by the caller's file name.
isa::Diagnostic named(isa::Diagnostic d, const std::string& file_name) {
  for (std::string* text : {&d.file, &d.message, &d.hint, &d.token})
    for (size_t at = text->find(kStandInName); at != std::string::npos;
         at = text->find(kStandInName, at + file_name.size()))
      text->replace(at, std::strlen(kStandInName), file_name);
  return d;
}

bool build_kernel(const std::string& source, const std::string& file_name, isa::Program& out,
                  std::vector<isa::Diagnostic>& diags, const ToolchainOptions& o) {
  const KernelLanguage lang = language_of(file_name);
  // Key: everything that goes into the image: recipe version, language, the tools (their
  // installed files; clang's headers come with clang), the runtime (crt0, prelude, linker
  // script), flags, the C prelude, the source. Kernels can include nothing else
  // (kernel_sandbox.h).
  std::string key_text = std::string(lang == KernelLanguage::C ? "|c|" : "|s|");
  for (const auto& f : (lang == KernelLanguage::C ? kClangFlags : kAsFlags)) key_text += f + " ";
  if (lang == KernelLanguage::C) key_text += "|prelude|" + o.c_prelude;
  if (o.custom && !o.custom->empty()) key_text += "|custom|" + isa::riscv::fingerprint(*o.custom);
  const uint64_t key = fnv1a(source, fnv1a(key_text, fnv1a(toolchain_identity())));

  std::shared_ptr<const CachedBuild> build;
  if (o.memory_cache) {
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    auto it = memory_cache().find(key);
    if (it != memory_cache().end()) build = it->second;
  }
  const std::string dir = o.disk_cache ? disk_cache_dir() : "";
  const std::string disk_path = dir.empty() ? "" : dir + "/" + hex64(key) + ".bin";
  if (!build && !disk_path.empty()) {
    auto b = std::make_shared<CachedBuild>();
    if (load_disk(disk_path, *b)) build = b;
  }
  if (!build) {
    auto b = std::make_shared<CachedBuild>(run_build(source, kStandInName, lang, o));
    if (b->ok && !disk_path.empty()) store_disk(dir, disk_path, *b);
    build = b;
  }
  if (o.memory_cache) {
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    memory_cache()[key] = build;
  }

  for (isa::Diagnostic d : build->diags) diags.push_back(named(std::move(d), file_name));
  if (!build->ok) return false;

  isa::Program p;
  p.isa = "riscv";
  p.source_name = file_name;
  p.source_lines = split_lines(source);
  const std::string err = read_elf_image(build->elf, p);
  if (!err.empty()) {
    diags.push_back(make_diag(isa::Severity::Error, file_name, 0, 0, "", "linked image unreadable: " + err, ""));
    return false;
  }
  p.line_of_address = build->lines;
  // One entry per 32-bit code word, with the kernel line that produced it.
  for (const auto& s : p.segments) {
    if (!s.executable) continue;
    for (size_t off = 0; off + 4 <= s.bytes.size(); off += 4) {
      isa::Instruction in;
      in.opcode = uint32_t(s.bytes[off]) | uint32_t(s.bytes[off + 1]) << 8 | uint32_t(s.bytes[off + 2]) << 16 |
                  uint32_t(s.bytes[off + 3]) << 24;
      const uint64_t addr = s.address + off;
      // The last row at or before the address (rows cover [address, next row)).
      auto it = std::upper_bound(p.line_of_address.begin(), p.line_of_address.end(), addr,
                                 [](uint64_t a, const auto& e) { return a < e.first; });
      if (it != p.line_of_address.begin()) in.line = std::prev(it)->second;
      p.code.push_back(in);
    }
  }
  out = std::move(p);
  return true;
}

}  // namespace tlmcraft::coral
