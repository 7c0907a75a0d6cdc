// What the platform base (platforms/platform_base.h) makes one behaviour on every
// platform: the strict config reader with `base:` variants, the life cycle, the memory
// map's checks and messages, limit messages, and the kernel context.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include <unistd.h>

#include "platforms/config_reader.h"
#include "platforms/platform_base.h"
#include "platforms/platform_config.h"
#include "platforms/registry.h"
#include "platforms/run_control.h"

namespace tlmcraft {
namespace {

namespace fs = std::filesystem;

// A fresh folder per test for config files.
fs::path temp_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path d = fs::temp_directory_path() / (std::string("tlm_base_") + info->name() + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string write(const fs::path& file, const std::string& text) {
  std::ofstream(file) << text;
  return file.string();
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

const std::vector<std::string> kPlatforms = {"plena", "coral", "aie_ml"};

// One override per platform, and the same change as a variant file's YAML.
struct Change {
  std::string set, yaml;
};
Change change_of(const std::string& platform) {
  if (platform == "plena") return {"timing.latency.vector_exp=6", "timing:\n  latency:\n    vector_exp: 6\n"};
  if (platform == "coral") return {"memory.axi.read_latency=40", "memory:\n  axi:\n    read_latency: 40\n"};
  return {"array.columns=2", "array:\n  columns: 2\n"};
}

nlohmann::json without_name(nlohmann::json j) {
  j.erase("name");
  return j;
}

TEST(ConfigReader, UnknownKeyIsAnErrorWithLineAndColumnOnEveryPlatform) {
  const fs::path d = temp_dir();
  for (const auto& p : kPlatforms) {
    // A whole config (the stock one) with one unknown key at the end of a section.
    std::ifstream in(platform_config_path(p, "default"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text += "bogus_key: 1\n";
    const int line = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    const std::string file = write(d / (p + "_typo.yaml"), text);
    EXPECT_EQ(error_of([&] { make_platform(p, file); }).rfind(file + ":" + std::to_string(line) + ":1: unknown key 'bogus_key' (known here: ", 0), 0u)
        << p << ": " << error_of([&] { make_platform(p, file); });
  }
}

TEST(ConfigReader, UnknownNestedKeyInAVariantNamesTheVariantFile) {
  const fs::path d = temp_dir();
  const std::string file = write(d / "v.yaml", "base: default\ntiming:\n  latncy: {vector_exp: 6}\n");
  EXPECT_EQ(error_of([&] { make_platform("plena", file); }),
            file + ":3:3: unknown key 'timing.latncy': the base config " + platform_config_path("plena", "default") +
                " has no such entry (a variant only changes entries of its base)");
}

TEST(ConfigReader, VariantWithBaseEqualsTheSameOverrides) {
  const fs::path d = temp_dir();
  for (const auto& p : kPlatforms) {
    const Change c = change_of(p);
    const std::string file = write(d / (p + "_variant.yaml"), "base: default\n" + c.yaml);
    const auto variant = make_platform(p, file);
    const auto set = make_platform(p, "default", {c.set});
    EXPECT_EQ(without_name(variant->config()), without_name(set->config())) << p;
    EXPECT_NE(without_name(variant->config()), without_name(make_platform(p)->config())) << p;
    EXPECT_EQ(variant->config()["name"], p + "_variant");
    EXPECT_FALSE(variant->config().contains("base"));
  }
}

TEST(ConfigReader, BaseMayBeAPathRelativeToTheFileAndChain) {
  const fs::path d = temp_dir();
  fs::create_directories(d / "sub");
  write(d / "mid.yaml", "base: default\narray:\n  columns: 2\n");
  const std::string top = write(d / "sub" / "top.yaml", "base: ../mid.yaml\narray:\n  rows: 3\n");
  const auto p = make_platform("aie_ml", top, {"dma.bd_setup_cycles=9"});
  EXPECT_EQ(p->config()["array"]["columns"], 2);
  EXPECT_EQ(p->config()["array"]["rows"], 3);
  EXPECT_EQ(p->config()["dma"]["bd_setup_cycles"], 9);
}

TEST(ConfigReader, BadBasesAreNamed) {
  const fs::path d = temp_dir();
  const std::string a = write(d / "a.yaml", "base: b.yaml\n");
  write(d / "b.yaml", "base: a.yaml\n");
  EXPECT_NE(error_of([&] { make_platform("coral", a); }).find("'base' makes a cycle"), std::string::npos);
  const std::string missing = write(d / "m.yaml", "base: nowhere.yaml\n");
  EXPECT_EQ(error_of([&] { make_platform("coral", missing); }),
            missing + ":1:7: in its base config: " + (d / "nowhere.yaml").string() + ": platform config not found");
  const std::string dir_base = write(d / "dir.yaml", "base: /\n");  // fuzz_platform_config found this
  EXPECT_EQ(error_of([&] { make_platform("coral", dir_base); }),
            dir_base + ":1:7: in its base config: /: a platform config must be a regular file");
  const std::string unnamed = write(d / "u.yaml", "base: fastest\n");
  EXPECT_EQ(error_of([&] { make_platform("coral", unnamed); }).rfind(unnamed + ":1:7: in its base config: ", 0), 0u);
  const std::string shape = write(d / "s.yaml", "base: default\nmemory: 3\n");
  EXPECT_EQ(error_of([&] { make_platform("coral", shape); }),
            shape + ":2:9: 'memory' is a mapping in the base config " + platform_config_path("coral", "default"));
  const std::string other = write(d / "o.yaml", "base: " + platform_config_path("plena", "default") + "\n");
  EXPECT_EQ(error_of([&] { make_platform("coral", other); }),
            platform_config_path("plena", "default") + ":3:11 (base config of " + other +
                "): this is a config for platform 'plena', not coral");
}

TEST(ConfigReader, ValueErrorsNameTheFileThatWroteTheValue) {
  const fs::path d = temp_dir();
  const std::string file = write(d / "v.yaml", "base: default\narray:\n  columns: 0\n");
  EXPECT_EQ(error_of([&] { make_platform("aie_ml", file); }), file + ":3:12: 'array.columns' = 0 is out of range [1, 64]");
  EXPECT_EQ(error_of([&] { make_platform("aie_ml", "default", {"array.rows=99"}); }),
            "--set 'array.rows=99': 'array.rows' = 99 is out of range [1, 16]");
}

TEST(ConfigReader, SyntaxErrorsCarryLineAndColumnOnEveryPlatform) {
  const fs::path d = temp_dir();
  for (const auto& p : kPlatforms) {
    const std::string file = write(d / (p + ".yaml"), "clock_ns: 1\narch: [1, 2\n");
    EXPECT_EQ(error_of([&] { make_platform(p, file); }).rfind(file + ":3:1: ", 0), 0u) << error_of([&] { make_platform(p, file); });
  }
}

// ---- life cycle ------------------------------------------------------------------------

TEST(PlatformLifeCycle, RunWithoutLoadIsTheSameErrorEverywhere) {
  for (const auto& p : kPlatforms)
    EXPECT_EQ(error_of([&] { make_platform(p)->run({}, {}); }), p + ": run() without a program: load() one first");
}

isa::Program assemble_ok(Platform& p, const std::string& source, const std::string& file,
                         const KernelContext& context = {}) {
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  EXPECT_TRUE(p.assemble(source, file, context, prog, diags)) << (diags.empty() ? "" : diags.front().format());
  return prog;
}

// A kernel that halts at once on each platform.
isa::Program trivial_program(Platform& p) {
  if (p.name() == "plena") return assemble_ok(p, "S_ADDI_INT gp1, gp0, 1\n", "k.asm");
  if (p.name() == "coral") return assemble_ok(p, ".globl main\nmain:\n  ret\n", "k.s");
  return assemble_ok(p, "  DONE\n", "k.s");
}

TEST(PlatformLifeCycle, RunTwiceNeedsALoadBetweenAndLoadTwiceStartsAfresh) {
  for (const auto& name : kPlatforms) {
    const auto p = make_platform(name);
    const isa::Program prog = trivial_program(*p);
    p->load(prog);
    p->load(prog);  // a second load replaces the first
    const RunResult first = p->run({}, {});
    ASSERT_TRUE(first.ok()) << name << ": " << first.message;
    EXPECT_EQ(error_of([&] { p->run({}, {}); }),
              name + ": run() twice: load() the program again before another run (memories start empty)");
    p->load(prog);
    EXPECT_EQ(p->run({}, {}).cycles, first.cycles) << name;
  }
}

TEST(PlatformLifeCycle, ALoadOfAnotherIsaIsRefusedAndLeavesNothingToRun) {
  const auto plena = make_platform("plena");
  const auto aie = make_platform("aie_ml");
  const isa::Program prog = trivial_program(*plena);
  EXPECT_EQ(error_of([&] { aie->load(prog); }), "aie_ml: the program was assembled for ISA 'plena', not aie_ml");
  EXPECT_EQ(error_of([&] { aie->run({}, {}); }), "aie_ml: run() without a program: load() one first");
}

// ---- AIE-ML: assemble() returns the real program; the kernel context ---------------------

TEST(PlatformKernelContext, AieMlAssembleCarriesTheTilePrograms) {
  const auto p = make_platform("aie_ml");
  isa::Program prog = assemble_ok(*p, ".tile 0 0\n  NOP\n  DONE\n", "k.s");
  EXPECT_EQ(prog.code.size(), 2u);
  ASSERT_NE(prog.extension, nullptr);
  isa::Program bare = prog;
  bare.extension = nullptr;  // e.g. a program rebuilt by hand from its source lines
  EXPECT_EQ(error_of([&] { p->load(bare); }),
            "aie_ml: the program 'k.s' has no tile programs: assemble it with the aie_ml platform");
  p->load(prog);
  EXPECT_TRUE(p->run({}, {}).ok());
}

TEST(PlatformKernelContext, TaskDefaultsReachTheAssembler) {
  const auto p = make_platform("aie_ml");
  std::vector<isa::Diagnostic> diags;
  isa::Program prog;
  // A broken default movement is reported against <default movement>: the context was used.
  EXPECT_FALSE(p->assemble("  DONE\n", "k.s", KernelContext{"bogus: 1\n"}, prog, diags));
  ASSERT_FALSE(diags.empty());
  EXPECT_EQ(diags.front().file, "<default movement>");
  diags.clear();
  EXPECT_TRUE(p->assemble("  DONE\n", "k.s", prog, diags));  // no context: nothing to add
}

// ---- memory map --------------------------------------------------------------------------

TEST(PlatformMemoryMap, OutOfRangeMessagesStateTheAddressUnit) {
  const auto plena = make_platform("plena");
  EXPECT_EQ(error_of([&] { plena->read_memory("vram", 65535, 4); }),
            "plena: vram address 0xffff + 4 bytes is outside the memory (65536 bf16 elements of 2 bytes; an address "
            "counts bf16 elements)");
  EXPECT_EQ(error_of([&] { plena->write_memory("int_mem", 1024, {1}); }),
            "plena: int_mem address 0x400 + 1 bytes is outside the memory (1024 u32 words of 4 bytes; an address "
            "counts u32 words)");
  EXPECT_EQ(plena->read_memory("vram", 65535, 2).size(), 2u);  // the last element
  const auto coral = make_platform("coral");
  EXPECT_EQ(error_of([&] { coral->read_memory("dtcm", 32760, 16); }),
            "coral: dtcm address 0x7ff8 + 16 bytes is outside the memory (32768 bytes; an address counts bytes)");
  EXPECT_EQ(error_of([&] { coral->read_memory("sram", 0, 1); }), "coral: unknown memory 'sram' (known: itcm, dtcm, ext)");
  const auto aie = make_platform("aie_ml", "default", {"array.columns=1", "array.rows=1"});
  EXPECT_EQ(aie->memories(), (std::vector<std::string>{"ddr", "mem0", "tile_0_0"}));
  EXPECT_EQ(error_of([&] { aie->write_memory("tile_0_0", 65536, {1}); }),
            "aie_ml: tile_0_0 address 0x10000 + 1 bytes is outside the memory (65536 bytes; an address counts bytes)");
}

TEST(PlatformMemoryMap, ExtentsComeFromTheMap) {
  const auto plena = make_platform("plena");
  plena->write_memory("hbm", 8192, {1, 2, 3});
  const auto ext = plena->memory_extents();
  ASSERT_EQ(ext.size(), 5u);
  EXPECT_EQ(ext[0].memory, "hbm");
  EXPECT_EQ(ext[0].ranges, (std::vector<std::pair<uint64_t, uint64_t>>{{8192, 4096}}));
  EXPECT_EQ(ext[2].memory, "vram");
  EXPECT_EQ(ext[2].unit, 2u);
  EXPECT_EQ(ext[2].bytes, 131072u);
}

// A platform written against the base alone, as one outside the tree would be: a
// read-only ROM and a write-only mailbox show the harness flags.
class TinyPlatform : public PlatformBase {
 public:
  TinyPlatform() : PlatformBase("tiny", "tiny", nlohmann::json{{"clock_ns", 1.0}}, "default", 1.0) {}
  std::vector<uint8_t> rom = std::vector<uint8_t>(16, 7), mailbox = std::vector<uint8_t>(8, 0);

 protected:
  bool build_program(const std::string&, const std::string&, const KernelContext&, isa::Program& out,
                     std::vector<isa::Diagnostic>&) const override {
    out.isa = "tiny";
    return true;
  }
  void install_program(const isa::Program&) override {}
  MemoryMap memory_map() const override {
    MemoryRegion r{"rom", 16, 4, "word", true, false, const_cast<uint8_t*>(rom.data()), nullptr};
    MemoryRegion m{"mailbox", 8, 1, "byte", false, true, const_cast<uint8_t*>(mailbox.data()), nullptr};
    return MemoryMap("tiny", {r, m});
  }
  RunResult run_program(const RunLimits&, traces::TraceRecorder*) override { return {}; }
};

TEST(PlatformMemoryMap, HarnessReadAndWriteFlagsAreEnforced) {
  TinyPlatform t;
  EXPECT_EQ(t.read_memory("rom", 3, 4), std::vector<uint8_t>(4, 7));
  EXPECT_EQ(error_of([&] { t.write_memory("rom", 0, {1}); }), "tiny: memory 'rom' cannot be written by the harness");
  t.write_memory("mailbox", 7, {9});
  EXPECT_EQ(t.mailbox[7], 9);
  EXPECT_EQ(error_of([&] { t.read_memory("mailbox", 0, 1); }), "tiny: memory 'mailbox' cannot be read by the harness");
  EXPECT_EQ(t.config(), (nlohmann::json{{"clock_ns", 1.0}, {"name", "default"}}));
}

// ---- limits --------------------------------------------------------------------------------

TEST(PlatformLimits, MessagesAreWordedTheSameOnEveryPlatform) {
  RunLimits l;
  l.max_instructions = 100;
  const std::map<std::string, std::pair<std::string, std::string>> loops = {
      {"plena", {"C_LOOP_START gp1, 1000\n  S_ADDI_INT gp3, gp3, 1\nC_LOOP_END gp1\n", "k.asm"}},
      {"coral", {".globl main\nmain:\n1:\n  addi a0, a0, 1\n  j 1b\n", "k.s"}},
      {"aie_ml", {"top:\n  J top\n", "k.s"}}};
  for (const auto& [name, kernel] : loops) {
    const auto p = make_platform(name);
    p->load(assemble_ok(*p, kernel.first, kernel.second));
    const RunResult r = p->run(l, {});
    EXPECT_EQ(r.stop, StopReason::InstructionLimit) << name;
    EXPECT_EQ(r.message.rfind("exceeded max instructions limit (100) at ", 0), 0u) << name << ": " << r.message;
  }
  EXPECT_EQ(limit_message(StopReason::CycleLimit, l, "cycle 5"), "exceeded max cycles limit (1000000000) at cycle 5");
  l.wall_seconds = 2.5;
  EXPECT_EQ(limit_message(StopReason::WallTimeout, l, "PC 3"), "exceeded wall-clock limit (2.5 s) at PC 3");
}

// A slow host (a sanitizer build) scales every wall-clock limit, and the message says so.
TEST(PlatformLimits, WallClockScaleMultipliesTheHostTimeLimit) {
  RunLimits l;
  l.wall_seconds = 2.5;
  setenv("TLMCRAFT_WALL_CLOCK_SCALE", "10", 1);
  const RunLimiter scaled(l);
  unsetenv("TLMCRAFT_WALL_CLOCK_SCALE");
  EXPECT_EQ(scaled.limits().wall_seconds, 25.0);
  RunResult r;
  scaled.stop(r, StopReason::WallTimeout, "PC 3");
  EXPECT_EQ(r.message, "exceeded wall-clock limit (25 s) at PC 3");
  EXPECT_EQ(RunLimiter(l).limits().wall_seconds, 2.5);
}

TEST(LineProfile, SortsHottestFirstThenByLine) {
  LineProfile p;
  p.add(7, 1, 10);
  p.add(3, 2, 10);
  p.add(5, 1, 30);
  p.add(3, 1, 5);
  const auto lines = p.sorted();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].line, 5u);
  EXPECT_EQ(lines[1].line, 3u);
  EXPECT_EQ(lines[1].executions, 3u);
  EXPECT_EQ(lines[1].cycles, 15u);
  EXPECT_EQ(lines[2].line, 7u);
}

}  // namespace
}  // namespace tlmcraft
