// The Landlock sandbox of the Coral toolchain (platforms/coral/tool_sandbox.h): a tool run
// inside it cannot open a host file or a FIFO, nor write outside its temporary directory,
// whatever the kernel's text looks like; kernels that try are refused at once with a
// message naming the file; without Landlock the build says so and the text checks remain.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "platforms/coral/kernel_sandbox.h"
#include "platforms/coral/subprocess.h"
#include "platforms/coral/tool_sandbox.h"
#include "platforms/coral/toolchain.h"

namespace tlmcraft::coral {
namespace {

namespace fs = std::filesystem;

#define REQUIRE_LANDLOCK()                                                          \
  do {                                                                              \
    std::string why;                                                                \
    if (landlock_abi(&why) <= 0) GTEST_SKIP() << "no Landlock on this machine: " << why; \
  } while (0)

// A folder outside the toolchain's temporary directory, where a test puts host files.
class HostDir {
 public:
  HostDir() : dir_(fs::temp_directory_path() / ("coral_tool_sandbox_" + std::to_string(getpid()))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~HostDir() { fs::remove_all(dir_); }
  std::string fifo() const {
    const std::string p = (dir_ / "fifo").string();
    if (!fs::exists(p)) mkfifo(p.c_str(), 0600);
    return p;
  }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }

 private:
  fs::path dir_;
};

ToolRun assemble_in(const TempDir& dir, const std::string& source, const ToolSandbox* sandbox, double timeout = 20) {
  std::ofstream(dir.file("k.s")) << source;
  ToolLimits limits;
  limits.timeout_seconds = timeout;
  return run_tool({"riscv64-unknown-elf-as", "-march=rv32imf_zve32x", "-o", "k.o", "k.s"}, dir.path(), limits, sandbox);
}

std::unique_ptr<ToolSandbox> sandbox_for(const TempDir& dir) {
  return std::make_unique<ToolSandbox>(
      SandboxPaths{tool_install_folders({"riscv64-unknown-elf-as", "clang-16"}), {dir.path()}});
}

TEST(CoralToolSandbox, TheAssemblerCannotReadAHostFileInsideTheSandbox) {
  REQUIRE_LANDLOCK();
  TempDir dir;
  const std::string incbin = "  .data\n  .incbin \"/etc/os-release\"\n";
  // Outside the sandbox the same run reads the file: the sandbox is what stops it.
  EXPECT_TRUE(assemble_in(dir, incbin, nullptr).ok());
  const auto sandbox = sandbox_for(dir);
  const ToolRun r = assemble_in(dir, incbin, sandbox.get());
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.output.find("/etc/os-release"), std::string::npos) << r.output;
  // Its own files in the temporary directory still work.
  EXPECT_TRUE(assemble_in(dir, "  .text\n  nop\n", sandbox.get()).ok());
  EXPECT_TRUE(fs::exists(dir.file("k.o")));
}

TEST(CoralToolSandbox, TheAssemblerCannotBlockOnAFifoOrWriteOutsideItsDirectory) {
  REQUIRE_LANDLOCK();
  HostDir host;
  TempDir dir;
  const std::string include = "  .include \"" + host.fifo() + "\"\n";
  // Outside the sandbox, opening the FIFO blocks until the wall-clock limit.
  EXPECT_TRUE(assemble_in(dir, include, nullptr, 1).timed_out);
  const auto sandbox = sandbox_for(dir);
  const ToolRun r = assemble_in(dir, include, sandbox.get());
  EXPECT_FALSE(r.timed_out);  // the open failed at once: it did not block until the limit
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.output.find("Permission denied"), std::string::npos) << r.output;

  const std::string outside = host.file("k.o");
  std::ofstream(dir.file("k.s")) << "  nop\n";
  const ToolRun w = run_tool({"riscv64-unknown-elf-as", "-o", outside, "k.s"}, dir.path(), ToolLimits{}, sandbox.get());
  EXPECT_FALSE(w.ok());
  EXPECT_FALSE(fs::exists(outside));
}

TEST(CoralToolSandbox, InstallFoldersNeverExposeHostFileFolders) {
  const auto dirs = tool_install_folders({"riscv64-unknown-elf-as", "riscv64-unknown-elf-ld", "clang-16", "ld.lld-16"});
  ASSERT_FALSE(dirs.empty());
  for (const auto& d : dirs) {
    EXPECT_NE(d, "/") << d;
    EXPECT_NE(d, "/usr") << d;
    EXPECT_NE(d, "/usr/lib") << d;  // /etc/os-release is /usr/lib/os-release on Debian
    EXPECT_NE(d.rfind("/etc", 0), 0u) << d;
  }
}

// ---- through the toolchain driver -----------------------------------------------------------

