// AIE-ML bf16 matrix-multiply kernel generator (see matmul_kernel.h for the data path).
// Split-precision options (MatmulPlan::a_parts, b_parts, c_lo_offset): parts stack along K
// (the tiles see depth K' = P K; core_program's loop is unchanged), or, for two A parts
// times one B, B is streamed once and core_program_shared_b multiplies each B block by
// both parts; a split output stores hi = bf16(acc) and lo = bf16(acc - hi) per 8-column
// step into a second C buffer that travels its own memory-tile and shim channels.
// Plans without these options generate the same text as before they existed.
#include "platforms/aie_ml/pack/baselines/matmul_kernel.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "platforms/aie_ml/pack/baselines/block_loop.h"
#include "platforms/aie_ml/pack/baselines/movement_text.h"

namespace tlmcraft::tasks::aie_ml {
namespace {

constexpr int64_t kNt = 8;            // output columns per tile step: two 4x4 fp32 accumulators
constexpr int64_t kMrMax = 32;        // A rows per strip: each B element is used by Mr rows
constexpr int64_t kTileABytes = 0x8000;  // A strips: two of <= 16 KB or one of <= 32 KB
constexpr int64_t kBRowColumns = 32;  // B columns per DDR row read (64 bytes: a 16-byte
                                      // row per read would waste most of each DRAM burst)

// Compute-tile data memory map (64 KB, 8 KB banks: A, B, C and bias in different banks
// so the two loads of a bundle never share a bank).
constexpr uint32_t kTileA[2] = {0x0000, 0x4000};  // Mr x K (K') bf16: 2 x 16 KB or 1 x 32 KB
constexpr uint32_t kTileB[2] = {0x8000, 0xA000};  // K x Nt bf16 <= 8 KB each
constexpr uint32_t kTileC[2] = {0xC000, 0xC400};  // Mr x Nt bf16 <= 1 KB each
constexpr uint32_t kTileCLo[2] = {0xC800, 0xCC00};  // split output: the low parts
constexpr uint32_t kTileBias = 0xE000;            // bias as 4x4 blocks: 8 N bytes <= 8 KB
constexpr uint32_t kCoreOwn = 0x70000;            // the core's window onto its own memory

// Memory-tile map (512 KB): two A strips per tile row (mem0 only), bias, B, C.
constexpr uint32_t kMemA = 0x00000, kMemAStride = 0x8000;  // 2 x 32 KB
constexpr uint32_t kMemBias = 0x40000;                     // N bf16
constexpr uint32_t kMemB[2] = {0x50000, 0x60000};          // K x 32 bf16 <= 64 KB each
constexpr uint32_t kMemC[2] = {0x70000, 0x71000};          // rows x Mr x Nt <= 4 KB each
constexpr uint32_t kMemCLo[2] = {0x72000, 0x73000};        // split output: the low parts

// Compute-tile locks (the core sees them as 48 + id).
enum TileLock : uint32_t { kAFull = 0, kAEmpty = 1, kBFull = 2, kBEmpty = 3, kCFull = 4, kCEmpty = 5, kBiasReady = 6 };
// Memory-tile locks: A ping/pong (of the tile row with the memory tile's index), bias,
// B ping/pong, the C producer chain (8 + r) and the C output.
// Split output: the high chunk's hand-over to the low chunk's channel (kMCLoFull).
enum MemLock : uint32_t { kMAFull = 0, kMAEmpty = 1, kMBias = 2, kMBEmpty = 3, kMBFull = 4, kMCChain = 8, kMCFull = 12, kMCLoFull = 13 };
// Memory-tile channels (kMemCLoOut: the low parts of a split output, to shim s2mm1).
constexpr uint32_t kMemAIn = 5, kMemAOut = 0, kMemBIn = 0, kMemBOut = 4, kMemCOut = 5, kMemCLoOut = 3;

// K-stacked parts (MatmulPlan::a_parts): the tiles compute one product of depth
// K' = P K, A' = [A_0 | A_1 | ...] and B' = [B_0; B_1; ...]; P = 1 without parts.
int64_t part_count(const MatmulPlan& p) { return p.a_parts.empty() ? 1 : int64_t(p.a_parts.size()); }
int64_t stacked_k(const MatmulPlan& p) { return part_count(p) * p.K; }
bool split_output(const MatmulPlan& p) { return p.c_lo_offset != 0; }

struct Geometry {
  int64_t mr = 0;      // A rows per tile strip
  uint32_t a_buffers = 2;  // tile A strip buffers: ping/pong when a strip fits 16 KB
  int64_t super = 0;   // rows per super-strip: one strip for each tile row
  int64_t strips = 0;  // super-strips (each tile computes one strip of each)
  int64_t ncol = 0;    // columns per array column
  int64_t steps = 0;   // tile steps (Nt columns) per strip
  int64_t wb = 0;      // B columns per memory-tile buffer
  int64_t sub = 0;     // tile steps per memory-tile B buffer
  int64_t bsteps = 0;  // memory-tile B buffers per strip
};

Geometry geometry(const MatmulPlan& p) {
  Geometry g;
  // The most rows (a multiple of 4 dividing M / rows) whose strip fits the tile's A space:
  // B, streamed once per strip, dominates the traffic, so taller strips beat double-buffering A.
  g.mr = p.rows > 0 ? std::min<int64_t>(kMrMax, p.M / p.rows) / 4 * 4 : 0;
  const int64_t kk = stacked_k(p);
  while (g.mr > 4 && ((p.M / p.rows) % g.mr != 0 || g.mr * kk * 2 > kTileABytes)) g.mr -= 4;
  g.a_buffers = g.mr * kk * 2 <= kTileABytes / 2 ? 2 : 1;
  g.super = g.mr * p.rows;
  g.strips = g.super > 0 ? p.batches * p.M / g.super : 0;
  g.ncol = p.columns > 0 ? p.N / p.columns : 0;
  g.steps = g.ncol / kNt;
  g.wb = kBRowColumns;
  g.sub = g.wb / kNt;
  g.bsteps = g.ncol / g.wb;
  return g;
}

// Two A parts times one B (a split activation times a bf16 weight: b_parts {W, W}) with
// an even number of row groups per strip: the tiles get B once (depth K) and A as
// [row group][k block][part][4 rows][8 bf16], and the core multiplies each B block by
// both parts of two row groups (core_program_shared_b). Otherwise B' = [B; B].
bool shared_b(const MatmulPlan& p) {
  return p.a_parts.size() == 2 && p.b_parts[0] == p.b_parts[1] && geometry(p).mr % 8 == 0;
}
// Rows of B the tiles see per step.
int64_t b_depth(const MatmulPlan& p) { return shared_b(p) ? p.K : stacked_k(p); }

// The group's two 4x4 fp32 blocks (bm0, bm1) stored at [p2] as bf16, or, split, as
// their high parts at [p2] and low parts at [p3].
void store_result(std::ostringstream& s, bool split) {
  if (split) {
    // hi = bf16(acc), lo = bf16(acc - hi): fp_steps.h split() on both accumulators,
    // interleaved so each waits less on the other's conversions (latency 4).
    KernelText t;
    t.op("VCONV.BF16.FP32 w12, bm0", "high parts");
    t.op("VCONV.BF16.FP32 w14, bm1");
    t.op("VCONV.FP32.BF16 bm2, w12 ;; VST w12, [p2], #32");
    t.op("VCONV.FP32.BF16 bm3, w14 ;; VST w14, [p2], #32");
    t.op("VSUB.F bm2, bm0, bm2", "what the high parts miss (exact in fp32)");
    t.op("VSUB.F bm3, bm1, bm3");
    t.op("VCONV.BF16.FP32 w13, bm2", "low parts");
    t.op("VCONV.BF16.FP32 w15, bm3");
    t.op("VST w13, [p3], #32");
    t.op("VST w15, [p3], #32");
    s << t.str();
  } else {
    s << "  VST.CONV.BF16.FP32 bm0, [p2], #32\n";
    s << "  VST.CONV.BF16.FP32 bm1, [p2], #32\n";
  }
}

// The program of tile (c, r): per strip of Mr rows, per step, per group of 4 rows, the
// two 4x4 blocks of its Nt columns accumulated over K in a zero-overhead loop. Which rows
// and columns those are is the data movement's business; the tiles' programs differ only
// in where their bias starts.
std::string core_program(const MatmulPlan& p, const Geometry& g, uint32_t c, uint32_t r) {
  const int64_t kb = stacked_k(p) / 8, groups = g.mr / 4;
  const bool split = split_output(p);
  std::ostringstream s;
  s << ".tile " << c << " " << r << "\n";
  s << "  MOVXM r20, " << hex(kCoreOwn + kTileA[0]) << "   ; current A, B, C buffers and their ping^pong toggles\n";
  s << "  MOVXM r21, " << hex(kCoreOwn + kTileB[0]) << "\n";
  s << "  MOVXM r22, " << hex(kCoreOwn + kTileC[0]) << "\n";
  s << "  MOVXM r23, " << hex(g.a_buffers == 2 ? kTileA[0] ^ kTileA[1] : 0) << "\n";
  s << "  MOVXM r24, " << hex(kTileB[0] ^ kTileB[1]) << "\n";
  s << "  MOVXM r25, " << hex(kTileC[0] ^ kTileC[1]) << "\n";
  if (split) s << "  MOVXM r28, " << hex(kCoreOwn + kTileCLo[0]) << "   ; current C low-part buffer (toggles with r25)\n";
  s << "  MOVXM ls, kloop\n  MOVXM le, kend\n";
  s << "  MOVXM r13, 128   ; A and B bytes per two k blocks\n  MOVXM r14, 256\n";
  s << "  MOVXM r10, " << g.strips - 1 << "   ; strips left\n";
  if (p.has_bias) {
    // Bias blocks of this tile's first columns; a step advances by Nt columns (8 bytes each).
    s << "  MOVXM r27, " << kNt * 8 << "\n";
    s << "  ACQ " << 48 + kBiasReady << ", 1   ; the expanded bias has arrived\n";
  }
  s << "strip:\n";
  s << "  ACQ " << 48 + kAFull << ", 1\n";
  s << "  MOVXM r11, " << g.steps - 1 << "   ; steps left\n";
  if (p.has_bias)
    s << "  MOVXM r26, " << hex(kCoreOwn + kTileBias + uint64_t(c) * g.ncol * 8) << "\n";
  s << "step:\n";
  s << "  ACQ " << 48 + kBFull << ", 1\n";
  s << "  ACQ " << 48 + kCEmpty << ", 1\n";
  s << "  MOV p0, r20\n  MOV r5, r20\n  MOV p2, r22\n";
  if (split) s << "  MOV p3, r28\n";
  s << "  MOVXM r12, " << groups - 1 << "   ; row groups left\n";
  s << "group:\n";
  s << "  MOV p1, r21\n  MOV r6, r21\n";
  if (p.has_bias) {
    s << "  MOV p5, r26\n";
    s << "  VLDA.CONV.FP32.BF16 bm0, [p5], #32   ; accumulators start at the bias rows\n";
    s << "  VLDA.CONV.FP32.BF16 bm1, [p5], #32\n";
  } else {
    s << "  VCLR bm0\n  VCLR bm1\n";
  }
  s << "  VCLR bm2   ; odd k blocks accumulate apart (no wait on the previous VMAC)\n  VCLR bm3\n";
  s << "  MOVXM lc, " << kb / 2 << "\n";
  // Two k blocks per iteration. Loads use offsets and the pointers advance through scalar
  // shadows (r5, r6): a post-modified pointer is a load result (7 cycles), an ADD and a
  // MOV are ready the next cycle.
  s << "kloop:\n";
  s << "  VLDA w0, [p0, #0] ;; VLDB w2, [p1, #0]   ; A 4x8 block k -> x0, B 8x4 blocks -> x1, x2\n";
  s << "  VLDA w1, [p0, #32] ;; VLDB w3, [p1, #32]\n";
  s << "  VLDA w4, [p1, #64] ;; VLDB w5, [p1, #96]\n";
  s << "  VLDA w6, [p0, #64] ;; VLDB w8, [p1, #128]   ; block k + 8 -> x3, x4, x5\n";
  s << "  VLDA w7, [p0, #96] ;; VLDB w9, [p1, #160]\n";
  s << "  VLDA w10, [p1, #192] ;; VLDB w11, [p1, #224]\n";
  s << "  ADD r5, r5, r13 ;; VMAC.BF16 bm0, bm0, x0, x1\n";
  s << "  ADD r6, r6, r14 ;; MOV p0, r5 ;; VMAC.BF16 bm1, bm1, x0, x2\n";
  s << "  MOV p1, r6 ;; VMAC.BF16 bm2, bm2, x3, x4\n";
  s << "kend:\n";
  s << "  VMAC.BF16 bm3, bm3, x3, x5\n";
  s << "  VADD.F bm0, bm0, bm2\n";
  s << "  VADD.F bm1, bm1, bm3\n";
  store_result(s, split);
  s << "  JNZD r12, r12, group\n";
  s << "  REL " << 48 + kCFull << ", 1\n";
  s << "  REL " << 48 + kBEmpty << ", 1\n";
  s << "  XOR r21, r21, r24\n  XOR r22, r22, r25\n";
  if (split) s << "  XOR r28, r28, r25\n";
  if (p.has_bias) s << "  ADD r26, r26, r27\n";
  s << "  JNZD r11, r11, step\n";
  s << "  REL " << 48 + kAEmpty << ", 1\n";
  s << "  XOR r20, r20, r23\n";
  s << "  JNZD r10, r10, strip\n";
  s << "  DONE\n";
  return s.str();
}

// The program of tile (c, r) for shared_b plans. Row groups go in pairs (g, g + G/2) of
// the strip's G groups (pointers p0/p4 for A, p2/p5 C, p3/p6 C low): per k block, each
// 8x8 B block (its 8x4 halves B0, B1) multiplies the hi and lo 4x8 A blocks of both
// groups, eight VMACs into bm0..bm3 (group g: hi B0, hi B1, lo B0, lo B1) and bm4..bm7
// (group g + G/2), so an accumulator is reused every 8 bundles (VMAC latency 6).
// Software-pipelined over two register sets (even / odd k blocks, 6 x registers each:
// A hi, A lo of both groups, B0, B1): a set is reloaded with the k block two ahead while
// the other set multiplies, one A load per bundle and a B load in four of them (A and B
// live in different banks: no conflicts), each register reloaded no earlier than the
// bundle of its last read (bundles read the old registers) and at least 7 bundles (load
// latency) before its next read. 16 bundles, 16 VMACs per two k blocks; the last
// iteration's loads read past the group (harmless reads inside the tile's memory).
std::string core_program_shared_b(const MatmulPlan& p, const Geometry& g, uint32_t c, uint32_t r) {
  const int64_t pairs = p.K / 16, groups = g.mr / 4, half_groups = groups / 2;
  const int64_t a_group = 4 * stacked_k(p) * 2, c_group = kNt * 8;  // bytes per row group
  const bool split = split_output(p);
  KernelText t;
  t.op("MOVXM r20, " + hex(kCoreOwn + kTileA[0]), "current A, B, C buffers and their ping^pong toggles");
  t.op("MOVXM r21, " + hex(kCoreOwn + kTileB[0]));
  t.op("MOVXM r22, " + hex(kCoreOwn + kTileC[0]));
  t.op("MOVXM r23, " + hex(g.a_buffers == 2 ? kTileA[0] ^ kTileA[1] : 0));
  t.op("MOVXM r24, " + hex(kTileB[0] ^ kTileB[1]));
  t.op("MOVXM r25, " + hex(kTileC[0] ^ kTileC[1]));
  if (split) t.op("MOVXM r28, " + hex(kCoreOwn + kTileCLo[0]), "current C low-part buffer (toggles with r25)");
  t.op("MOVXM r13, " + std::to_string(half_groups * a_group), "A and C bytes to the second group of a pair");
  t.op("MOVXM r14, " + std::to_string(half_groups * c_group));
  t.op("MOVXM ls, kloop");
  t.op("MOVXM le, kend");
  t.op("MOVXM r10, " + std::to_string(g.strips - 1), "strips left");
  t.label("strip");
  t.op("ACQ " + std::to_string(48 + kAFull) + ", 1");
  t.op("MOVXM r11, " + std::to_string(g.steps - 1), "steps left");
  t.label("step");
  t.op("ACQ " + std::to_string(48 + kBFull) + ", 1");
  t.op("ACQ " + std::to_string(48 + kCEmpty) + ", 1");
  t.op("ADD r7, r20, r13 ;; MOV p0, r20");
  t.op("ADD r8, r22, r14 ;; MOV p4, r7");
  t.op("MOV p2, r22");
  t.op("MOV p5, r8");
  if (split) {
    t.op("ADD r9, r28, r14 ;; MOV p3, r28");
    t.op("MOV p6, r9");
  }
  t.op("MOVXM r12, " + std::to_string(half_groups - 1), "group pairs left");
  // Set s registers: x(6s + i), i = 0 A hi, 1 A lo (group g), 2 A hi, 3 A lo (g + G/2),
  // 4 B0, 5 B1; each x is w(12s + 2i) (first 32 bytes) and w(12s + 2i + 1).
  const auto xr = [](int set, int i) { return "x" + std::to_string(6 * set + i); };
  const auto wr = [](int set, int i, int h) { return "w" + std::to_string(12 * set + 2 * i + h); };
  const auto vmac = [&](int set, int j) {  // j = 0..7: group j / 4, part (j / 2) % 2, B half j % 2
    const int a = 2 * (j / 4) + (j / 2) % 2, b = 4 + j % 2;
    return "VMAC.BF16 bm" + std::to_string(j) + ", bm" + std::to_string(j) + ", " + xr(set, a) + ", " + xr(set, b);
  };
  // A register i's data: group pointer p0 (i < 2) or p4, part i % 2 at 64 bytes; B half
  // i - 4 at 64 bytes from p1. `block` counts k blocks from the pointer's base.
  struct Load {
    int i, h;  // register (0..5) and its 32-byte half
  };
  const auto target = [](const Load& l, int64_t block) {
    return block * 128 + (l.i < 4 ? (l.i % 2) * 64 : (l.i - 4) * 64) + 32 * l.h;
  };
  const auto ptr = [](const Load& l) { return l.i < 2 ? "p0" : l.i < 4 ? "p4" : "p1"; };
  // Reload positions of a set, counted from its first VMAC (0..7; 8, 9 fall in the next
  // half-iteration's first bundles): A hi g at 1, 2, A lo g at 3, 4, A hi g' at 5, 6,
  // A lo g' at 7, 8; B0 at 6, 7, B1 at 8, 9. Each is at or after the register's last read
  // (A hi g: 1, A lo g: 3, A hi g': 5, A lo g': 7, B0: 6, B1: 7) and 7+ before its next
  // read 16 later (first reads 0, 2, 4, 6, 0, 1).
  const std::vector<std::pair<int, Load>> reload = {{1, {0, 0}}, {2, {0, 1}}, {3, {1, 0}}, {4, {1, 1}},
                                                    {5, {2, 0}}, {6, {2, 1}}, {7, {3, 0}}, {8, {3, 1}},
                                                    {6, {4, 0}}, {7, {4, 1}}, {8, {5, 0}}, {9, {5, 1}}};
  // Prologue: k block 0 into set 0 and block 1 into set 1 (except the loads the first
  // iteration issues itself: set 1's positions 8, 9), accumulators cleared alongside.
  // Two loads per bundle, never two from one bank: set 0's group-g A with B, then group-g'
  // A with set 1's B or group-g A (half a strip away: another bank when the strip's half
  // is at least a bank, 8 KB).
  const auto pro_load = [&](int set, const Load& l) {
    return wr(set, l.i, l.h) + ", [" + ptr(l) + ", #" + std::to_string(target(l, set)) + "]";
  };
  const std::vector<std::pair<std::pair<int, Load>, std::pair<int, Load>>> pro = {
      {{0, {0, 0}}, {0, {4, 0}}}, {{0, {0, 1}}, {0, {4, 1}}}, {{0, {1, 0}}, {0, {5, 0}}}, {{0, {1, 1}}, {0, {5, 1}}},
      {{0, {2, 0}}, {1, {4, 0}}}, {{0, {2, 1}}, {1, {4, 1}}}, {{0, {3, 0}}, {1, {0, 0}}}, {{0, {3, 1}}, {1, {0, 1}}},
      {{1, {2, 0}}, {1, {1, 0}}}, {{1, {2, 1}}, {1, {1, 1}}}, {{1, {3, 0}}, {-1, {0, 0}}}};
  const auto pro_bundle = [&](size_t i, bool lda_free) {  // pro[i]'s one or two loads
    const auto& [first, second] = pro[i];
    std::string b = (lda_free ? "VLDA " : "VLDB ") + pro_load(first.first, first.second);
    if (second.first >= 0) b += " ;; VLDB " + pro_load(second.first, second.second);
    return b;
  };
  t.op("MOV p1, r21");
  for (size_t i = 0; i < pro.size(); ++i)
    t.op(pro_bundle(i, true) + (i < 8 ? " ;; VCLR bm" + std::to_string(i) : "") +
             (i == 0 ? " ;; MOVXM lc, " + std::to_string(pairs) : ""),
         i == 0 ? "k blocks 0 and 1; " + std::to_string(pairs) + " iterations of two k blocks" : "");
  // The loop body: bundle q has set (q / 8)'s VMAC q % 8 and the reloads due then; the
  // pointers step 256 bytes (two k blocks) at bundles 0 (p0), 1 (p4), 2 (p1) through the
  // store unit's AGU, so loads after the step see base + 256.
  std::vector<std::string> body(16);
  const int step_at[3] = {0, 1, 2};  // p0, p4, p1
  for (int q = 0; q < 16; ++q) {
    std::vector<std::string> ops;
    for (int set = 0; set < 2; ++set)
      for (const auto& [pos, l] : reload) {
        const int at = (8 * set + pos) % 16;
        if (at != q) continue;
        // Set 0 reloads k block 2i + 2; set 1 reloads 2i + 3 at positions < 8 and, in the
        // next iteration's first bundles (q < 8), the current iteration's block 2i + 1.
        const int64_t block = set == 0 ? 2 : (8 + pos < 16 ? 3 : 1);
        const int pi = l.i < 2 ? 0 : l.i < 4 ? 1 : 2;
        const int64_t off = target(l, block) - (q > step_at[pi] ? 256 : 0);
        ops.push_back(std::string(l.i < 4 ? "VLDA " : "VLDB ") + wr(set, l.i, l.h) + ", [" + ptr(l) + ", #" +
                      std::to_string(off) + "]");
      }
    if (q == step_at[0]) ops.push_back("PADDS [p0], #256");
    if (q == step_at[1]) ops.push_back("PADDS [p4], #256");
    if (q == step_at[2]) ops.push_back("PADDS [p1], #256");
    ops.push_back(vmac(q / 8, q % 8));
    std::string b;
    for (const auto& o : ops) b += (b.empty() ? "" : " ;; ") + o;
    body[q] = b;
  }
  t.label("kloop");
  for (int q = 0; q < 15; ++q) t.op(body[q]);
  t.label("kend");
  t.op(body[15]);
  // The pair's results, overlapped with the next pair's prologue loads (for the step's
  // last pair they read the strip's next rows or past it: harmless, unused). Per group:
  // acc = (hi B) + (lo B) partial sums, stored as bf16 (post-incremented C pointers); split,
  // the high part is reloaded as fp32 (VLDA.CONV, after the store's bundle) and
  // lo = bf16(acc - hi) stored too: fp_steps.h split() with memory instead of vector
  // registers, which hold the next pair's A and B. Accumulators are cleared after their
  // last read. Bundle numbers are chosen for the latencies (VADD 3, load 7); the platform
  // interlocks anyway.
  std::vector<std::vector<std::string>> m;
  const auto at = [&](size_t c, const std::string& op) {
    if (m.size() <= c) m.resize(c + 1);
    m[c].push_back(op);
  };
  at(0, "VADD.F bm0, bm0, bm2");
  at(0, "MOV p1, r21");
  at(1, "VADD.F bm1, bm1, bm3");
  at(1, "MOVXM lc, " + std::to_string(pairs));
  at(2, "VCLR bm2");
  at(3, "VCLR bm3");
  at(3, "VST.CONV.BF16.FP32 bm0, [p2], #32");
  at(4, "VADD.F bm4, bm4, bm6");
  at(4, "VST.CONV.BF16.FP32 bm1, [p2], #32");
  at(5, "VADD.F bm5, bm5, bm7");
  at(6, "VCLR bm6");
  at(7, "VCLR bm7");
  at(7, "VST.CONV.BF16.FP32 bm4, [p5], #32");
  at(8, "VST.CONV.BF16.FP32 bm5, [p5], #32");
  if (split) {
    at(5, "VLDA.CONV.FP32.BF16 bm8, [p2, #-64]");
    at(6, "VLDA.CONV.FP32.BF16 bm9, [p2, #-32]");
    at(9, "VLDA.CONV.FP32.BF16 bm10, [p5, #-64]");
    at(10, "VLDA.CONV.FP32.BF16 bm11, [p5, #-32]");
    at(11, "VSUB.F bm8, bm0, bm8");
    at(12, "VSUB.F bm9, bm1, bm9");
    at(13, "VCLR bm0");
    at(14, "VCLR bm1");
    at(14, "VST.CONV.BF16.FP32 bm8, [p3], #32");
    at(15, "VSUB.F bm10, bm4, bm10");
    at(15, "VST.CONV.BF16.FP32 bm9, [p3], #32");
    at(16, "VSUB.F bm11, bm5, bm11");
    at(17, "VCLR bm4");
    at(18, "VCLR bm5");
    at(18, "VST.CONV.BF16.FP32 bm10, [p6], #32");
    at(19, "VST.CONV.BF16.FP32 bm11, [p6], #32");
    at(19, "JNZD r12, r12, kloop");
  } else {
    at(8, "VCLR bm0");
    at(9, "VCLR bm1");
    at(10, "VCLR bm4");
    at(11, "VCLR bm5");
    at(11, "JNZD r12, r12, kloop");
  }
  // The prologue's loads: pairs into bundles with both load units free (from bundle 1,
  // after p1's reset), the single last load into any free load unit.
  size_t next = 0;
  for (size_t c = 1; c < m.size() && next < pro.size(); ++c) {
    bool lda_free = true;
    for (const auto& op : m[c]) lda_free = lda_free && op.rfind("VLDA", 0) != 0;
    if (lda_free || pro[next].second.first < 0) m[c].insert(m[c].begin(), pro_bundle(next++, lda_free));
  }
  if (next != pro.size()) throw std::logic_error("matmul kernel: the prologue loads do not fit the pair's tail");
  for (size_t c = 0; c < m.size(); ++c) {
    std::string b;
    for (const auto& op : m[c]) b += (b.empty() ? "" : " ;; ") + op;
    t.op(b, c == 0 ? "group results (hi + lo products), the next pair's k blocks 0 and 1" : "");
  }
  t.op("REL " + std::to_string(48 + kCFull) + ", 1");
  t.op("REL " + std::to_string(48 + kBEmpty) + ", 1");
  t.op("XOR r21, r21, r24");
  t.op("XOR r22, r22, r25");
  if (split) t.op("XOR r28, r28, r25");
  t.op("JNZD r11, r11, step");
  t.op("REL " + std::to_string(48 + kAEmpty) + ", 1");
  t.op("XOR r20, r20, r23");
  t.op("JNZD r10, r10, strip");
  t.op("DONE");
  return ".tile " + std::to_string(c) + " " + std::to_string(r) + "\n" + t.str();
}

}  // namespace

std::string matmul_plan_problem(const MatmulPlan& p) {
  const auto why = [&](const std::string& s) {
    return "matmul kernel (b=" + std::to_string(p.batches) + ", M=" + std::to_string(p.M) + ", K=" +
           std::to_string(p.K) + ", N=" + std::to_string(p.N) +
           (p.a_parts.empty() ? "" : ", parts=" + std::to_string(p.a_parts.size())) + ", " +
           std::to_string(p.columns) + "x" + std::to_string(p.rows) + " tiles): " + s;
  };
  if (p.batches < 1 || p.M < 1 || p.K < 1 || p.N < 1) return why("every dimension must be positive");
  if (p.columns < 1 || p.columns > 4 || p.rows < 1 || p.rows > 4) return why("tiles are 1..4 columns x 1..4 rows");
  if (p.a_parts.size() != p.b_parts.size())
    return why("a_parts and b_parts must have the same number of parts (got " + std::to_string(p.a_parts.size()) +
               " and " + std::to_string(p.b_parts.size()) + ")");
  if (!p.a_parts.empty() && p.batches != 1) return why("K-stacked parts need batches = 1");
  if (!p.a_parts.empty() && p.has_bias) return why("K-stacked parts take no bias");
  if (split_output(p) || !p.a_parts.empty()) {
    // The outputs are written while the inputs are still being read: no overlaps.
    const uint64_t c_bytes = uint64_t(p.batches * p.M * p.N) * 2;
    const auto overlap = [](uint64_t a, uint64_t an, uint64_t b, uint64_t bn) { return a < b + bn && b < a + an; };
    if (split_output(p) && overlap(p.c_lo_offset, c_bytes, p.c_offset, c_bytes))
      return why("the low-part output (c_lo_offset) overlaps C");
    for (size_t q = 0; q < p.a_parts.size(); ++q)
      for (const auto& [at, name] : {std::pair{p.c_offset, "C"}, std::pair{p.c_lo_offset, "the low-part output"}})
        if ((at == p.c_offset || split_output(p)) &&
            (overlap(at, c_bytes, p.a_parts[q], uint64_t(p.M * p.K) * 2) ||
             overlap(at, c_bytes, p.b_parts[q], uint64_t(p.K * p.N) * 2)))
          return why(std::string(name) + " overlaps input part " + std::to_string(q) + " (A or B)");
  }
  const Geometry g = geometry(p);
  if (g.mr < 4 || g.mr % 4 != 0 || p.M % g.super != 0)
    return why("M must be a multiple of 4 x " + std::to_string(p.rows) +
               " tile rows and of the strip (16 rows per tile row at most)");
  if (p.K % 16 != 0) return why("K must be a multiple of 16");
  if (p.N % (int64_t(p.columns) * g.wb) != 0)
    return why("N must be a multiple of " + std::to_string(int64_t(p.columns) * g.wb) + " (" +
               std::to_string(g.wb) + " B columns per DDR row read and array column)");
  // With parts the tiles see depth K' = P K.
  const int64_t kk = stacked_k(p);
  const std::string kname = p.a_parts.empty() ? "K" : "K'",
                    kdef = p.a_parts.empty() ? "" : ", K' = " + std::to_string(part_count(p)) + " x K = " + std::to_string(kk);
  if (g.mr * kk * 2 > kTileABytes)
    return why("an A strip (" + std::to_string(g.mr) + " x " + kname + " bf16" + kdef + ") exceeds 32 KB");
  // Shared B (two A parts times one B): B keeps depth K.
  const int64_t kb = b_depth(p);
  const std::string bname = shared_b(p) ? "K" : kname, bdef = shared_b(p) ? "" : kdef;
  if (kb * kNt * 2 > 0x2000) return why("a B step (" + bname + " x 8 bf16" + bdef + ") exceeds 8 KB");
  if (kb * g.wb * 2 > 0x10000) return why("a memory-tile B buffer (" + bname + " x 32 bf16" + bdef + ") exceeds 64 KB");
  if (p.has_bias && p.N * 8 > 0x2000) return why("the expanded bias (8 N bytes) exceeds 8 KB");
  if (p.batches * p.M * p.K * 2 > (64ll << 20)) return why("A exceeds one 64 MiB BD");
  return "";
}

std::string matmul_kernel(const MatmulPlan& p) {
  if (const std::string problem = matmul_plan_problem(p); !problem.empty()) throw std::invalid_argument(problem);
  const Geometry g = geometry(p);
  // Tiles and memory tiles see K' = P K (P = 1 without parts); DDR holds the P parts apart.
  const int64_t kk = stacked_k(p), nparts = part_count(p);
  const bool stacked = !p.a_parts.empty(), split = split_output(p), shared = shared_b(p);
  const int64_t kbd = b_depth(p);  // B rows per step: K' or, shared, K
  const uint64_t a_bytes = uint64_t(p.batches * p.M * p.K) * 2, b_bytes = uint64_t(p.batches * p.K * p.N) * 2,
                 c_bytes = uint64_t(p.batches * p.M * p.N) * 2, bias_bytes = uint64_t(p.N) * 2;
  const uint64_t strip_a = uint64_t(g.mr * kk) * 2, tile_b = uint64_t(kbd * kNt) * 2,
                 mem_b = uint64_t(kbd * g.wb) * 2, tile_c = uint64_t(g.mr * kNt) * 2;
  const int64_t strips_per_batch = p.M / g.super, groups = g.mr / 4;

  std::ostringstream k;
  if (stacked || split) {
    k << "; bf16 matmul C = " << (stacked ? "sum_p A_p B_p" : "A B") << (p.has_bias ? " + bias" : "")
      << (split ? " as bf16 high + low parts" : "") << ": b=" << p.batches << " M=" << p.M << " K=" << p.K;
    if (stacked) k << " x " << nparts << " parts";
    k << " N=" << p.N << " on " << p.columns << " x " << p.rows << " tile(s)\n";
  } else {
    k << "; bf16 matmul C = A B" << (p.has_bias ? " + bias" : "") << ": b=" << p.batches << " M=" << p.M
      << " K=" << p.K << " N=" << p.N << " on " << p.columns << " x " << p.rows << " tile(s)\n";
  }
  for (uint32_t c = 0; c < p.columns; ++c)
    for (uint32_t r = 0; r < p.rows; ++r) k << (shared ? core_program_shared_b(p, g, c, r) : core_program(p, g, c, r));

  std::ostringstream locks, buffers, routes;
  std::vector<Bd> all;
  const auto add = [&](const std::vector<Bd>& chain) { all.insert(all.end(), chain.begin(), chain.end()); };

  // A, per tile row r: shim r reads the row's strips (every rows-th strip of Mr rows,
  // after the bias) into mem r, whose mm2s0 reorders them into 4x8 blocks and broadcasts
  // them along the row. Four shims fill the rows in parallel.
  // With parts, the shim reads each strip group by group of 4 rows, part after part (so
  // the memory tile holds [group][part][4 rows][K]), and the memory tile hands each group
  // on as soon as it has arrived (a lock count per group: the tile's strip fills while
  // DDR still streams, instead of one strip time later), its k blocks of part 0, then of
  // part 1, ... (K' = P K columns), or, shared B, per k block the blocks of every part.
  for (uint32_t r = 0; r < p.rows; ++r) {
    const std::string rs = std::to_string(r), shim = "shim" + rs, mem = "mem" + rs;
    const std::string in_ch = "s2mm" + std::to_string(kMemAIn), out_ch = "mm2s" + std::to_string(kMemAOut);
    std::vector<Bd> reads;
    if (!stacked) {
      buffers << "  - {name: ddr_a" << rs << ", tile: " << shim << ", address: " << p.a_offset << ", size: " << a_bytes
              << "}\n";
      Bd rd{"a_rd" + rs, shim, "mm2s1", "ddr_a" + rs, uint64_t(r) * strip_a, strip_a * uint64_t(g.strips)};
      rd.dims = dims({{int64_t(strip_a / 4), 1}, {g.strips, int64_t(strip_a / 4) * p.rows}});
      reads.push_back(rd);
    } else {
      const uint64_t part_group = uint64_t(4 * p.K) * 2;
      for (int64_t q = 0; q < nparts; ++q)
        buffers << "  - {name: ddr_a" << rs << "_p" << q << ", tile: " << shim << ", address: " << p.a_parts[q]
                << ", size: " << a_bytes << "}\n";
      for (int64_t s = 0; s < g.strips; ++s)
        for (int64_t grp = 0; grp < groups; ++grp)
          for (int64_t q = 0; q < nparts; ++q) {
            Bd rd{"a_rd" + rs + "_" + std::to_string(s) + "_" + std::to_string(grp) + "_p" + std::to_string(q), shim,
                  "mm2s1", "ddr_a" + rs + "_p" + std::to_string(q),
                  uint64_t((s * p.rows + r) * groups + grp) * part_group, part_group};
            if (!reads.empty()) reads.back().next = rd.name;
            reads.push_back(rd);
          }
    }
    std::vector<Bd> in, out;
    for (int i = 0; i < 2; ++i) {
      const std::string is = rs + "_" + std::to_string(i);
      buffers << "  - {name: mem_a" << is << ", tile: " << mem << ", address: " << kMemA + i * kMemAStride
              << ", size: " << strip_a << "}\n";
      if (!stacked) {
        Bd w{"a_in" + is, mem, in_ch, "mem_a" + is, 0, strip_a};
        w.acquire_lock = kMAEmpty;
        w.release_lock = kMAFull;
        in.push_back(w);
      } else {
        // kMAFull counts arrived groups; a buffer is taken (kMAEmpty) by its first group.
        for (int64_t grp = 0; grp < groups; ++grp) {
          Bd w{"a_in" + is + "_" + std::to_string(grp), mem, in_ch, "mem_a" + is, uint64_t(grp * 4 * kk) * 2,
               uint64_t(4 * kk) * 2};
          if (grp == 0) w.acquire_lock = kMAEmpty;
          w.release_lock = kMAFull;
          in.push_back(w);
        }
      }
      if (!stacked) {
        // Tile order [row group][k block][4 rows][8 bf16]: one VMAC operand per 64 bytes.
        Bd o{"a_out" + is, mem, out_ch, "mem_a" + is, 0, strip_a};
        o.dims = dims({{4, 1}, {4, p.K / 2}, {p.K / 8, 4}, {groups, 2 * p.K}});
        o.acquire_lock = kMAFull;
        o.release_lock = kMAEmpty;
        out.push_back(o);
      } else {
        // One BD per row group, each waiting for its group: [k block][4 rows][8 bf16] per
        // part, or, shared B, [k block][part][4 rows][8 bf16] (parts 4 K bf16 apart).
        for (int64_t grp = 0; grp < groups; ++grp) {
          Bd o{"a_out" + is + "_" + std::to_string(grp), mem, out_ch, "mem_a" + is, uint64_t(grp * 4 * kk) * 2,
               uint64_t(4 * kk) * 2};
          o.dims = shared ? dims({{4, 1}, {4, p.K / 2}, {nparts, 2 * p.K}, {p.K / 8, 4}})
                          : dims({{4, 1}, {4, p.K / 2}, {p.K / 8, 4}, {nparts, 2 * p.K}});
          o.acquire_lock = kMAFull;
          if (grp + 1 == groups) o.release_lock = kMAEmpty;
          out.push_back(o);
        }
      }
    }
    in = ring(in);
    out = ring(out);
    locks << "  - {tile: " << mem << ", id: " << kMAEmpty << ", init: 2}\n";
    if (p.has_bias) {
      buffers << "  - {name: ddr_bias" << rs << ", tile: " << shim << ", address: " << p.bias_offset
              << ", size: " << bias_bytes << "}\n";
      buffers << "  - {name: mem_bias" << rs << ", tile: " << mem << ", address: " << kMemBias
              << ", size: " << bias_bytes << "}\n";
      Bd brd{"bias_rd" + rs, shim, "mm2s1", "ddr_bias" + rs, 0, bias_bytes};
      brd.next = reads.front().name;
      Bd bin{"bias_in" + rs, mem, in_ch, "mem_bias" + rs, 0, bias_bytes};
      bin.next = in.front().name;
      bin.release_lock = kMBias;
      // Each 4 bias values repeated for the 4 rows of a 4x4 accumulator block.
      Bd bout{"bias_out" + rs, mem, out_ch, "mem_bias" + rs, 0, bias_bytes * 4};
      bout.dims = dims({{2, 1}, {4, 0}, {p.N / 4, 2}});
      bout.next = out.front().name;
      bout.acquire_lock = kMBias;
      add({brd, bin, bout});
    }
    add(reads);
    add(in);
    add(out);
    routes << "  - {from: {tile: " << shim << ", port: mm2s1}, to: {tile: " << mem << ", port: " << in_ch << "}}\n";
    for (uint32_t c = 0; c < p.columns; ++c)
      routes << "  - {from: {tile: " << mem << ", port: " << out_ch << "}, to: {tile: " << tile(c, r)
             << ", port: s2mm0}}\n";
  }

  for (uint32_t c = 0; c < p.columns; ++c) {
    const std::string shim = "shim" + std::to_string(c), mem = "mem" + std::to_string(c), cs = std::to_string(c);
    const uint64_t colbase = uint64_t(c) * g.ncol;
    // B: one shim BD per super-strip (its batch): the column's slice, 32 columns at a time;
    // the memory tile broadcasts each 8-column step to the column's tiles.
    // With parts: one BD per super-strip, 32-column buffer and part (K rows of B_p), so
    // each memory-tile buffer holds the K' x 32 slice of B' = [B_0; B_1; ...].
    if (!stacked || shared) {
      buffers << "  - {name: ddr_b" << cs << ", tile: " << shim << ", address: " << (shared ? p.b_parts[0] : p.b_offset)
              << ", size: " << b_bytes << "}\n";
    } else {
      for (int64_t q = 0; q < nparts; ++q)
        buffers << "  - {name: ddr_b" << cs << "_p" << q << ", tile: " << shim << ", address: " << p.b_parts[q]
                << ", size: " << b_bytes << "}\n";
    }
    buffers << "  - {name: ddr_c" << cs << ", tile: " << shim << ", address: " << p.c_offset << ", size: " << c_bytes
            << "}\n";
    if (split)
      buffers << "  - {name: ddr_clo" << cs << ", tile: " << shim << ", address: " << p.c_lo_offset
              << ", size: " << c_bytes << "}\n";
    std::vector<Bd> brd, cwr, clwr;
    for (int64_t s = 0; s < g.strips; ++s) {
      const std::string ss = cs + "_" + std::to_string(s), nx = cs + "_" + std::to_string(s + 1);
      const int64_t batch = s / strips_per_batch;
      if (!stacked || shared) {
        Bd b{"b_rd" + ss, shim, "mm2s0", "ddr_b" + cs, uint64_t(batch * p.K * p.N + int64_t(colbase)) * 2,
             uint64_t(p.K * g.ncol) * 2};
        b.dims = dims({{g.wb / 2, 1}, {p.K, p.N / 2}, {g.bsteps, g.wb / 2}});
        if (s + 1 < g.strips) b.next = "b_rd" + nx;
        brd.push_back(b);
      } else {
        for (int64_t j = 0; j < g.bsteps; ++j)
          for (int64_t q = 0; q < nparts; ++q) {
            Bd b{"b_rd" + ss + "_" + std::to_string(j) + "_p" + std::to_string(q), shim, "mm2s0",
                 "ddr_b" + cs + "_p" + std::to_string(q), (colbase + uint64_t(j * g.wb)) * 2, uint64_t(p.K * g.wb) * 2};
            b.dims = dims({{g.wb / 2, 1}, {p.K, p.N / 2}});
            if (!brd.empty()) brd.back().next = b.name;
            brd.push_back(b);
          }
      }
      // C: per step, the super-strip's rows x Nt columns (the low parts alike, shim s2mm1).
      Bd w{"c_wr" + ss, shim, "s2mm0", "ddr_c" + cs, uint64_t(s * g.super * p.N + int64_t(colbase)) * 2,
           uint64_t(g.super * g.ncol) * 2};
      w.dims = dims({{kNt / 2, 1}, {g.super, p.N / 2}, {g.steps, kNt / 2}});
      if (s + 1 < g.strips) w.next = "c_wr" + nx;
      cwr.push_back(w);
      if (split) {
        Bd l = w;
        l.name = "clo_wr" + ss;
        l.channel = "s2mm1";
        l.buffer = "ddr_clo" + cs;
        if (s + 1 < g.strips) l.next = "clo_wr" + nx;
        clwr.push_back(l);
      }
    }
    add(brd);
    add(cwr);
    add(clwr);
    routes << "  - {from: {tile: " << shim << ", port: mm2s0}, to: {tile: " << mem << ", port: s2mm" << kMemBIn
           << "}}\n";
    routes << "  - {from: {tile: " << mem << ", port: mm2s" << kMemCOut << "}, to: {tile: " << shim
           << ", port: s2mm0}}\n";
    if (split)
      routes << "  - {from: {tile: " << mem << ", port: mm2s" << kMemCLoOut << "}, to: {tile: " << shim
             << ", port: s2mm1}}\n";
    for (uint32_t r = 0; r < p.rows; ++r)
      routes << "  - {from: {tile: " << mem << ", port: mm2s" << kMemBOut << "}, to: {tile: " << tile(c, r)
             << ", port: s2mm1}}\n";

    locks << "  - {tile: " << mem << ", id: " << kMBEmpty << ", init: 2}\n";
    locks << "  - {tile: " << mem << ", id: " << kMCChain << ", init: 2}\n";
    std::vector<Bd> bin, bout, cout, clout;
    for (int i = 0; i < 2; ++i) {
      const std::string is = cs + "_" + std::to_string(i);
      buffers << "  - {name: mem_b" << is << ", tile: " << mem << ", address: " << kMemB[i] << ", size: " << mem_b
              << "}\n";
      buffers << "  - {name: mem_c" << is << ", tile: " << mem << ", address: " << kMemC[i]
              << ", size: " << tile_c * p.rows << "}\n";
      if (split)
        buffers << "  - {name: mem_clo" << is << ", tile: " << mem << ", address: " << kMemCLo[i]
                << ", size: " << tile_c * p.rows << "}\n";
      Bd w{"b_in" + is, mem, "s2mm" + std::to_string(kMemBIn), "mem_b" + is, 0, mem_b};
      w.acquire_lock = kMBEmpty;
      w.release_lock = kMBFull;
      bin.push_back(w);
      // Tile step st of this buffer: columns st * Nt .. as [k block][2 blocks][8 rows][4 bf16].
      for (int64_t st = 0; st < g.sub; ++st) {
        Bd o{"b_out" + is + "_" + std::to_string(st), mem, "mm2s" + std::to_string(kMemBOut), "mem_b" + is,
             uint64_t(st) * kNt * 2, tile_b};
        o.dims = dims({{2, 1}, {8, g.wb / 2}, {kNt / 4, 2}, {kbd / 8, 4 * g.wb}});
        if (st == 0) o.acquire_lock = kMBFull;
        if (st + 1 == g.sub) o.release_lock = kMBEmpty;
        bout.push_back(o);
      }
      // The tile rows' chunks stacked: rows x Mr rows of Nt columns, already row-major.
      // Split output: the high chunk's channel hands the buffer to the low chunk's.
      Bd o{"c_out" + is, mem, "mm2s" + std::to_string(kMemCOut), "mem_c" + is, 0, tile_c * p.rows};
      o.acquire_lock = kMCFull;
      o.release_lock = split ? kMCLoFull : kMCChain;
      cout.push_back(o);
      if (split) {
        Bd l{"clo_out" + is, mem, "mm2s" + std::to_string(kMemCLoOut), "mem_clo" + is, 0, tile_c * p.rows};
        l.acquire_lock = kMCLoFull;
        l.release_lock = kMCChain;
        clout.push_back(l);
      }
    }
    add(ring(bin));
    add(ring(bout));
    add(ring(cout));
    if (split) add(ring(clout));

    for (uint32_t r = 0; r < p.rows; ++r) {
      const std::string t = tile(c, r), id = cs + "_" + std::to_string(r);
      const bool last = r + 1 == p.rows;
      routes << "  - {from: {tile: " << t << ", port: mm2s0}, to: {tile: " << mem << ", port: s2mm" << r + 1 << "}}\n";
      locks << "  - {tile: " << t << ", id: " << kAEmpty << ", init: " << g.a_buffers << "}\n";
      locks << "  - {tile: " << t << ", id: " << kBEmpty << ", init: 2}\n";
      locks << "  - {tile: " << t << ", id: " << kCEmpty << ", init: 2}\n";
      std::vector<Bd> ta, tb, tc, cin;
      for (int i = 0; i < 2; ++i) {
        const std::string is = std::to_string(i);
        if (uint32_t(i) < g.a_buffers)
          buffers << "  - {name: t_a" << id << "_" << is << ", tile: " << t << ", address: " << kTileA[i]
                  << ", size: " << strip_a << "}\n";
        buffers << "  - {name: t_b" << id << "_" << is << ", tile: " << t << ", address: " << kTileB[i]
                << ", size: " << tile_b << "}\n";
        buffers << "  - {name: t_c" << id << "_" << is << ", tile: " << t << ", address: " << kTileC[i]
                << ", size: " << tile_c << "}\n";
        if (split)
          buffers << "  - {name: t_clo" << id << "_" << is << ", tile: " << t << ", address: " << kTileCLo[i]
                  << ", size: " << tile_c << "}\n";
        Bd a{"t_ain" + id + "_" + is, t, "s2mm0", "t_a" + id + "_" + is, 0, strip_a};
        a.acquire_lock = kAEmpty;
        a.release_lock = kAFull;
        if (uint32_t(i) < g.a_buffers) ta.push_back(a);
        Bd b{"t_bin" + id + "_" + is, t, "s2mm1", "t_b" + id + "_" + is, 0, tile_b};
        b.acquire_lock = kBEmpty;
        b.release_lock = kBFull;
        tb.push_back(b);
        // The core stores [row group][2 blocks of 4x4]; each BD emits one row group row-major
        // (split output: the high chunk's groups, then the low chunk's, on the same stream).
        for (const std::string& part : split ? std::vector<std::string>{"c", "clo"} : std::vector<std::string>{"c"}) {
          const bool first = part == "c", final = !split || part == "clo";
          for (int64_t grp = 0; grp < groups; ++grp) {
            Bd cb{"t_" + part + "out" + id + "_" + is + "_" + std::to_string(grp), t, "mm2s0",
                  "t_" + part + id + "_" + is, uint64_t(grp) * kNt * 8, uint64_t(kNt) * 8};
            cb.dims = dims({{2, 1}, {kNt / 4, 8}, {4, 2}});
            if (first && grp == 0) cb.acquire_lock = kCFull;
            if (final && grp + 1 == groups) cb.release_lock = kCEmpty;
            tc.push_back(cb);
          }
        }
        // The column's C producers take turns (row 0 first); the last hands the chunk on.
        Bd ci{"c_in" + id + "_" + is, mem, "s2mm" + std::to_string(r + 1), "mem_c" + cs + "_" + is,
              uint64_t(r) * tile_c, tile_c};
        ci.acquire_lock = int(kMCChain + r);
        ci.release_lock = int(last ? kMCFull : kMCChain + r + 1);
        if (split) {
          // The low chunk follows the high one on the stream; it ends the turn.
          Bd li = ci;
          li.name = "clo_in" + id + "_" + is;
          li.buffer = "mem_clo" + cs + "_" + is;
          li.acquire_lock = -1;
          ci.release_lock = -1;
          cin.push_back(ci);
          cin.push_back(li);
        } else {
          cin.push_back(ci);
        }
      }
      ta = ring(ta);
      if (p.has_bias) {
        buffers << "  - {name: t_bias" << id << ", tile: " << t << ", address: " << kTileBias
                << ", size: " << bias_bytes * 4 << "}\n";
        Bd bb{"t_bias" + id, t, "s2mm0", "t_bias" + id, 0, bias_bytes * 4};
        bb.next = ta.front().name;
        bb.release_lock = kBiasReady;
        add({bb});
      }
      add(ta);
      add(ring(tb));
      add(ring(tc));
      add(ring(cin));
    }
  }
  std::ostringstream bds;
  for (const Bd& b : all) bds << bd_yaml(b);
  k << ".movement\nlocks:\n" << locks.str() << "buffers:\n" << buffers.str() << "bds:\n" << bds.str()
    << "routes:\n" << routes.str();
  return k.str();
}

}  // namespace tlmcraft::tasks::aie_ml
