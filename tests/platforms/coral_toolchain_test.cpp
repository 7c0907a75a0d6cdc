// The Coral toolchain driver: real GNU binutils / clang-16 diagnostics mapped to the
// kernel's lines, link errors as diagnostics, ELF loading into isa::Program, the cache.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "platforms/coral/subprocess.h"
#include "platforms/coral/toolchain.h"
#include "tests/platforms/coral_test_util.h"

namespace tlmcraft::coral {
namespace {

struct Built {
  bool ok = false;
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
};

// A machine without Landlock adds a note saying so to every build (coral_tool_sandbox_test
// checks it); these tests count the kernel's own diagnostics.
Built build_text(const std::string& src, const std::string& name = "k.s") {
  Built b;
  b.ok = build_kernel(src, name, b.prog, b.diags);
  const auto sandbox_note = [](const isa::Diagnostic& d) {
    return d.severity == isa::Severity::Note && d.message.rfind("the toolchain runs without its Landlock sandbox", 0) == 0;
  };
  b.diags.erase(std::remove_if(b.diags.begin(), b.diags.end(), sandbox_note), b.diags.end());
  return b;
}

const char* kMinimal = "  .text\n  .globl main\nmain:\n  li a0, 5\n  addi a0, a0, 1\n  ret\n";

TEST(CoralToolchain, LanguageFollowsTheExtension) {
  EXPECT_EQ(language_of("baseline_relu_c1.c"), KernelLanguage::C);
  EXPECT_EQ(language_of("kernel.s"), KernelLanguage::Assembly);
  EXPECT_EQ(language_of("v3.asm"), KernelLanguage::Assembly);
  EXPECT_EQ(language_of("noext"), KernelLanguage::Assembly);
}

TEST(CoralToolchain, UnknownMnemonicIsReportedAtItsLineAndColumn) {
  const Built b = build_text("  .text\n  .globl main\nmain:\n  addx a0, a1, a2\n  ret\n", "bad.s");
  ASSERT_FALSE(b.ok);
  ASSERT_EQ(b.diags.size(), 1u);
  const auto& d = b.diags[0];
  EXPECT_EQ(d.file, "bad.s");
  EXPECT_EQ(d.line, 4u);
  EXPECT_EQ(d.col, 3u);  // "  addx": the mnemonic starts in column 3
  EXPECT_EQ(d.token, "addx");
  EXPECT_NE(d.message.find("unrecognized opcode"), std::string::npos) << d.message;
  EXPECT_NE(d.format().find("bad.s:4:3: error:"), std::string::npos) << d.format();
}

TEST(CoralToolchain, EveryAssemblerErrorIsReported) {
  const Built b = build_text("  .text\n  .globl main\nmain:\n  li a0\n  nop\n  frob t0\n  ret\n");
  ASSERT_FALSE(b.ok);
  ASSERT_EQ(b.diags.size(), 2u);
  EXPECT_EQ(b.diags[0].line, 4u);
  EXPECT_NE(b.diags[0].message.find("illegal operands"), std::string::npos);
  EXPECT_EQ(b.diags[1].line, 6u);
  EXPECT_EQ(b.diags[1].token, "frob");
}

TEST(CoralToolchain, MissingMainIsALinkDiagnosticWithAHint) {
  const Built b = build_text("  .text\n  .globl start\nstart:\n  ret\n");
  ASSERT_FALSE(b.ok);
  ASSERT_EQ(b.diags.size(), 1u);
  EXPECT_EQ(b.diags[0].token, "main");
  EXPECT_EQ(b.diags[0].message, "undefined reference to 'main'");
  EXPECT_NE(b.diags[0].hint.find(".globl main"), std::string::npos);
}

TEST(CoralToolchain, UndefinedCallNamesTheKernelLine) {
  const Built b = build_text("  .text\n  .globl main\nmain:\n  call helper\n  ret\n");
  ASSERT_FALSE(b.ok);
  ASSERT_FALSE(b.diags.empty());
  EXPECT_EQ(b.diags[0].token, "helper");
  EXPECT_EQ(b.diags[0].line, 4u);
}

TEST(CoralToolchain, ItcmOverflowIsAClearDiagnostic) {
  // 2100 instructions = 8400 bytes of kernel code, more than the 8 KB ITCM.
  const Built b = build_text("  .text\n  .globl main\nmain:\n  .rept 2100\n  nop\n  .endr\n  ret\n");
  ASSERT_FALSE(b.ok);
  ASSERT_EQ(b.diags.size(), 1u);
  EXPECT_NE(b.diags[0].message.find("does not fit the 8 KB ITCM"), std::string::npos) << b.diags[0].message;
  EXPECT_EQ(b.diags[0].token, "ITCM");
}

TEST(CoralToolchain, DtcmOverflowNamesTheStackReserve) {
  const Built b = build_text(std::string(kMinimal) + "  .data\nbig: .space 32000\n");
  ASSERT_FALSE(b.ok);
  ASSERT_EQ(b.diags.size(), 1u);
  EXPECT_NE(b.diags[0].message.find("32 KB DTCM"), std::string::npos) << b.diags[0].message;
  EXPECT_NE(b.diags[0].hint.find("0x20000000"), std::string::npos);
}

TEST(CoralToolchain, CErrorsCarryLineAndColumn) {
  const Built b = build_text("int main(void) {\n  int x = 1;\n  return x +* ;\n}\n", "kern.c");
  ASSERT_FALSE(b.ok);
  ASSERT_FALSE(b.diags.empty());
  EXPECT_EQ(b.diags[0].file, "kern.c");
  EXPECT_EQ(b.diags[0].line, 3u);
  EXPECT_EQ(b.diags[0].col, 15u);  // clang points at the ";" after "x +*"
  EXPECT_EQ(b.diags[0].severity, isa::Severity::Error);
}

TEST(CoralToolchain, CUndefinedFunctionIsALinkDiagnosticAtTheCall) {
  const Built b = build_text("int helper(int);\nint main(void) {\n  return helper(3);\n}\n", "k.c");
  ASSERT_FALSE(b.ok);
  ASSERT_FALSE(b.diags.empty());
  EXPECT_EQ(b.diags[0].token, "helper");
  EXPECT_EQ(b.diags[0].line, 3u);
}

TEST(CoralToolchain, ElfImageBecomesSegmentsSymbolsCodeAndLines) {
  const Built b = build_text(std::string(kMinimal) + "  .data\nvalue: .word 0x12345678\n");
  ASSERT_TRUE(b.ok);
  const isa::Program& p = b.prog;
  EXPECT_EQ(p.isa, "riscv");
  EXPECT_EQ(p.entry, 0u);  // crt0's _start at the bottom of ITCM
  ASSERT_EQ(p.segments.size(), 2u);
  EXPECT_TRUE(p.segments[0].executable);
  EXPECT_EQ(p.segments[0].address, 0u);
  EXPECT_EQ(p.segments[1].address, 0x10000u);
  EXPECT_TRUE(p.segments[1].writable);
  ASSERT_GE(p.segments[1].bytes.size(), 4u);
  EXPECT_EQ(p.segments[1].bytes[0], 0x78);
  // One code entry per word of the text segment; crt0's words have no kernel line.
  EXPECT_EQ(p.code.size(), p.segments[0].bytes.size() / 4);
  EXPECT_EQ(p.code[0].line, 0u);
  EXPECT_EQ(p.code[0].opcode & 0x7f, 0x17u);  // auipc sp (la sp, __stack_top)
  uint64_t main_addr = 0;
  for (const auto& [n, a] : p.symbols)
    if (n == "main") main_addr = a;
  ASSERT_GT(main_addr, 0u);
  // main: li a0, 5 (line 4) = addi a0, x0, 5; addi (line 5); ret (line 6).
  const auto& li = p.code[main_addr / 4];
  EXPECT_EQ(li.opcode, 0x00500513u);
  EXPECT_EQ(li.line, 4u);
  EXPECT_EQ(p.code[main_addr / 4 + 1].line, 5u);
  EXPECT_EQ(p.code[main_addr / 4 + 2].line, 6u);
  EXPECT_EQ(p.code[main_addr / 4 + 2].opcode, 0x00008067u);  // ret
  EXPECT_EQ(p.source_lines.size(), 8u);
}

TEST(CoralToolchain, DiskCacheStoresSuccessfulBuilds) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("coral_cache_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old ? old : "";
  ::setenv("XDG_CACHE_HOME", dir.c_str(), 1);
  ::unsetenv("TLMCRAFT_CORAL_DISK_CACHE");
  ToolchainOptions o;
  o.memory_cache = false;
  const std::string src = std::string(kMinimal) + "# cache test\n";
  isa::Program first, second;
  std::vector<isa::Diagnostic> d1, d2;
  ASSERT_TRUE(build_kernel(src, "c.s", first, d1, o));
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) {
      ++files;
      EXPECT_EQ(e.path().extension(), ".bin");
    }
  EXPECT_EQ(files, 1u);
  ASSERT_TRUE(build_kernel(src, "c.s", second, d2, o));  // from the disk cache
  EXPECT_EQ(first.segments[0].bytes, second.segments[0].bytes);
  EXPECT_EQ(first.line_of_address, second.line_of_address);
  if (old) ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else ::unsetenv("XDG_CACHE_HOME");
  fs::remove_all(dir);
}

TEST(CoralToolchain, MessageParsersKeepForeignFilesApart) {
  const auto d = parse_gnu_as_messages("x.s: Assembler messages:\nother.s:3: Error: junk\n", "x.s", "user.s", {});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].file, "other.s");
  EXPECT_EQ(d[0].line, 0u);
  const auto l = parse_linker_messages("ld.lld-16: error: section '.text' will not fit in region 'ITCM': overflowed by 12 bytes\n"
                                       "ld.lld-16: error: section '.text' will not fit in region 'ITCM': overflowed by 12 bytes\n",
                                       "kernel.s", "user.s", KernelLanguage::Assembly);
  ASSERT_EQ(l.size(), 1u);  // repeated messages become one diagnostic
  EXPECT_NE(l[0].message.find("overflowed by 12 bytes"), std::string::npos);
}

