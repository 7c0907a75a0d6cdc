// AIE-ML baselines for the convolution tasks (conv2d, depthwise_conv, conv_block): one
// compute tile (0,0) holds the whole zero-padded image, the weights and the output.
//
// Data movement (own `.movement` section; the default one cannot carry inputs of
// different sizes over 8 KB):
//   shim0.mm2s0 streams x, then w (and gamma, beta, mean, var for conv_block) into tile
//   (0,0).s2mm0. The x BD writes the image rows into the interior of a padded image
//   [H + 2p, H + 2p, c] (dims: rows at the padded row stride); it waits for core lock 48,
//   which the core releases after clearing the whole padded buffer (the border stays 0).
//   The last input BD releases core lock 49. The core computes all of y into tile memory,
//   releases lock 50, and tile.mm2s0 -> shim0.s2mm0 writes y to DDR.
// With c_out = 8 one 16-lane vector holds two neighbouring output pixels; the shim then
// streams every weight row (and every BatchNorm vector) twice (a stride-0 dimension) so
// lanes 8..15 see the same weights as lanes 0..7.
//
// Arithmetic: fp32 accumulators (element-wise VMAC.E.BF16, one bf16 x value broadcast
// against a row of weights), one rounding to bf16 at the store.
#include <stdexcept>
#include <string>
#include <vector>

