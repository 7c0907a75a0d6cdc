// Hostile AIE-ML kernel files give a bounded number of diagnostics: thousands of
// duplicate `.tile 0 0` sections or `.phase` blocks used to produce millions.
#include <cstdlib>
#include <string>

#include "platforms/aie_ml/kernel_file.h"
#include "tests/platforms/aie_ml_test_util.h"

namespace tlmcraft::aie_ml {
namespace {


TEST(AieMlBounds, DuplicateTileBombGivesCappedDiagnostics) {
  auto p = test::make();
  std::string kernel;
  for (int i = 0; i < 3000; ++i) kernel += ".tile 0 0\n  DONE\n";
  const auto d = test::reject(*p, kernel);  // 4.5 million diagnostics before the cap
  ASSERT_EQ(d.size(), 101u) << test::joined(d);
  EXPECT_EQ(d[0].format(), "k.s:3:1: error: tile (0, 0) already has a program '.tile 0 0' (hint: its first '.tile' is on line 1)");
  EXPECT_EQ(d[1].line, 5u);  // one message per duplicate, not one per earlier section
  EXPECT_EQ(d.back().severity, isa::Severity::Note);
  EXPECT_EQ(d.back().message, "... and more diagnostics (stopped after 100)");
}

TEST(AieMlBounds, RepeatedPhasesAreBounded) {
  auto p = test::make();
  std::string dup;
  for (int i = 0; i < 3000; ++i) dup += ".phase same\n.tile 0 0\n  DONE\n";
  const auto d = test::reject(*p, dup);
  ASSERT_LE(d.size(), 101u);
  EXPECT_EQ(d[0].message, "phase 'same' is defined twice");
  std::string many;
  for (int i = 0; i < 300; ++i) many += ".phase p" + std::to_string(i) + "\n.tile 0 0\n  DONE\n";
  const auto m = test::reject(*p, many);
  ASSERT_EQ(m.size(), 1u) << test::joined(m);
  EXPECT_EQ(m[0].line, 256u * 3 + 1);
  EXPECT_EQ(m[0].message, "more than 256 phases");
}

// Issue 22: 256 phases padded with blank lines. Each phase's text used to be the whole
// file with the other phases blanked (256 copies: a 4 MB file cost 1.37 GB and minutes);
// now the phases hold only their own lines, one pass over the file in all.
TEST(AieMlBounds, ManyPhasesHoldOnlyTheirOwnLines) {
  std::string source;
  size_t directive_bytes = 0;
  for (int i = 0; i < 256; ++i) {
    const std::string directive = ".phase p" + std::to_string(i) + "\n";
    directive_bytes += directive.size();
    source += directive + ".tile 0 0\n  DONE\n" + std::string(1000, '\n');
  }
  std::vector<PhaseText> phases;
  std::vector<isa::Diagnostic> d;
  ASSERT_TRUE(split_phases(source, "k.s", phases, d)) << test::joined(d);
  ASSERT_EQ(phases.size(), 256u);
  size_t held = 0;
  for (const auto& p : phases) held += p.source.size();
  EXPECT_EQ(held, source.size() - directive_bytes);  // every line once, the `.phase` lines not at all
  // Phase k starts after its directive: line k * 1003 + 2 (1003 lines per phase).
  EXPECT_EQ(phases[0].first_line, 2u);
  EXPECT_EQ(phases[255].line, 255u * 1003 + 1);
  EXPECT_EQ(phases[255].first_line, 255u * 1003 + 2);
}

// Diagnostics of a later phase still name the file's line (its text now starts inside the
// file): code before the first `.tile` of phase b is on line 5.
TEST(AieMlBounds, ALaterPhaseNamesTheFilesLines) {
  auto p = test::make();
  const auto t = test::reject(*p, ".phase a\n.tile 0 0\n  DONE\n.phase b\n  DONE\n.tile 0 0\n  DONE\n");
  ASSERT_FALSE(t.empty());
  EXPECT_EQ(t[0].format(), "k.s:5:1: error: code before the first '.tile' directive 'DONE' (hint: a file with '.tile' "
                           "sections must start each program with '.tile <column> <row>')")
      << test::joined(t);
}

// `--timeout` bounds assembling too: past the limit the assembler stops between phases
// (or tile programs) with one error naming the limit. A limit of 1 ns has passed by the
// first check, whatever the host's speed. The message names the limit in force, so the
// test sets the scale `make test-sanitize` raises (TLMCRAFT_WALL_CLOCK_SCALE) to 1.
TEST(AieMlBounds, AssemblingStopsAtTheWallClockLimit) {
  const char* scale = std::getenv("TLMCRAFT_WALL_CLOCK_SCALE");
  const std::string saved_scale = scale ? scale : "";
  setenv("TLMCRAFT_WALL_CLOCK_SCALE", "1", 1);
  AieKernel k;
  std::vector<isa::Diagnostic> d;
  EXPECT_FALSE(assemble_kernel(load_aie_config("default"), ".phase a\n.tile 0 0\n  DONE\n", "k.s", "", k, d, 1e-9));
  ASSERT_EQ(d.size(), 1u) << test::joined(d);
  EXPECT_EQ(d[0].format(),
            "k.s:2:1: error: exceeded wall-clock limit (1e-09 s) at assembling, before line 2 (hint: raise the limit with "
            "--timeout, or make the kernel file smaller)");
  // Without a limit (0) the same file assembles.
  d.clear();
  EXPECT_TRUE(assemble_kernel(load_aie_config("default"), ".phase a\n.tile 0 0\n  DONE\n", "k.s", "", k, d, 0));
  if (scale) setenv("TLMCRAFT_WALL_CLOCK_SCALE", saved_scale.c_str(), 1);
  else unsetenv("TLMCRAFT_WALL_CLOCK_SCALE");
}

}  // namespace
}  // namespace tlmcraft::aie_ml