ToolLimits timeout_of(double seconds) {
  ToolLimits l;
  l.timeout_seconds = seconds;
  return l;
}

// A slow host's scale (TLMCRAFT_WALL_CLOCK_SCALE, as for a run's limit) multiplies the
// tools' wall clock too: 30 s x 10, or the chosen 4 s x 10; CPU time is not scaled.
TEST(CoralToolchain, WallClockScaleMultipliesTheToolTimeout) {
  const char* scale = std::getenv("TLMCRAFT_WALL_CLOCK_SCALE");  // make test-sanitize sets 10
  const std::string saved = scale ? scale : "";
  unsetenv("TLMCRAFT_WALL_CLOCK_SCALE");
  unsetenv("TLMCRAFT_TOOL_TIMEOUT_SECONDS");
  const ToolLimits plain = ToolLimits::from_environment();
  EXPECT_EQ(plain.timeout_seconds, 30.0);
  setenv("TLMCRAFT_WALL_CLOCK_SCALE", "10", 1);
  EXPECT_EQ(ToolLimits::from_environment().timeout_seconds, 300.0);
  EXPECT_EQ(ToolLimits::from_environment().cpu_seconds, plain.cpu_seconds);
  setenv("TLMCRAFT_TOOL_TIMEOUT_SECONDS", "4", 1);
  EXPECT_EQ(ToolLimits::from_environment().timeout_seconds, 40.0);
  unsetenv("TLMCRAFT_TOOL_TIMEOUT_SECONDS");
  if (scale) setenv("TLMCRAFT_WALL_CLOCK_SCALE", saved.c_str(), 1);
  else unsetenv("TLMCRAFT_WALL_CLOCK_SCALE");
}