#include "platforms/aie_ml/pack/baselines/block_loop.h"
#include "platforms/aie_ml/pack/baselines/fp_steps.h"
#include "platforms/aie_ml/pack/baselines/generators.h"
#include "platforms/aie_ml/pack/baselines/movement_text.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {
namespace {

constexpr uint64_t kTileBytes = 64 * 1024;  // compute-tile data memory

int64_t param(const Instance& inst, const std::string& name) {
  const auto it = inst.params().find(name);
  if (it == inst.params().end())
    throw std::invalid_argument("task '" + inst.task().name + "' configuration has no parameter '" + name + "'");
  return it->second;
}

uint64_t align32(uint64_t v) { return (v + 31) / 32 * 32; }
std::string num(int64_t v) { return std::to_string(v); }
std::string core(uint64_t tile_address) { return num(int64_t(kAieMlOwnTileBase + tile_address)); }

// The shape of one convolution kernel.
struct ConvShape {
  std::string task;
  bool depthwise = false, batchnorm = false;
  int64_t H = 0, c_in = 0, c_out = 0, k = 0;
  int64_t p() const { return (k - 1) / 2; }
  int64_t Hp() const { return H + 2 * p(); }
  // Output pixels per 16-lane vector (2 when c_out = 8) and vectors per pixel group.
  int64_t pixels() const { return c_out == 8 ? 2 : 1; }
  int64_t vectors() const { return c_out == 8 ? 1 : c_out / 16; }
  // Weight rows as the tile holds them: k*k*c_in rows of c_out (or duplicated 8) bf16.
  int64_t w_rows() const { return depthwise ? k * k : k * k * c_in; }
  int64_t w_row_elems() const { return c_out == 8 ? 16 : c_out; }
};

std::string shape_problem(const ConvShape& s) {
  if (s.k < 1 || s.k % 2 == 0) return "k must be odd";
  if (s.depthwise && s.c_in % 16 != 0) return "c must be a multiple of 16";
  if (!s.depthwise && s.c_out != 8 && s.c_out % 16 != 0) return "c_out must be 8 or a multiple of 16";
  if (!s.depthwise && s.c_in % 2 != 0) return "c_in must be even";
  if (s.pixels() == 2 && s.H % 2 != 0) return "H must be even when c_out = 8";
  return "";
}

// Tile-memory placement (tile addresses).
struct TilePlan {
  uint64_t x = 0, x_bytes = 0, w = 0, w_bytes = 0, bn = 0, bn_bytes = 0, y = 0, y_bytes = 0;
};

TilePlan tile_plan(const ConvShape& s) {
  TilePlan t;
  t.x_bytes = align32(uint64_t(s.Hp() * s.Hp() * s.c_in * 2));
  t.w = t.x_bytes;
  t.w_bytes = align32(uint64_t(s.w_rows() * s.w_row_elems() * 2));
  t.bn = t.w + t.w_bytes;
  t.bn_bytes = s.batchnorm ? 4 * align32(uint64_t(s.vectors() * 32)) : 0;
  t.y = t.bn + t.bn_bytes;
  t.y_bytes = align32(uint64_t(s.H * s.H * s.c_out * 2));
  if (t.y + t.y_bytes > kTileBytes)
    throw std::invalid_argument("aie_ml " + s.task + " baseline: padded image, weights and output (" +
                                num(int64_t(t.y + t.y_bytes)) + " bytes) do not fit the 64 KB tile memory");
  return t;
}

// The `.movement` section. BatchNorm vectors land in t_bn: gamma, beta, mean, var in
// turn, 16 bf16 per output vector j each.
std::string movement(const Instance& inst, const ConvShape& s, const TilePlan& t) {
  const int64_t p = s.p(), Hp = s.Hp(), ci = s.c_in;
  const uint64_t x_ddr_bytes = uint64_t(s.H * s.H * ci * 2), y_ddr_bytes = uint64_t(s.H * s.H * s.c_out * 2);
  std::string y = "locks:\n"
                  "  - {tile: [0, 0], id: 0, init: 0}   # padded image cleared (core lock 48)\n"
                  "  - {tile: [0, 0], id: 1, init: 0}   # all inputs in tile memory (core lock 49)\n"
                  "  - {tile: [0, 0], id: 2, init: 0}   # y computed (core lock 50)\n"
                  "buffers:\n";
  auto buffer = [&](const std::string& name, const std::string& tl, uint64_t address, uint64_t size) {
    y += "  - {name: " + name + ", tile: " + tl + ", address: " + hex(address) + ", size: " + num(int64_t(size)) + "}\n";
  };
  std::vector<std::string> bn_names;
  if (s.batchnorm) bn_names = {"gamma", "beta", "mean", "var"};
  buffer("ddr_x", "shim0", aie_ml_tensor_offset(inst, "x"), x_ddr_bytes);
  buffer("ddr_w", "shim0", aie_ml_tensor_offset(inst, "w"),
         uint64_t(s.w_rows() * (s.depthwise ? s.c_in : s.c_out) * 2));
  for (const auto& n : bn_names) buffer("ddr_" + n, "shim0", aie_ml_tensor_offset(inst, n), uint64_t(s.c_out * 2));
  buffer("ddr_y", "shim0", aie_ml_tensor_offset(inst, "y"), y_ddr_bytes);
  buffer("t_x", tile(0, 0), t.x, t.x_bytes);
  buffer("t_w", tile(0, 0), t.w, t.w_bytes);
  if (s.batchnorm) buffer("t_bn", tile(0, 0), t.bn, t.bn_bytes);
  buffer("t_y", tile(0, 0), t.y, t.y_bytes);

  // Shim side: x, w, BatchNorm vectors in this order on mm2s0.
  std::vector<Bd> in;
  in.push_back({"x_in", "shim0", "mm2s0", "ddr_x", 0, x_ddr_bytes});
  Bd w_in{"w_in", "shim0", "mm2s0", "ddr_w", 0, uint64_t(s.w_rows() * s.w_row_elems() * 2)};
  if (s.c_out == 8) w_in.dims = dims({{4, 1}, {2, 0}, {s.w_rows(), 4}});  // each 8-wide row twice
  in.push_back(w_in);
  for (const auto& n : bn_names) {
    Bd b{n + "_in", "shim0", "mm2s0", "ddr_" + n, 0, uint64_t(s.vectors() * 32)};
    if (s.c_out == 8) b.dims = dims({{4, 1}, {2, 0}});
    in.push_back(b);
  }
  // Tile side: the same sequence on s2mm0.
  std::vector<Bd> store;
  Bd xs{"x_store", tile(0, 0), "s2mm0", "t_x", uint64_t((p * Hp + p) * ci * 2), x_ddr_bytes,
        dims({{s.H * ci / 2, 1}, {s.H, Hp * ci / 2}})};
  xs.acquire_lock = 0;
  store.push_back(xs);
  store.push_back({"w_store", tile(0, 0), "s2mm0", "t_w", 0, in[1].length});
  for (size_t i = 0; i < bn_names.size(); ++i)
    store.push_back({bn_names[i] + "_store", tile(0, 0), "s2mm0", "t_bn", uint64_t(i) * align32(uint64_t(s.vectors() * 32)),
                     uint64_t(s.vectors() * 32)});
  store.back().release_lock = 1;
  for (size_t i = 0; i + 1 < in.size(); ++i) in[i].next = in[i + 1].name;
  for (size_t i = 0; i + 1 < store.size(); ++i) store[i].next = store[i + 1].name;
  Bd y_out{"y_out", tile(0, 0), "mm2s0", "t_y", 0, y_ddr_bytes};
  y_out.acquire_lock = 2;
  Bd y_ddr{"y_ddr", "shim0", "s2mm0", "ddr_y", 0, y_ddr_bytes};

  y += "bds:\n";
  for (const auto& b : in) y += bd_yaml(b);
  for (const auto& b : store) y += bd_yaml(b);
  y += bd_yaml(y_out) + bd_yaml(y_ddr);
  y += "routes:\n"
       "  - {from: {tile: shim0, port: mm2s0}, to: {tile: [0, 0], port: s2mm0}}\n"
       "  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: shim0, port: s2mm0}}\n";
  return y;
}

// BatchNorm folded per output lane: scale = gamma / sqrt(var + eps) and
// shift = beta - mean * scale, fp32, kept as bf16 hi/lo parts (scale) and an accumulator
// (shift) per vector j: scale j in w(16 + 2j), w(17 + 2j), shift j in bm(10 + j).
// 1/sqrt per lane: the scalar unit forms 0x5F3759DF - (bits >> 1) lane by lane, then
// three Newton steps y = y (1.5 - (v/2) y^2) as fp_steps' rsqrt_uniform does, as a
// zero-overhead loop (unrolled, two vectors' steps overflow the 16 KB program memory once
// the exposed pipeline's waits are bundles).
void fold_batchnorm(KernelText& c, const ConvShape& s, const TilePlan& t) {
  const FpScratch f;
  const uint64_t stride = align32(uint64_t(s.vectors() * 32));
  c.comment("BatchNorm folded into a scale and a shift per output lane");
  for (int64_t j = 0; j < s.vectors(); ++j) {
    auto at = [&](int which) { return core(t.bn + uint64_t(which) * stride + uint64_t(j) * 32); };
    c.op("MOVXM r20, " + at(3), "var, vector " + num(j));
    c.op("MOV p0, r20");
    c.op("VLDA.CONV.FP32.BF16 bm0, [p0]");
    const_acc(c, "bm1", fp32_bits(1e-5), "eps");
    c.op("VADD.F bm0, bm0, bm1", "v = var + eps");
    // Per-lane guess.
    c.op("VMOV x6, bm0");
    c.op("MOV r6, #-1");
    c.op("MOVXM r7, " + std::to_string(0x5F3759DFu));
    for (int l = 0; l < 16; ++l) {
      c.op("VEXTRACT.S32 r5, x6, #" + num(l));
      c.op("ASHL r5, r5, r6");
      c.op("SUB r5, r7, r5");
      c.op("VINSERT.32 x6, #" + num(l) + ", r5");
    }
    c.op("VMOV " + f.y + ", x6", "guess of 1/sqrt(v)");
    c.op("MOVXM r4, " + std::to_string(bf16_bits(0.5)));
    c.op("VBCST.16 x7, r4");
    split(c, "bm0", f.wah, f.wal, f.tmp);
    c.op("VMUL.E.BF16 " + f.e + ", " + f.wah + ", w14", "v / 2");
    c.op("VMAC.E.BF16 " + f.e + ", " + f.e + ", " + f.wal + ", w14");
    split(c, f.e, f.wah, f.wal, f.tmp);
    const_acc(c, f.p, fp32_bits(1.5), "1.5");
    c.loop("rsqrt" + num(j), 3, [&f](KernelText& b) {  // a loop, not unrolled: program memory
      split(b, f.y, f.wyh, f.wyl, f.tmp);
      mul_split(b, f.e, f.wyh, f.wyl, f.wyh, f.wyl);
      split(b, f.e, f.weh, f.wel, f.tmp);
      mul_split(b, f.e, f.wah, f.wal, f.weh, f.wel);
      b.op("VSUB.F " + f.e + ", " + f.p + ", " + f.e, "1.5 - (v/2) y^2");
      split(b, f.e, f.weh, f.wel, f.tmp);
      mul_split(b, f.y, f.wyh, f.wyl, f.weh, f.wel);
    });
    // scale = rs * gamma (gamma is bf16: exact operand).
    c.op("MOVXM r20, " + at(0), "gamma");
    c.op("MOV p0, r20");
    c.op("VLDA w20, [p0]");
    split(c, f.y, f.wyh, f.wyl, f.tmp);
    c.op("VMUL.E.BF16 bm1, " + f.wyh + ", w20");
    c.op("VMAC.E.BF16 bm1, bm1, " + f.wyl + ", w20", "scale");
    const std::string sh = "w" + num(16 + 2 * j), sl = "w" + num(17 + 2 * j), shift = "bm" + num(10 + j);
    split(c, "bm1", sh, sl, f.tmp);
    // shift = beta - mean * scale.
    c.op("MOVXM r20, " + at(2), "mean");
    c.op("MOV p0, r20");
    c.op("VLDA w20, [p0]");
    c.op("VMUL.E.BF16 bm1, w20, " + sh);
    c.op("VMAC.E.BF16 bm1, bm1, w20, " + sl, "mean * scale");
    c.op("MOVXM r20, " + at(1), "beta");
    c.op("MOV p0, r20");
    c.op("VLDA.CONV.FP32.BF16 " + shift + ", [p0]");
    c.op("VSUB.F " + shift + ", " + shift + ", bm1", "shift");
  }
}

std::string conv_kernel(const Instance& inst, const ConvShape& s) {
  const std::string problem = shape_problem(s);
  if (!problem.empty()) throw std::invalid_argument("aie_ml " + s.task + " baseline: " + problem);
  const TilePlan t = tile_plan(s);
  const int64_t ci = s.c_in, Hp = s.Hp(), k = s.k, P = s.pixels();
  KernelText c;
  c.comment(s.task + ": H " + num(s.H) + ", c_in " + num(ci) + ", c_out " + num(s.c_out) + ", k " + num(k) +
            "; tile addresses: padded image " + hex(t.x) + ", weights at " + hex(t.w) + ", y at " + hex(t.y));
  c.op("MOVXM r0, " + core(t.x), "clear the padded image (its border stays zero)");
  c.op("MOV p0, r0");
  c.op("VCLR x0");
  c.zero_overhead_loop("clear", t.x_bytes / 32, {"VST w0, [p0], #32"});
  c.op("REL 48, 1", "the DMA may write the image interior");
  c.op("ACQ 49, 1", "x and weights arrived");
  if (s.batchnorm) fold_batchnorm(c, s, t);
  c.op("MOVXM r9, " + num(0xFF00), "lanes 8..15 take the second pixel");
  c.op("MOVXM r10, " + core(t.x), "x at padded (r, c): the window of output pixel (r, c)");
  c.op("MOVXM r20, " + core(t.y));
  c.op("MOV p3, r20", "y, written in order");
  c.op("MOVXM r11, " + num(s.H - 1), "rows left - 1");
  c.label("row");
  c.op("MOVXM r12, " + num(s.H / P - 1), "pixel groups left - 1");
  c.label("group");
  const int64_t x_row_skip = (Hp - k) * ci * 2;  // from the end of a window row to the next
  for (int64_t j = 0; j < s.vectors(); ++j) {
    const std::string tag = "v" + num(j);
    if (s.depthwise) {
      c.op("MOVXM r15, " + num(j * 32));
      c.op("ADD r16, r10, r15");
      c.op("MOV p0, r16", "x window, channels 16j..");
    } else {
      c.op("MOV p0, r10", "x window");
    }
    c.op("MOVXM r21, " + core(t.w + uint64_t(j) * 32));
    c.op("MOV p1, r21", "weights, lanes 16j..");
    c.op("VCLR bm0");
    c.op("MOVXM r14, " + num(k - 1), "window rows left - 1");
    c.label(tag + "_tap_row");
    if (s.depthwise) {
      // x and w vectors of 16 channels, one per tap of the window row.
      c.zero_overhead_loop(tag + "_dw", uint64_t(k),
                           {"VLDA w0, [p0], #" + num(ci * 2) + " ;; VLDB w2, [p1], #" + num(ci * 2),
                            "VMAC.E.BF16 bm0, bm0, w0, w2"});
    } else {
      // One window row is k * c_in consecutive x values; each times a weight row.
      const std::string wstep = num(s.w_row_elems() * 2);
      std::vector<std::string> body;
      if (P == 2) {
        body = {"LDA.U16 r8, [p0, #" + num(ci * 2) + "]", "LDA.U16 r7, [p0], #2 ;; VLDB w0, [p1], #" + wstep,
                "VBCST.16 x1, r7", "VBCST.16 x2, r8", "VSEL.16 x1, x1, x2, r9", "VMAC.E.BF16 bm0, bm0, w2, w0"};
      } else {
        body = {"LDA.U16 r7, [p0], #2 ;; VLDB w0, [p1], #" + wstep, "VBCST.16 x1, r7", "VMAC.E.BF16 bm0, bm0, w2, w0"};
      }
      c.zero_overhead_loop(tag + "_mac", uint64_t(k * ci), body);
    }
    const int64_t skip = s.depthwise ? (Hp - k) * ci * 2 : x_row_skip;
    c.op("MOV r16, p0");
    c.op("MOVXM r15, " + num(skip));
    c.op("ADD r16, r16, r15");
    c.op("MOV p0, r16", "next window row");
    c.op("JNZD r14, r14, " + tag + "_tap_row");
    if (s.batchnorm) {
      const FpScratch f;
      split(c, "bm0", f.wah, f.wal, f.tmp);
      mul_split(c, "bm1", f.wah, f.wal, "w" + num(16 + 2 * j), "w" + num(17 + 2 * j));
      c.op("VADD.F bm1, bm1, bm" + num(10 + j), "z scale + shift");
      c.op("VCONV.BF16.FP32 w2, bm1");
      c.op("VCLR x2");
      c.op("VMAX.BF16 x1, x1, x2", "ReLU");
      c.op("VST w2, [p3], #32");
    } else {
      c.op("VST.CONV.BF16.FP32 bm0, [p3], #32");
    }
  }
  c.op("MOVXM r15, " + num(P * ci * 2));
  c.op("ADD r10, r10, r15", "next pixel group");
  c.op("JNZD r12, r12, group");
  c.op("MOVXM r15, " + num((Hp - s.H) * ci * 2));
  c.op("ADD r10, r10, r15", "next padded row");
  c.op("JNZD r11, r11, row");
  c.op("REL 50, 1", "y may leave");
  c.op("DONE");
  return ".tile 0 0\n" + c.str() + ".movement\n" + movement(inst, s, t);
}

ConvShape conv_shape(const Instance& inst) {
  ConvShape s;
  s.task = inst.task().name;
  s.H = param(inst, "H");
  s.k = param(inst, "k");
  if (s.task == "depthwise_conv") {
    s.depthwise = true;
    s.c_in = s.c_out = param(inst, "c");
  } else {
    s.c_in = param(inst, "c_in");
    s.c_out = param(inst, "c_out");
    s.batchnorm = s.task == "conv_block";
  }
  return s;
}

}  // namespace

GeneratorMap conv_generators() {
  GeneratorMap g;
  for (const char* task : {"conv2d", "depthwise_conv", "conv_block"})
    g[task] = [](const Instance& inst, const nlohmann::json&) { return conv_kernel(inst, conv_shape(inst)); };
  return g;
}

}  // namespace tlmcraft::tasks::aie_ml
