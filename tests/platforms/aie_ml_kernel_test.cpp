// The kernel file: `.tile` sections and the `.movement` YAML, with whole-file line
// numbers in every diagnostic.
#include <gtest/gtest.h>

#include "platforms/aie_ml/kernel_file.h"
#include "platforms/aie_ml/movement.h"
#include "tests/platforms/aie_ml_test_util.h"

namespace tlmcraft::aie_ml::test {
namespace {

TEST(AieMlKernel, SplitsTilesAndMovementWithLineNumbers) {
  const std::string src =
      "; two tiles\n"          // 1
      ".tile 1 2   ; second\n"  // 2
      "  MOV r1, 1\n"           // 3
      "  DONE\n"                // 4
      ".tile 0 0\n"             // 5
      "  DONE\n"                // 6
      ".movement\n"             // 7
      "locks: []\n";            // 8
  KernelParts parts;
  std::vector<isa::Diagnostic> d;
  ASSERT_TRUE(split_kernel(src, "k.s", 4, 4, parts, d)) << joined(d);
  ASSERT_EQ(parts.tiles.size(), 2u);
  EXPECT_EQ(parts.tiles[0].column, 1u);
  EXPECT_EQ(parts.tiles[0].row, 2u);
  EXPECT_EQ(parts.tiles[0].first_line, 3u);
  EXPECT_EQ(parts.tiles[0].text, "  MOV r1, 1\n  DONE\n");
  EXPECT_EQ(parts.tiles[1].first_line, 6u);
  EXPECT_TRUE(parts.has_movement);
  EXPECT_EQ(parts.movement_first_line, 8u);
  EXPECT_EQ(parts.movement, "locks: []\n");
}

TEST(AieMlKernel, NoTileDirectiveMeansTileZeroZero) {
  KernelParts parts;
  std::vector<isa::Diagnostic> d;
  ASSERT_TRUE(split_kernel("  MOV r1, 1\n  DONE\n", "k.s", 4, 4, parts, d));
  ASSERT_EQ(parts.tiles.size(), 1u);
  EXPECT_EQ(parts.tiles[0].column, 0u);
  EXPECT_EQ(parts.tiles[0].row, 0u);
  EXPECT_EQ(parts.tiles[0].first_line, 1u);
  EXPECT_FALSE(parts.has_movement);
}

TEST(AieMlKernel, DirectiveErrors) {
  auto p = make();
  auto d = reject(*p, "  MOV r1, 1\n.tile 0 0\n  DONE\n.tile 4 0\n  DONE\n.tile 0\n.tile 0 0\n");
  const std::string all = joined(d);
  EXPECT_NE(all.find("k.s:1:1: error: code before the first '.tile' directive"), std::string::npos) << all;
  EXPECT_NE(all.find("k.s:4:1: error: tile (4, 0) is outside the 4 x 4 compute grid"), std::string::npos) << all;
  EXPECT_NE(all.find("k.s:6:1: error: expected '.tile <column> <row>'"), std::string::npos) << all;
  EXPECT_NE(all.find("k.s:7:1: error: tile (0, 0) already has a program"), std::string::npos) << all;
}

TEST(AieMlKernel, AssemblerDiagnosticsCarryFileLines) {
  auto p = make();
  const auto d = reject(*p, ".tile 0 0\n  DONE\n.tile 1 0\n  MOV r1, 1\n  FROB r1\n");
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].line, 5u) << joined(d);
}

const char* kMovementHead = "  DONE\n.movement\n";  // movement YAML starts on line 3

std::string movement_errors(const std::string& yaml) {
  auto p = make();
  return joined(reject(*p, kMovementHead + yaml));
}

