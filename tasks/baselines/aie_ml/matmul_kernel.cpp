// AIE-ML bf16 matrix-multiply kernel generator (see matmul_kernel.h for the data path).
#include "tasks/baselines/aie_ml/matmul_kernel.h"

#include "tasks/baselines/aie_ml/movement_text.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace tlmcraft::tasks::aie_ml {
namespace {

constexpr int64_t kNt = 8;   // output columns per tile step: two 4x4 fp32 accumulators
constexpr int64_t kMrMax = 16;  // A rows per strip (4 row groups of the 4x8x4 mode)

// Compute-tile data memory map (64 KB, 8 KB banks: A, B, C and bias in different banks
// so the two loads of a bundle never share a bank).
constexpr uint32_t kTileA[2] = {0x0000, 0x4000};  // Mr x K bf16 <= 16 KB each
constexpr uint32_t kTileB[2] = {0x8000, 0xA000};  // K x Nt bf16 <= 8 KB each
constexpr uint32_t kTileC[2] = {0xC000, 0xC400};  // Mr x Nt bf16 <= 1 KB each
constexpr uint32_t kTileBias = 0xE000;            // bias as 4x4 blocks: 8 N bytes <= 8 KB
constexpr uint32_t kCoreOwn = 0x70000;            // the core's window onto its own memory

// Memory-tile map (512 KB).
constexpr uint32_t kMemA[2] = {0x00000, 0x04000};  // Mr x K strips
constexpr uint32_t kMemBias = 0x08000;             // N bf16
constexpr uint32_t kMemB[2] = {0x10000, 0x20000};  // K x (rows * Nt) steps <= 64 KB each
constexpr uint32_t kMemC[2] = {0x30000, 0x31000};  // rows x Mr x Nt <= 4 KB each

// Compute-tile locks (the core sees them as 48 + id).
enum TileLock : uint32_t { kAFull = 0, kAEmpty = 1, kBFull = 2, kBEmpty = 3, kCFull = 4, kCEmpty = 5, kBiasReady = 6 };
// Memory-tile locks: A ping/pong, bias, the B consumer chain (4 + r), the C producer
// chain (8 + r) and the C output.
enum MemLock : uint32_t { kMAFull = 0, kMAEmpty = 1, kMBias = 2, kMBEmpty = 3, kMBChain = 4, kMCChain = 8, kMCFull = 12 };

struct Geometry {
  int64_t mr = 0, strips = 0, wc = 0, ncol = 0, steps = 0;
};

Geometry geometry(const MatmulPlan& p) {
  Geometry g;
  g.mr = std::min<int64_t>(p.M, kMrMax);
  g.strips = g.mr > 0 ? p.batches * p.M / g.mr : 0;
  g.wc = int64_t(p.rows) * kNt;
  g.ncol = p.columns > 0 ? p.N / p.columns : 0;
  g.steps = g.wc > 0 ? g.ncol / g.wc : 0;
  return g;
}

// The program of tile (c, r): per strip of Mr rows, per step, per group of 4 rows, the
// two 4x4 blocks of its Nt columns accumulated over K in a zero-overhead loop.
std::string core_program(const MatmulPlan& p, const Geometry& g, uint32_t c, uint32_t r) {
  const int64_t kb = p.K / 8, groups = g.mr / 4;
  std::ostringstream s;
  s << ".tile " << c << " " << r << "\n";
  s << "  MOVXM r20, " << hex(kCoreOwn + kTileA[0]) << "   ; current A, B, C buffers and their ping^pong toggles\n";
  s << "  MOVXM r21, " << hex(kCoreOwn + kTileB[0]) << "\n";
  s << "  MOVXM r22, " << hex(kCoreOwn + kTileC[0]) << "\n";
  s << "  MOVXM r23, " << hex(kTileA[0] ^ kTileA[1]) << "\n";
  s << "  MOVXM r24, " << hex(kTileB[0] ^ kTileB[1]) << "\n";
  s << "  MOVXM r25, " << hex(kTileC[0] ^ kTileC[1]) << "\n";
  s << "  MOVXM ls, kloop\n  MOVXM le, kend\n";
  s << "  MOVXM r10, " << g.strips - 1 << "   ; strips left\n";
  if (p.has_bias) {
    // Bias blocks of this tile's first columns; a step advances by rows x Nt columns (8 bytes each).
    s << "  MOVXM r27, " << g.wc * 8 << "\n";
    s << "  ACQ " << 48 + kBiasReady << ", 1   ; the expanded bias has arrived\n";
  }
  s << "strip:\n";
  s << "  ACQ " << 48 + kAFull << ", 1\n";
  s << "  MOVXM r11, " << g.steps - 1 << "   ; steps left\n";
  if (p.has_bias)
    s << "  MOVXM r26, " << hex(kCoreOwn + kTileBias + (uint64_t(c) * g.ncol + uint64_t(r) * kNt) * 8) << "\n";
  s << "step:\n";
  s << "  ACQ " << 48 + kBFull << ", 1\n";
  s << "  ACQ " << 48 + kCEmpty << ", 1\n";
  s << "  MOV p0, r20\n  MOV p2, r22\n";
  s << "  MOVXM r12, " << groups - 1 << "   ; row groups left\n";
  s << "group:\n";
  s << "  MOV p1, r21\n";
  if (p.has_bias) {
    s << "  MOV p5, r26\n";
    s << "  VLDA.CONV.FP32.BF16 bm0, [p5], #32   ; accumulators start at the bias rows\n";
    s << "  VLDA.CONV.FP32.BF16 bm1, [p5], #32\n";
  } else {
    s << "  VCLR bm0\n  VCLR bm1\n";
  }
  s << "  MOVXM lc, " << kb << "\n";
  s << "kloop:\n";
  s << "  VLDA w0, [p0], #32 ;; VLDB w2, [p1], #32   ; A 4x8 block -> x0, B 8x4 blocks -> x1, x2\n";
  s << "  VLDA w1, [p0], #32 ;; VLDB w3, [p1], #32\n";
  s << "  VLDB w4, [p1], #32\n";
  s << "  VLDB w5, [p1], #32 ;; VMAC.BF16 bm0, bm0, x0, x1\n";
  s << "kend:\n";
  s << "  VMAC.BF16 bm1, bm1, x0, x2\n";
  s << "  VST.CONV.BF16.FP32 bm0, [p2], #32\n";
  s << "  VST.CONV.BF16.FP32 bm1, [p2], #32\n";
  s << "  JNZD r12, r12, group\n";
  s << "  REL " << 48 + kCFull << ", 1\n";
  s << "  REL " << 48 + kBEmpty << ", 1\n";
  s << "  XOR r21, r21, r24\n  XOR r22, r22, r25\n";
  if (p.has_bias) s << "  ADD r26, r26, r27\n";
  s << "  JNZD r11, r11, step\n";
  s << "  REL " << 48 + kAEmpty << ", 1\n";
  s << "  XOR r20, r20, r23\n";
  s << "  JNZD r10, r10, strip\n";
  s << "  DONE\n";
  return s.str();
}

}  // namespace

