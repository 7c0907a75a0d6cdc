// AIE-ML bf16 matrix-vector kernel generator (see gemv_kernel.h).
#include "platforms/aie_ml/pack/baselines/gemv_kernel.h"

#include <sstream>
#include <stdexcept>
#include <vector>

#include "platforms/aie_ml/pack/baselines/movement_text.h"

namespace tlmcraft::tasks::aie_ml {
namespace {

// Compute-tile map: A strips, raw x, expanded x (8 N bytes), y slots (32 bytes per 4 rows).
constexpr uint32_t kTileA[2] = {0x0000, 0x4000};
constexpr uint32_t kTileX = 0x8000;
constexpr uint32_t kTileXExp = 0xA000;
constexpr uint32_t kTileY[2] = {0xC000, 0xC400};
constexpr uint32_t kCoreOwn = 0x70000;
constexpr uint32_t kMemA[2] = {0x00000, 0x08000};
constexpr uint32_t kMemX = 0x10000;

enum TileLock : uint32_t { kAFull = 0, kAEmpty = 1, kYFull = 4, kYEmpty = 5, kXReady = 6 };
enum MemLock : uint32_t { kMAFull = 0, kMAEmpty = 1, kMX = 2 };

// Rows per strip: as many as fit 16 KB (at most 16), a multiple of 4 dividing M.
int64_t strip_rows(const GemvPlan& p) {
  int64_t mr = 16;
  while (mr > 4 && (mr * p.N * 2 > 0x4000 || p.M % mr != 0)) mr -= 4;
  return mr;
}

}  // namespace

std::string gemv_plan_problem(const GemvPlan& p) {
  const auto why = [&](const std::string& s) {
    return "gemv kernel (M=" + std::to_string(p.M) + ", N=" + std::to_string(p.N) + "): " + s;
  };
  if (p.M < 1 || p.N < 1) return why("every dimension must be positive");
  if (p.M % 4 != 0) return why("M must be a multiple of 4");
  if (p.N % 32 != 0) return why("N must be a multiple of 32");
  if (p.N * 8 > 0x2000) return why("the expanded x (8 N bytes) exceeds 8 KB");
  if (p.M % strip_rows(p) != 0 || strip_rows(p) * p.N * 2 > 0x4000) return why("no strip of 4..16 rows fits 16 KB");
  if (p.M * p.N * 2 > (64ll << 20)) return why("A exceeds one 64 MiB BD");
  return "";
}

std::string gemv_kernel(const GemvPlan& p) {
  if (const std::string problem = gemv_plan_problem(p); !problem.empty()) throw std::invalid_argument(problem);
  const int64_t mr = strip_rows(p), strips = p.M / mr, groups = mr / 4;
  const uint64_t strip_a = uint64_t(mr * p.N) * 2, x_bytes = uint64_t(p.N) * 2;

  std::ostringstream k;
  k << "; bf16 matrix-vector product y = A x: M=" << p.M << " N=" << p.N << " on tile (0,0)\n";
  k << ".tile 0 0\n";
  k << "  ACQ " << 48 + kXReady << ", 1   ; x has arrived\n";
  k << "  MOVXM p0, " << hex(kCoreOwn + kTileX) << "\n";
  k << "  MOVXM p1, " << hex(kCoreOwn + kTileXExp) << "\n";
  k << "  MOVXM ls, xloop\n  MOVXM le, xend\n  MOVXM lc, " << p.N / 32 << "\n";
  k << "xloop:\n";
  k << "  VLDA w0, [p0], #32   ; x[32 j .. 32 j + 31] -> x0\n";
  k << "  VLDA w1, [p0], #32\n";
  k << "  VSHUFFLE x1, x0, x0, 4   ; 16-bit interleave of the low halves: x0 x0 x1 x1 ... x15 x15\n";
  k << "  VSHUFFLE x2, x0, x0, 5   ; the high halves: x16 x16 ... x31 x31\n";
  k << "  VSHUFFLE x3, x1, x1, 8   ; 32-bit interleave: x0 x0 x0 x0 x1 ... (one 8x4 block)\n";
  k << "  VSHUFFLE x4, x1, x1, 9 ;; VST w6, [p1], #32\n";
  k << "  VSHUFFLE x5, x2, x2, 8 ;; VST w7, [p1], #32\n";
  k << "  VSHUFFLE x6, x2, x2, 9 ;; VST w8, [p1], #32\n";
  k << "  VST w9, [p1], #32\n  VST w10, [p1], #32\n  VST w11, [p1], #32\n  VST w12, [p1], #32\n";
  k << "xend:\n";
  k << "  VST w13, [p1], #32\n";
  k << "  MOVXM r20, " << hex(kCoreOwn + kTileA[0]) << "   ; current A and y buffers, ping^pong toggles\n";
  k << "  MOVXM r22, " << hex(kCoreOwn + kTileY[0]) << "\n";
  k << "  MOVXM r23, " << hex(kTileA[0] ^ kTileA[1]) << "\n";
  k << "  MOVXM r25, " << hex(kTileY[0] ^ kTileY[1]) << "\n";
  k << "  MOVXM ls, kloop\n  MOVXM le, kend\n  MOVXM r13, 128   ; bytes of two k blocks\n";
  k << "  MOVXM r10, " << strips - 1 << "   ; strips left\n";
  k << "strip:\n";
  k << "  ACQ " << 48 + kAFull << ", 1\n";
  k << "  ACQ " << 48 + kYEmpty << ", 1\n";
  k << "  MOV p0, r20\n  MOV r5, r20\n  MOV p2, r22\n";
  k << "  MOVXM r12, " << groups - 1 << "   ; row groups left\n";
  k << "group:\n";
  k << "  MOVXM p1, " << hex(kCoreOwn + kTileXExp) << "\n";
  k << "  MOVXM r6, " << hex(kCoreOwn + kTileXExp) << "\n";
  k << "  VCLR bm0\n  VCLR bm1\n";
  k << "  MOVXM lc, " << p.N / 16 << "\n";
  // Two k blocks per iteration with offset loads; the pointers advance through r5/r6
  // (a post-modified pointer would be a load result, ready 7 cycles later).
  k << "kloop:\n";
  k << "  VLDA w0, [p0, #0] ;; VLDB w2, [p1, #0]   ; A 4x8 block k -> x0, x block -> x1\n";
  k << "  VLDA w1, [p0, #32] ;; VLDB w3, [p1, #32]\n";
  k << "  VLDA w6, [p0, #64] ;; VLDB w8, [p1, #64]   ; block k + 8 -> x3, x4\n";
  k << "  VLDA w7, [p0, #96] ;; VLDB w9, [p1, #96]\n";
  k << "  ADD r5, r5, r13 ;; VMAC.BF16 bm0, bm0, x0, x1\n";
  k << "  ADD r6, r6, r13 ;; MOV p0, r5 ;; VMAC.BF16 bm1, bm1, x3, x4\n";
  k << "kend:\n";
  k << "  MOV p1, r6\n";
  k << "  VADD.F bm0, bm0, bm1\n";
  k << "  VCONV.BF16.FP32 w4, bm0   ; row i of the block is y[m + i] four times\n";
  k << "  VSHUFFLE x3, x2, x2, 10   ; even 32-bit elements: (y0 y0) (y1 y1) (y2 y2) (y3 y3)\n";
  k << "  VSHUFFLE x2, x3, x3, 6    ; even 16-bit elements: y0 y1 y2 y3\n";
  k << "  VST w4, [p2], #32\n";
  k << "  JNZD r12, r12, group\n";
  k << "  REL " << 48 + kYFull << ", 1\n";
  k << "  REL " << 48 + kAEmpty << ", 1\n";
  k << "  XOR r20, r20, r23\n  XOR r22, r22, r25\n";
  k << "  JNZD r10, r10, strip\n";
  k << "  DONE\n";

  std::ostringstream locks, buffers, bds;
  locks << "  - {tile: mem0, id: " << kMAEmpty << ", init: 2}\n";
  locks << "  - {tile: [0, 0], id: " << kAEmpty << ", init: 2}\n";
  locks << "  - {tile: [0, 0], id: " << kYEmpty << ", init: 2}\n";
  buffers << "  - {name: ddr_x, tile: shim0, address: " << p.x_offset << ", size: " << x_bytes << "}\n";
  buffers << "  - {name: ddr_a, tile: shim0, address: " << p.a_offset << ", size: " << p.M * p.N * 2 << "}\n";
  buffers << "  - {name: ddr_y, tile: shim0, address: " << p.y_offset << ", size: " << p.M * 2 << "}\n";
  buffers << "  - {name: mem_x, tile: mem0, address: " << kMemX << ", size: " << x_bytes << "}\n";
  buffers << "  - {name: t_x, tile: [0, 0], address: " << kTileX << ", size: " << x_bytes << "}\n";
  std::vector<Bd> all;
  Bd xrd{"x_rd", "shim0", "mm2s0", "ddr_x", 0, x_bytes};
  xrd.next = "a_rd";
  Bd ard{"a_rd", "shim0", "mm2s0", "ddr_a", 0, uint64_t(p.M * p.N) * 2};
  Bd xin{"x_in", "mem0", "s2mm0", "mem_x", 0, x_bytes};
  xin.next = "a_in0";
  xin.release_lock = kMX;
  Bd xout{"x_out", "mem0", "mm2s0", "mem_x", 0, x_bytes};
  xout.next = "a_out0";
  xout.acquire_lock = kMX;
  Bd tx{"t_xin", "[0, 0]", "s2mm0", "t_x", 0, x_bytes};
  tx.next = "t_ain0";
  tx.release_lock = kXReady;
  all = {xrd, ard, xin, xout, tx};
  std::vector<Bd> ain, aout, tain, tyout;
  for (int i = 0; i < 2; ++i) {
    const std::string is = std::to_string(i);
    buffers << "  - {name: mem_a" << is << ", tile: mem0, address: " << kMemA[i] << ", size: " << strip_a << "}\n";
    buffers << "  - {name: t_a" << is << ", tile: [0, 0], address: " << kTileA[i] << ", size: " << strip_a << "}\n";
    buffers << "  - {name: t_y" << is << ", tile: [0, 0], address: " << kTileY[i] << ", size: " << groups * 32 << "}\n";
    Bd w{"a_in" + is, "mem0", "s2mm0", "mem_a" + is, 0, strip_a};
    w.acquire_lock = kMAEmpty;
    w.release_lock = kMAFull;
    ain.push_back(w);
    Bd o{"a_out" + is, "mem0", "mm2s0", "mem_a" + is, 0, strip_a};
    o.dims = dims({{4, 1}, {4, p.N / 2}, {p.N / 8, 4}, {groups, 2 * p.N}});
    o.acquire_lock = kMAFull;
    o.release_lock = kMAEmpty;
    aout.push_back(o);
    Bd t{"t_ain" + is, "[0, 0]", "s2mm0", "t_a" + is, 0, strip_a};
    t.acquire_lock = kAEmpty;
    t.release_lock = kAFull;
    tain.push_back(t);
    // y[m .. m + 3] are the first 8 bytes of each 32-byte slot.
    Bd y{"t_yout" + is, "[0, 0]", "mm2s0", "t_y" + is, 0, uint64_t(mr) * 2};
    y.dims = dims({{2, 1}, {groups, 8}});
    y.acquire_lock = kYFull;
    y.release_lock = kYEmpty;
    tyout.push_back(y);
  }
  for (const auto& chain : {ring(ain), ring(aout), ring(tain), ring(tyout)}) all.insert(all.end(), chain.begin(), chain.end());
  all.push_back(Bd{"y_wr", "shim0", "s2mm0", "ddr_y", 0, uint64_t(p.M) * 2});
  for (const Bd& b : all) bds << bd_yaml(b);
  k << ".movement\nlocks:\n" << locks.str() << "buffers:\n" << buffers.str() << "bds:\n" << bds.str();
  k << "routes:\n"
       "  - {from: {tile: shim0, port: mm2s0}, to: {tile: mem0, port: s2mm0}}\n"
       "  - {from: {tile: mem0, port: mm2s0}, to: {tile: [0, 0], port: s2mm0}}\n"
       "  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: shim0, port: s2mm0}}\n";
  return k.str();
}

}  // namespace tlmcraft::tasks::aie_ml