struct Built {
  bool ok = false;
  std::vector<isa::Diagnostic> diags;
  std::string text() const {
    std::string t;
    for (const auto& d : diags) t += d.format() + "\n";
    return t;
  }
};

Built build(const std::string& src, const std::string& name) {
  ToolchainOptions o;
  o.memory_cache = false;
  o.disk_cache = false;
  Built b;
  isa::Program prog;
  b.ok = build_kernel(src, name, prog, b.diags, o);
  return b;
}

void expect_refused(const Built& b, uint32_t line, const std::string& cause) {
  EXPECT_FALSE(b.ok);  // refused at its line below, not stopped at a limit (no host-time bound)
  ASSERT_FALSE(b.diags.empty());
  EXPECT_EQ(b.diags[0].severity, isa::Severity::Error) << b.text();
  EXPECT_EQ(b.diags[0].line, line) << b.text();
  EXPECT_NE(b.diags[0].format().find(cause), std::string::npos) << b.text();
}

const std::string kHead = "  .text\n  .globl main\nmain:\n  ret\n";

TEST(CoralToolSandbox, MacroBuiltIncbinOfAHostFileIsRefused) {
  // The path is pasted together by .irp and \(): no text check sees "/etc/os-release".
  const Built b = build(kHead + "  .data\n  .irp d, etc\n  .incbin \"/\\d\\()/os-rel\\()ease\"\n  .endr\n", "k.s");
  expect_refused(b, 7, ".incbin reads a file");
  EXPECT_EQ(b.text().find("PRETTY_NAME"), std::string::npos) << b.text();
}

TEST(CoralToolSandbox, MacroBuiltIncludeOfAFifoIsRefusedAtOnce) {
  HostDir host;
  const std::string fifo = host.fifo();
  const std::string dir = fifo.substr(0, fifo.rfind('/'));
  const Built b = build(kHead + "  .macro get where\n  .include \"\\where\\()/fi\\()fo\"\n  .endm\n  get " + dir + "\n", "k.s");
  expect_refused(b, 6, ".include reads a file");
}

TEST(CoralToolSandbox, CIncludeOfAnAbsolutePathThroughAMacroIsRefused) {
  REQUIRE_LANDLOCK();
  const Built b = build("#define P \"/etc/passwd\"\n#include P\nint main(void) { return 0; }\n", "k.c");
  expect_refused(b, 2, std::string(kFileRefusal));
  EXPECT_EQ(b.text().find("root:"), std::string::npos) << b.text();
}

TEST(CoralToolSandbox, PragmaDependencyOnAHostFileIsRefusedByTheSandbox) {
  // No text check knows this pragma: clang opens the file to compare its date.
  REQUIRE_LANDLOCK();
  const Built b = build("#pragma GCC dependency \"/etc/os-release\"\nint main(void) { return 0; }\n", "k.c");
  expect_refused(b, 1, std::string(kFileRefusal));
}

TEST(CoralToolSandbox, HasIncludeBuiltByTokenPastingIsRefused) {
  const Built b = build("#define CAT(a, b) a##b\n#define PROBE CAT(__has_, include)\n#if PROBE(\"/etc/passwd\")\n"
                        "int found;\n#endif\nint main(void) { return 0; }\n", "k.c");
  expect_refused(b, 3, "__has_include is not allowed: kernels may not probe the host's files");
  for (const auto& d : b.diags) EXPECT_NE(d.file.rfind('<', 0), 0u) << b.text();  // no <command line> notes
}

TEST(CoralToolSandbox, WithoutLandlockTheBuildSaysSoOnceAndTheTextChecksRemain) {
  setenv("TLMCRAFT_CORAL_LANDLOCK", "0", 1);
  const Built ok = build(kHead, "k.s");
  const Built refused = build(kHead + "  .data\n  .incbin \"/etc/os-release\"\n", "k.s");
  unsetenv("TLMCRAFT_CORAL_LANDLOCK");
  EXPECT_TRUE(ok.ok) << ok.text();
  ASSERT_EQ(ok.diags.size(), 1u) << ok.text();
  EXPECT_EQ(ok.diags[0].severity, isa::Severity::Note);
  EXPECT_NE(ok.diags[0].message.find("runs without its Landlock sandbox (turned off with TLMCRAFT_CORAL_LANDLOCK=0)"),
            std::string::npos)
      << ok.text();
  expect_refused(refused, 6, ".incbin reads a file");
  // With Landlock there is no such note.
  if (landlock_abi() > 0) {
    const Built sandboxed = build(kHead, "k.s");
    EXPECT_TRUE(sandboxed.diags.empty()) << sandboxed.text();
  }
}

}  // namespace
}  // namespace tlmcraft::coral