std::string matmul_plan_problem(const MatmulPlan& p) {
  const auto why = [&](const std::string& s) {
    return "matmul kernel (b=" + std::to_string(p.batches) + ", M=" + std::to_string(p.M) + ", K=" +
           std::to_string(p.K) + ", N=" + std::to_string(p.N) + ", " + std::to_string(p.columns) + "x" +
           std::to_string(p.rows) + " tiles): " + s;
  };
  if (p.batches < 1 || p.M < 1 || p.K < 1 || p.N < 1) return why("every dimension must be positive");
  if (p.columns < 1 || p.columns > 4 || p.rows < 1 || p.rows > 4) return why("tiles are 1..4 columns x 1..4 rows");
  const Geometry g = geometry(p);
  if (p.M % 4 != 0 || p.M % g.mr != 0) return why("M must be a multiple of 4 and of the 16-row strip");
  if (p.K % 8 != 0) return why("K must be a multiple of 8");
  if (p.N % (int64_t(p.columns) * g.wc) != 0)
    return why("N must be a multiple of " + std::to_string(int64_t(p.columns) * g.wc) + " (8 columns per tile step)");
  if (g.mr * p.K * 2 > 0x4000) return why("an A strip (" + std::to_string(g.mr) + " x K bf16) exceeds 16 KB");
  if (p.K * kNt * 2 > 0x2000) return why("a B step (K x 8 bf16) exceeds 8 KB");
  if (p.K * g.wc * 2 > 0x10000) return why("a memory-tile B step exceeds 64 KB");
  if (p.has_bias && p.N * 8 > 0x2000) return why("the expanded bias (8 N bytes) exceeds 8 KB");
  if (p.batches * p.M * p.K * 2 > (64ll << 20)) return why("A exceeds one 64 MiB BD");
  return "";
}