TEST(AieMlMovement, ParsesEveryPart) {
  const std::string yaml = R"(locks:
  - {tile: mem1, id: 63, init: 5}
buffers:
  - {name: a, tile: [1, 3], address: 64, size: 128}
  - {name: b, tile: mem1, address: 0, size: 256}
bds:
  - {name: x, tile: [1, 3], channel: mm2s1, buffer: a, offset: 16, length: 64, dims: [[4, 8], [4, 1]],
     acquire: {lock: 2, value: 1, mode: eq}, release: {lock: 3, value: -1}}
  - {name: y, tile: mem1, channel: s2mm5, buffer: b, length: 64, next: y}
routes:
  - {from: {tile: [1, 3], port: mm2s1}, to: {tile: mem1, port: s2mm5}}
)";
  MovementSpec m;
  std::vector<isa::Diagnostic> d;
  ASSERT_TRUE(parse_movement(yaml, "k.s", 10, load_aie_config("default"), m, d)) << joined(d);
  ASSERT_EQ(m.locks.size(), 1u);
  EXPECT_EQ(m.locks[0].tile.name(), "mem1");
  EXPECT_EQ(m.locks[0].value, 5u);
  ASSERT_EQ(m.bds.size(), 2u);
  const BdSpec& x = m.bds[0];
  EXPECT_EQ(x.line, 16u);
  EXPECT_EQ(x.tile.name(), "tile(1,3)");
  EXPECT_TRUE(x.channel.mm2s);
  EXPECT_EQ(x.channel.index, 1u);
  EXPECT_TRUE(x.acquire.equal);
  EXPECT_EQ(x.release.value, -1);
  EXPECT_EQ(m.bds[1].next, 1);
  ASSERT_EQ(m.routes.size(), 1u);
  // tile(1,3) is array row 5, mem1 row 1: 4 hops.
  EXPECT_EQ(m.routes[0].hops(), 4u);
  // 4 x 4 words, inner stride 8, outer stride 1: a transposed walk.
  const auto w = bd_word_offsets(x);
  ASSERT_EQ(w.size(), 16u);
  EXPECT_EQ(w[0], 0);
  EXPECT_EQ(w[1], 8);
  EXPECT_EQ(w[3], 24);
  EXPECT_EQ(w[4], 1);
  EXPECT_EQ(w[15], 27);  // 3 * 8 + 3
}

TEST(AieMlMovement, UnclosedFlowAtTheEndNamesTheLastLine) {
  // yaml-cpp marks this error one line past the text (fuzz_aie_kernel finding); the file
  // has 4 lines and the diagnostic names the last one.
  for (const char* tail : {"", "\n"}) {
    MovementSpec m;
    std::vector<isa::Diagnostic> d;
    EXPECT_FALSE(parse_movement(std::string("bds:\n  - {name: x, dims: [[2, 1]") + tail, "k.s", 3,
                                load_aie_config("default"), m, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].line, 4u) << d[0].format();
    EXPECT_NE(d[0].message.find("data-movement YAML: end of sequence flow not found"), std::string::npos) << d[0].format();
  }
}