TEST(CoralToolchain, HungToolIsKilledAtTheTimeout) {
  TempDir dir;
  const ToolRun r = run_tool({"sleep", "30"}, dir.path(), timeout_of(0.2));
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.limit, LimitHit::Timeout);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(limit_text("sleep", r, timeout_of(0.2)),
            "sleep did not finish within its wall-clock limit of 0 s and was stopped (raise it with "
            "TLMCRAFT_TOOL_TIMEOUT_SECONDS)");
}

TEST(CoralToolchain, CpuBoundToolIsStoppedByItsCpuLimit) {
  TempDir dir;
  ToolLimits l;
  l.cpu_seconds = 1;
  l.timeout_seconds = 600;  // the CPU limit must stop it, however long 1 s of CPU takes on a loaded host
  const ToolRun r = run_tool({"sh", "-c", "while :; do :; done"}, dir.path(), l);
  EXPECT_EQ(r.limit, LimitHit::CpuTime);
  EXPECT_NE(limit_text("sh", r, l).find("exceeded its CPU time limit of 1 s"), std::string::npos);
}

TEST(CoralToolchain, ToolWritingTooMuchIsStoppedByItsFileSizeLimit) {
  TempDir dir;
  ToolLimits l;
  l.file_size_bytes = 1 << 20;
  const ToolRun r = run_tool({"sh", "-c", "head -c 5000000 /dev/zero > big"}, dir.path(), l);
  EXPECT_EQ(r.limit, LimitHit::FileSize);
  EXPECT_NE(limit_text("sh", r, l).find("output file size limit of 1 MB"), std::string::npos);
}

TEST(CoralToolchain, ToolOutputAndMissingTools) {
  TempDir dir;
  const ToolRun echo = run_tool({"sh", "-c", "echo out; echo err >&2; exit 3"}, dir.path(), timeout_of(10));
  EXPECT_EQ(echo.exit_code, 3);
  EXPECT_NE(echo.output.find("out"), std::string::npos);
  EXPECT_NE(echo.output.find("err"), std::string::npos);
  const ToolRun missing = run_tool({"tlmcraft-no-such-tool"}, dir.path(), timeout_of(10));
  EXPECT_TRUE(missing.not_found);
  EXPECT_FALSE(missing.ok());
}

}  // namespace
}  // namespace tlmcraft::coral