std::string matmul_kernel(const MatmulPlan& p) {
  if (const std::string problem = matmul_plan_problem(p); !problem.empty()) throw std::invalid_argument(problem);
  const Geometry g = geometry(p);
  const uint64_t a_bytes = uint64_t(p.batches * p.M * p.K) * 2, b_bytes = uint64_t(p.batches * p.K * p.N) * 2,
                 c_bytes = uint64_t(p.batches * p.M * p.N) * 2, bias_bytes = uint64_t(p.N) * 2;
  const uint64_t strip_a = uint64_t(g.mr * p.K) * 2, tile_b = uint64_t(p.K * kNt) * 2,
                 mem_b = uint64_t(p.K * g.wc) * 2, tile_c = uint64_t(g.mr * kNt) * 2;
  const int64_t strips_per_batch = p.M / g.mr;

  std::ostringstream k;
  k << "; bf16 matmul C = A B" << (p.has_bias ? " + bias" : "") << ": b=" << p.batches << " M=" << p.M
    << " K=" << p.K << " N=" << p.N << " on " << p.columns * p.rows << " tile(s)\n";
  for (uint32_t c = 0; c < p.columns; ++c)
    for (uint32_t r = 0; r < p.rows; ++r) k << core_program(p, g, c, r);

  std::ostringstream locks, buffers, bds, routes;
  std::vector<Bd> all;
  const auto add = [&](const std::vector<Bd>& chain) { all.insert(all.end(), chain.begin(), chain.end()); };

  // A (and bias) into mem0, reordered and broadcast to every tile.
  buffers << "  - {name: ddr_a, tile: shim0, address: " << p.a_offset << ", size: " << a_bytes << "}\n";
  buffers << "  - {name: mem_a0, tile: mem0, address: " << kMemA[0] << ", size: " << strip_a << "}\n";
  buffers << "  - {name: mem_a1, tile: mem0, address: " << kMemA[1] << ", size: " << strip_a << "}\n";
  locks << "  - {tile: mem0, id: " << kMAEmpty << ", init: 2}\n";
  {
    Bd a{"a_rd", "shim0", "mm2s1", "ddr_a", 0, a_bytes};
    std::vector<Bd> in, out;
    for (int i = 0; i < 2; ++i) {
      Bd w{"a_in" + std::to_string(i), "mem0", "s2mm5", "mem_a" + std::to_string(i), 0, strip_a};
      w.acquire_lock = kMAEmpty;
      w.release_lock = kMAFull;
      in.push_back(w);
      // Tile order [row group][k block][4 rows][8 bf16]: one VMAC operand per 64 bytes.
      Bd o{"a_out" + std::to_string(i), "mem0", "mm2s5", "mem_a" + std::to_string(i), 0, strip_a};
      o.dims = dims({{4, 1}, {4, p.K / 2}, {p.K / 8, 4}, {g.mr / 4, 2 * p.K}});
      o.acquire_lock = kMAFull;
      o.release_lock = kMAEmpty;
      out.push_back(o);
    }
    in = ring(in);
    out = ring(out);
    if (p.has_bias) {
      buffers << "  - {name: ddr_bias, tile: shim0, address: " << p.bias_offset << ", size: " << bias_bytes << "}\n";
      buffers << "  - {name: mem_bias, tile: mem0, address: " << kMemBias << ", size: " << bias_bytes << "}\n";
      Bd brd{"bias_rd", "shim0", "mm2s1", "ddr_bias", 0, bias_bytes};
      brd.next = "a_rd";
      Bd bin{"bias_in", "mem0", "s2mm5", "mem_bias", 0, bias_bytes};
      bin.next = "a_in0";
      bin.release_lock = kMBias;
      // Each 4 bias values repeated for the 4 rows of a 4x4 accumulator block.
      Bd bout{"bias_out", "mem0", "mm2s5", "mem_bias", 0, bias_bytes * 4};
      bout.dims = dims({{2, 1}, {4, 0}, {p.N / 4, 2}});
      bout.next = "a_out0";
      bout.acquire_lock = kMBias;
      add({brd, bin, bout});
    }
    add({a});
    add(in);
    add(out);
    routes << "  - {from: {tile: shim0, port: mm2s1}, to: {tile: mem0, port: s2mm5}}\n";
  }

  for (uint32_t c = 0; c < p.columns; ++c) {
    const std::string shim = "shim" + std::to_string(c), mem = "mem" + std::to_string(c), cs = std::to_string(c);
    const uint64_t colbase = uint64_t(c) * g.ncol;
    // B: one shim BD per strip (the strip's batch), the column's slice in steps of wc columns.
    buffers << "  - {name: ddr_b" << cs << ", tile: " << shim << ", address: " << p.b_offset << ", size: " << b_bytes
            << "}\n";
    buffers << "  - {name: ddr_c" << cs << ", tile: " << shim << ", address: " << p.c_offset << ", size: " << c_bytes
            << "}\n";
    std::vector<Bd> brd, cwr;
    for (int64_t s = 0; s < g.strips; ++s) {
      const int64_t batch = s / strips_per_batch;
      Bd b{"b_rd" + cs + "_" + std::to_string(s), shim, "mm2s0", "ddr_b" + cs,
           uint64_t(batch * p.K * p.N + int64_t(colbase)) * 2, uint64_t(p.K * g.ncol) * 2};
      b.dims = dims({{g.wc / 2, 1}, {p.K, p.N / 2}, {g.steps, g.wc / 2}});
      if (s + 1 < g.strips) b.next = "b_rd" + cs + "_" + std::to_string(s + 1);
      brd.push_back(b);
      Bd w{"c_wr" + cs + "_" + std::to_string(s), shim, "s2mm0", "ddr_c" + cs,
           uint64_t(s * g.mr * p.N + int64_t(colbase)) * 2, uint64_t(g.mr * g.ncol) * 2};
      w.dims = dims({{g.wc / 2, 1}, {g.mr, p.N / 2}, {g.steps, g.wc / 2}});
      if (s + 1 < g.strips) w.next = "c_wr" + cs + "_" + std::to_string(s + 1);
      cwr.push_back(w);
    }
    add(brd);
    add(cwr);
    routes << "  - {from: {tile: " << shim << ", port: mm2s0}, to: {tile: " << mem << ", port: s2mm0}}\n";
    routes << "  - {from: {tile: " << mem << ", port: mm2s4}, to: {tile: " << shim << ", port: s2mm0}}\n";

    locks << "  - {tile: " << mem << ", id: " << kMBEmpty << ", init: 2}\n";
    locks << "  - {tile: " << mem << ", id: " << kMCChain << ", init: 2}\n";
    std::vector<Bd> bin, cout;
    for (int i = 0; i < 2; ++i) {
      const std::string is = std::to_string(i);
      buffers << "  - {name: mem_b" << cs << "_" << is << ", tile: " << mem << ", address: " << kMemB[i]
              << ", size: " << mem_b << "}\n";
      buffers << "  - {name: mem_c" << cs << "_" << is << ", tile: " << mem << ", address: " << kMemC[i]
              << ", size: " << tile_c * p.rows << "}\n";
      Bd w{"b_in" + cs + "_" + is, mem, "s2mm0", "mem_b" + cs + "_" + is, 0, mem_b};
      w.acquire_lock = kMBEmpty;
      w.release_lock = kMBChain;
      bin.push_back(w);
      // Row m of the column's rows x Nt-wide chunk: tile 0's Nt columns, tile 1's, ...
      Bd o{"c_out" + cs + "_" + is, mem, "mm2s4", "mem_c" + cs + "_" + is, 0, tile_c * p.rows};
      o.dims = dims({{kNt / 2, 1}, {p.rows, g.mr * kNt / 2}, {g.mr, kNt / 2}});
      o.acquire_lock = kMCFull;
      o.release_lock = kMCChain;
      cout.push_back(o);
    }
    add(ring(bin));
    add(ring(cout));

    for (uint32_t r = 0; r < p.rows; ++r) {
      const std::string rs = std::to_string(r), t = tile(c, r), id = cs + "_" + rs;
      const bool last = r + 1 == p.rows;
      routes << "  - {from: {tile: " << mem << ", port: mm2s" << r << "}, to: {tile: " << t << ", port: s2mm1}}\n";
      routes << "  - {from: {tile: " << t << ", port: mm2s0}, to: {tile: " << mem << ", port: s2mm" << r + 1 << "}}\n";
      locks << "  - {tile: " << t << ", id: " << kAEmpty << ", init: 2}\n";
      locks << "  - {tile: " << t << ", id: " << kBEmpty << ", init: 2}\n";
      locks << "  - {tile: " << t << ", id: " << kCEmpty << ", init: 2}\n";
      for (int i = 0; i < 2; ++i) {
        const std::string is = std::to_string(i);
        buffers << "  - {name: t_a" << id << "_" << is << ", tile: " << t << ", address: " << kTileA[i]
                << ", size: " << strip_a << "}\n";
        buffers << "  - {name: t_b" << id << "_" << is << ", tile: " << t << ", address: " << kTileB[i]
                << ", size: " << tile_b << "}\n";
        buffers << "  - {name: t_c" << id << "_" << is << ", tile: " << t << ", address: " << kTileC[i]
                << ", size: " << tile_c << "}\n";
      }
      std::vector<Bd> bout, ta, tb, tc, cin;
      for (int i = 0; i < 2; ++i) {
        const std::string is = std::to_string(i);
        // The memory tile's consumers of a B step take turns: r waits for r - 1.
        Bd o{"b_out" + id + "_" + is, mem, "mm2s" + rs, "mem_b" + cs + "_" + is, uint64_t(r) * kNt * 2, tile_b};
        o.dims = dims({{2, 1}, {8, g.wc / 2}, {kNt / 4, 2}, {p.K / 8, 4 * g.wc}});
        o.acquire_lock = kMBChain + r;
        o.release_lock = last ? kMBEmpty : kMBChain + r + 1;
        bout.push_back(o);
        Bd a{"t_ain" + id + "_" + is, t, "s2mm0", "t_a" + id + "_" + is, 0, strip_a};
        a.acquire_lock = kAEmpty;
        a.release_lock = kAFull;
        ta.push_back(a);
        Bd b{"t_bin" + id + "_" + is, t, "s2mm1", "t_b" + id + "_" + is, 0, tile_b};
        b.acquire_lock = kBEmpty;
        b.release_lock = kBFull;
        tb.push_back(b);
        // The core stores [row group][2 blocks of 4x4]; each BD emits one row group row-major.
        const int64_t groups = g.mr / 4;
        for (int64_t grp = 0; grp < groups; ++grp) {
          Bd cb{"t_cout" + id + "_" + is + "_" + std::to_string(grp), t, "mm2s0", "t_c" + id + "_" + is,
                uint64_t(grp) * kNt * 8, uint64_t(kNt) * 8};
          cb.dims = dims({{2, 1}, {kNt / 4, 8}, {4, 2}});
          if (grp == 0) cb.acquire_lock = kCFull;
          if (grp + 1 == groups) cb.release_lock = kCEmpty;
          tc.push_back(cb);
        }
        // The column's C producers take turns too; the last one hands the chunk to mm2s4.
        Bd ci{"c_in" + id + "_" + is, mem, "s2mm" + std::to_string(r + 1), "mem_c" + cs + "_" + is,
              uint64_t(r) * tile_c, tile_c};
        ci.acquire_lock = kMCChain + r;
        ci.release_lock = last ? kMCFull : kMCChain + r + 1;
        cin.push_back(ci);
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
      add(ring(bout));
      add(ta);
      add(ring(tb));
      add(ring(tc));
      add(ring(cin));
      routes << "  - {from: {tile: mem0, port: mm2s5}, to: {tile: " << t << ", port: s2mm0}}\n";
    }
  }
  for (const Bd& b : all) bds << bd_yaml(b);
  k << ".movement\nlocks:\n" << locks.str() << "buffers:\n" << buffers.str() << "bds:\n" << bds.str()
    << "routes:\n" << routes.str();
  return k.str();
}

}  // namespace tlmcraft::tasks::aie_ml