TEST(AieMlMovement, ErrorsNameTheFileLine) {
  EXPECT_NE(movement_errors("buffers:\n  - {name: a, tile: [0, 0], address: 65000, size: 1024}\n")
                .find("k.s:4:5: error: buffer 'a' [65000, 66024) exceeds tile(0,0)'s 65536-byte memory"),
            std::string::npos)
      << movement_errors("buffers:\n  - {name: a, tile: [0, 0], address: 65000, size: 1024}\n");
  EXPECT_NE(movement_errors("bds:\n  - {name: x, tile: [0, 0], channel: mm2s2, buffer: a, length: 4}\n")
                .find("k.s:4:38: error: tile(0,0) has no channel 'mm2s2'"),
            std::string::npos)
      << movement_errors("bds:\n  - {name: x, tile: [0, 0], channel: mm2s2, buffer: a, length: 4}\n");
  EXPECT_NE(movement_errors("bds:\n  - {name: x, tile: [0, 0], channel: mm2s0, buffer: nope, length: 4}\n")
                .find("unknown buffer 'nope'"),
            std::string::npos);
  const std::string oob =
      "buffers:\n  - {name: a, tile: [0, 0], address: 0, size: 64}\n"
      "bds:\n  - {name: x, tile: [0, 0], channel: mm2s0, buffer: a, length: 64, offset: 16}\n"
      "routes:\n  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: [0, 1], port: s2mm0}}\n";
  EXPECT_NE(movement_errors(oob).find("k.s:6:5: error: BD 'x' reaches bytes [16, 80) of buffer 'a' (size 64)"),
            std::string::npos)
      << movement_errors(oob);
  const std::string dims =
      "buffers:\n  - {name: a, tile: [0, 0], address: 0, size: 64}\n"
      "bds:\n  - {name: x, tile: [0, 0], channel: mm2s0, buffer: a, length: 16, dims: [[1,1],[1,1],[1,1],[2,1]]}\n";
  EXPECT_NE(movement_errors(dims).find("tile(0,0) DMA addresses at most 3 dimensions, got 4"), std::string::npos)
      << movement_errors(dims);
  const std::string pad =
      "buffers:\n  - {name: a, tile: [0, 0], address: 0, size: 64}\n"
      "bds:\n  - {name: x, tile: [0, 0], channel: mm2s0, buffer: a, length: 16, dims: [{size: 2, stride: 1, pad_after: 2}]}\n";
  EXPECT_NE(movement_errors(pad).find("zero padding is a memory-tile MM2S feature"), std::string::npos);
  const std::string unrouted =
      "buffers:\n  - {name: a, tile: [0, 0], address: 0, size: 64}\n"
      "bds:\n  - {name: x, tile: [0, 0], channel: s2mm1, buffer: a, length: 16}\n";
  EXPECT_NE(movement_errors(unrouted).find("k.s:6:1: error: BD 'x' runs on tile(0,0) s2mm1, which has no route in"),
            std::string::npos)
      << movement_errors(unrouted);
  const std::string two_sources =
      "routes:\n  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: mem0, port: s2mm0}}\n"
      "  - {from: {tile: [0, 1], port: mm2s0}, to: {tile: mem0, port: s2mm0}}\n";
  EXPECT_NE(movement_errors(two_sources).find("k.s:5:5: error: mem0.s2mm0 already has a route into it"),
            std::string::npos)
      << movement_errors(two_sources);
  const std::string never =
      "buffers:\n  - {name: a, tile: mem0, address: 0, size: 64}\n"
      "bds:\n  - {name: x, tile: mem0, channel: mm2s0, buffer: a, length: 16}\n"
      "  - {name: y, tile: mem0, channel: mm2s0, buffer: a, length: 16}\n"
      "routes:\n  - {from: {tile: mem0, port: mm2s0}, to: {tile: [0, 0], port: s2mm0}}\n";
  EXPECT_NE(movement_errors(never).find("k.s:7:1: error: BD 'y' is never started"), std::string::npos)
      << movement_errors(never);
  EXPECT_NE(movement_errors("locks: [{tile: mem0, id: 64}]\n").find("'id' = 64 is out of range [0, 63]"), std::string::npos);
  EXPECT_NE(movement_errors("lock: []\n").find("k.s:3:1: error: unknown key 'lock'"), std::string::npos)
      << movement_errors("lock: []\n");
  EXPECT_NE(movement_errors("bds: [\n").find("k.s:"), std::string::npos);
}

TEST(AieMlMovement, DefaultMovementAppliesWithoutASection) {
  auto p = make();
  const std::string movement =
      "buffers:\n  - {name: a, tile: [0, 0], address: 0, size: 16}\n  - {name: b, tile: [0, 1], address: 0, size: 16}\n"
      "bds:\n  - {name: s, tile: [0, 0], channel: mm2s0, buffer: a, length: 16}\n"
      "  - {name: d, tile: [0, 1], channel: s2mm0, buffer: b, length: 16}\n"
      "routes:\n  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: [0, 1], port: s2mm0}}\n";
  load(*p, "  DONE\n", movement);
  p->write_memory("tile_0_0", 0, pattern(16, 1));
  const RunResult r = run(*p);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(p->read_memory("tile_0_1", 0, 16), pattern(16, 1));
  // setup 4 + 4 words + 1 hop.
  EXPECT_EQ(r.cycles, 9u);
}

}  // namespace
}  // namespace tlmcraft::aie_ml::test
