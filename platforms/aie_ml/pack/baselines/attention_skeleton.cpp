#include "platforms/aie_ml/pack/baselines/attention_skeleton.h"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "platforms/aie_ml/pack/baselines/fp_steps.h"
#include "platforms/aie_ml/pack/baselines/movement_text.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {
namespace {

constexpr uint32_t kOwn = kAieMlOwnTileBase;
constexpr uint32_t kRegion = 0x4000;
// Compute-tile locks (the core adds 48).
enum TileLock : int { kKEmpty = 0, kKFull = 1, kVEmpty = 2, kVFull = 3, kQEmpty = 4, kQFull = 5, kOFull = 6 };
// mem0 locks: all inputs arrived (released once per reader); every row tile's O rows arrived.
constexpr int kMemInputs = 0, kMemOutputs = 1;

int64_t param(const Instance& inst, const std::string& name) {
  const auto it = inst.params().find(name);
  if (it == inst.params().end())
    throw std::invalid_argument("task '" + inst.task().name + "' configuration has no parameter '" + name + "'");
  return it->second;
}

std::string addr(uint32_t a) { return std::to_string(kOwn + a); }
std::string lock(int id) { return std::to_string(48 + id); }

// Constants every row body reads (attention_skeleton.h), the zeroed K^T padding and the key mask.
void common_setup(KernelText& t, const AttentionPlan& p) {
  const int64_t s = p.s, d = p.d, sp = p.sp();
  const double scale = 1.0 / std::sqrt(double(d));
  fp_constants(t);
  const double l2e = 1.0 / std::log(2.0);
  const_bf16(t, "w17", bf16_bits(l2e), "log2(e), high part");
  const_bf16(t, "w18", bf16_low_bits(l2e), "log2(e), middle part");
  const double ln2 = std::log(2.0);
  const_bf16(t, "w16", bf16_bits(std::pow(ln2, 5) / 120), "ln2^5/5! (exp2's c5)");
  const_bf16(t, "w20", bf16_bits(scale), "c = 1/sqrt(d), high part");
  const_bf16(t, "w19", bf16_low_bits(scale), "c, low part");
  if (sp > s) {
    t.comment("zero K^T (its padding columns are never written)");
    t.op("VCLR x1");
    t.op("MOVXM p0, " + addr(kAttTileKt));
    t.zero_overhead_loop("ktzero", uint64_t(sp * d / 16), {"VST w2, [p0], #32"});
  }
  t.comment("lane mask for the sum of E: bf16 1.0 for keys < s, 0 for padding");
  t.op("MOVXM r8, " + std::to_string(0x3F803F80u));
  t.op("MOV r9, #0");
  t.op("MOVXM p0, " + addr(kAttTileKt));
  for (int w = 0; w < 8; ++w) t.op(std::string(2 * w < s ? "ST r8" : "ST r9") + ", [p0], #4");
  t.op("MOVXM p0, " + addr(kAttTileKt));
  t.op("VLDA w21, [p0, #0]");
}

// K_g [s, d] -> K^T [d, sp], column by column, 4 keys per step.
void transpose_k(KernelText& t, const AttentionPlan& p) {
  const int64_t s = p.s, d = p.d, sp = p.sp();
  t.comment("transpose K_g [s, d] -> K^T [d, sp], column by column, 4 keys per step");
  t.op("MOVXM r10, " + addr(kAttTileK));
  t.op("MOVXM r11, " + addr(kAttTileKt));
  t.op("MOVXM r12, " + std::to_string(d - 1));
  t.op("MOVXM r9, " + std::to_string(sp * 2));
  t.label("column");
  t.op("MOV p0, r10");
  t.op("MOV p1, r11");
  const std::string step = "#" + std::to_string(2 * d);
  t.zero_overhead_loop("transpose", uint64_t(s / 4),
                       {"LDA.U16 r13, [p0], " + step, "LDA.U16 r14, [p0], " + step, "LDA.U16 r15, [p0], " + step,
                        "LDA.U16 r16, [p0], " + step, "ST.S16 r13, [p1], #2", "ST.S16 r14, [p1], #2",
                        "ST.S16 r15, [p1], #2", "ST.S16 r16, [p1], #2"});
  t.op("ADD r10, r10, #2");
  t.op("ADD r11, r11, r9");
  t.op("JNZD r12, r12, column");
}

}  // namespace

AttentionPlan attention_plan(const Instance& inst) {
  const std::string& task = inst.task().name;
  AttentionPlan p;
  p.s = param(inst, "s");
  const int64_t h = param(inst, "h");
  if (task == "scaled_dot_product" || task == "flash_attention") {
    p.heads = p.kv_heads = 1;
  } else if (task == "mha") {
    p.heads = p.kv_heads = param(inst, "heads");
  } else if (task == "mqa") {
    p.heads = param(inst, "heads");
    p.kv_heads = 1;
  } else if (task == "gqa") {
    p.heads = param(inst, "heads");
    p.kv_heads = param(inst, "kv_heads");
  } else {
    throw std::invalid_argument("no AIE-ML attention baseline for task '" + task + "'");
  }
  if (p.heads < 1 || p.kv_heads < 1 || h % p.heads != 0 || p.heads % p.kv_heads != 0)
    throw std::invalid_argument("aie_ml attention baseline: heads must divide h and kv_heads must divide heads");
  p.d = h / p.heads;
  p.q_offset = aie_ml_tensor_offset(inst, "Q");
  p.k_offset = aie_ml_tensor_offset(inst, "K");
  p.v_offset = aie_ml_tensor_offset(inst, "V");
  p.o_offset = aie_ml_tensor_offset(inst, "O");
  p.inputs_end = AieMlLayout(inst.task(), inst.params()).inputs_end();
  return p;
}

std::string attention_plan_problem(const AttentionPlan& p) {
  const std::string at = "aie_ml attention baseline (s=" + std::to_string(p.s) + ", d=" + std::to_string(p.d) + "): ";
  if (p.s < 4 || p.s % 4 != 0) return at + "s must be a positive multiple of 4";
  if (p.s > 16 && p.s % 16 != 0) return at + "s above 16 must be a multiple of 16";
  if (p.d < 16 || p.d % 16 != 0 || p.d > 64) return at + "the head width d must be 16, 32, 48 or 64";
  if (uint64_t(p.sp() * p.d * 2) > kRegion || uint64_t(p.s * p.d * 2) > kRegion)
    return at + "K^T, V or Q of one head exceeds its 16 KB region";
  if (p.sp() * 2 > 4064) return at + "a K^T row exceeds the vector post-modify range";
  if (p.v_offset < p.k_offset) return at + "V must follow K in DDR";
  if (p.row_tiles < 1 || p.row_tiles > 4 || p.s % p.row_tiles != 0) return at + "row_tiles must be 1..4 and divide s";
  const uint64_t o_end = (p.inputs_end + 63) / 64 * 64 + uint64_t(p.s * p.h()) * 2;
  if ((p.row_tiles == 1 ? p.inputs_end : o_end) > (512u << 10)) return at + "the inputs do not fit the memory tile";
  return "";
}

std::string attention_core_program(const AttentionPlan& p, const RowBody& setup, const RowBody& row) {
  const int64_t s = p.s, d = p.d;
  const int64_t group = p.heads / p.kv_heads;
  KernelText t;
  t.comment("attention: s=" + std::to_string(s) + " heads=" + std::to_string(p.heads) +
            " kv_heads=" + std::to_string(p.kv_heads) + " d=" + std::to_string(d));
  common_setup(t, p);
  setup(t, p);
  t.op("MOVXM r20, " + std::to_string(p.kv_heads - 1), "key/value heads left");
  t.label("group");
  t.op("ACQ " + lock(kKFull) + ", 1", "K_g has arrived");
  transpose_k(t, p);
  t.op("ACQ " + lock(kVFull) + ", 1", "V_g has arrived");
  t.op("MOVXM r21, " + std::to_string(group - 1), "query heads of this group left");
  t.label("head");
  t.op("ACQ " + lock(kQFull) + ", 1", "Q_j has arrived");
  t.op("MOVXM r22, " + addr(kAttTileQo), "q row i, then O row i");
  t.op("MOVXM r23, " + std::to_string(p.rows() - 1), "rows left");
  t.label("row");
  row(t, p);
  t.op("MOVXM r9, " + std::to_string(2 * d));
  t.op("ADD r22, r22, r9", "next row");
  t.op("JNZD r23, r23, row");
  t.op("REL " + lock(kOFull) + ", 1", "O_j is complete");
  t.op("JNZD r21, r21, head");
  t.op("REL " + lock(kVEmpty) + ", 1");
  t.op("REL " + lock(kKEmpty) + ", 1");
  t.op("JNZD r20, r20, group");
  t.op("DONE");
  return t.str();
}

void weighted_rows_loop(KernelText& t, const std::string& what, int64_t keys, int64_t vectors,
                        const std::function<std::string(int64_t)>& acc) {
  t.begin_loop("pv", uint64_t(keys));
  t.op("LDA.U16 r13, [p0], #2", what + "_hi[t]");
  t.op("LDA.U16 r14, [p3], #2", what + "_lo[t]");
  t.op("VBCST.16 x11, r13");
  t.op("VBCST.16 x0, r14");
  for (int64_t v = 0; v < vectors; ++v) t.op("VLDA w" + std::to_string(2 + v) + ", [p1], #32", "V[t, 16 v ..]");
  for (int64_t v = 0; v < vectors; ++v) {
    const std::string a = acc(v), w = "w" + std::to_string(2 + v);
    t.op("VMAC.E.BF16 " + a + ", " + a + ", " + w + ", w22");
    const std::string last = "VMAC.E.BF16 " + a + ", " + a + ", " + w + ", w0";
    if (v + 1 < vectors)
      t.op(last);
    else
      t.loop_last(last);
  }
}

std::string attention_movement(const AttentionPlan& p) {
  const int64_t s = p.s, d = p.d, R = p.row_tiles, rows = p.rows();
  const uint64_t head_bytes = uint64_t(s * d) * 2, q_bytes = uint64_t(rows * d) * 2;
  const uint64_t o_bytes = uint64_t(s * p.h()) * 2, mem_out = (p.inputs_end + 63) / 64 * 64;
  // Names and tiles of row tile r: the single-tile kernel keeps its original names.
  auto sx = [&](int64_t r) { return R == 1 ? std::string() : "_" + std::to_string(r); };
  auto tl = [](int64_t r) { return tile(0, uint32_t(r)); };
  std::ostringstream y;
  y << "locks:\n";
  for (int64_t r = 0; r < R; ++r)
    for (int id : {kKEmpty, kVEmpty, kQEmpty}) y << "  - {tile: " << tl(r) << ", id: " << id << ", init: 1}\n";
  y << "buffers:\n";
  y << "  - {name: ddr_in, tile: shim0, address: 0, size: " << p.inputs_end << "}\n";
  y << "  - {name: ddr_o, tile: shim0, address: " << p.o_offset << ", size: " << o_bytes << "}\n";
  y << "  - {name: mem_in, tile: mem0, address: 0, size: " << p.inputs_end << "}\n";
  if (R > 1) y << "  - {name: mem_out, tile: mem0, address: " << mem_out << ", size: " << o_bytes << "}\n";
  for (int64_t r = 0; r < R; ++r) {
    y << "  - {name: t_k" << sx(r) << ", tile: " << tl(r) << ", address: " << kAttTileK << ", size: " << head_bytes
      << "}\n";
    y << "  - {name: t_v" << sx(r) << ", tile: " << tl(r) << ", address: " << kAttTileV << ", size: " << head_bytes
      << "}\n";
    y << "  - {name: t_qo" << sx(r) << ", tile: " << tl(r) << ", address: " << kAttTileQo << ", size: " << q_bytes
      << "}\n";
  }
  std::vector<Bd> bds;
  std::string routes = "  - {from: {tile: shim0, port: mm2s0}, to: {tile: mem0, port: s2mm0}}\n";
  bds.push_back(Bd{"in_rd", "shim0", "mm2s0", "ddr_in", 0, p.inputs_end});
  Bd in_wr{"in_wr", "mem0", "s2mm0", "mem_in", 0, p.inputs_end};
  in_wr.release_lock = kMemInputs;
  in_wr.release_value = int(1 + R);  // the K/V reader and one q reader per tile
  bds.push_back(in_wr);
  // K_g then V_g for every key/value head g: head columns, rows, K or V, heads.
  Bd kv{"kv_rd", "mem0", "mm2s0", "mem_in", p.k_offset, uint64_t(p.kv_heads) * 2 * head_bytes};
  kv.dims = "[[" + std::to_string(d / 2) + ", 1], [" + std::to_string(s) + ", " + std::to_string(p.hk() / 2) +
            "], [2, " + std::to_string((p.v_offset - p.k_offset) / 4) + "], [" + std::to_string(p.kv_heads) + ", " +
            std::to_string(d / 2) + "]]";
  kv.acquire_lock = kMemInputs;
  bds.push_back(kv);
  // Tile r's q rows of every head: head columns, its rows, heads.
  const std::string row_head_dims = dims({{d / 2, 1}, {rows, p.h() / 2}, {p.heads, d / 2}});
  for (int64_t r = 0; r < R; ++r) {
    const std::string mm2s = "mm2s" + std::to_string(1 + r);
    Bd q{"q_rd" + sx(r),
         "mem0",
         mm2s,
         "mem_in",
         p.q_offset + uint64_t(r * rows * p.h()) * 2,
         uint64_t(p.heads) * q_bytes};
    q.dims = row_head_dims;
    q.acquire_lock = kMemInputs;
    bds.push_back(q);
  }
  for (int64_t r = 0; r < R; ++r) {
    const std::string t = tl(r), x = sx(r);
    Bd tk{"t_kin" + x, t, "s2mm0", "t_k" + x, 0, head_bytes};
    tk.acquire_lock = kKEmpty;
    tk.release_lock = kKFull;
    Bd tv{"t_vin" + x, t, "s2mm0", "t_v" + x, 0, head_bytes};
    tv.acquire_lock = kVEmpty;
    tv.release_lock = kVFull;
    for (const Bd& b : ring({tk, tv})) bds.push_back(b);
    Bd tq{"t_qin" + x, t, "s2mm1", "t_qo" + x, 0, q_bytes};
    tq.acquire_lock = kQEmpty;
    tq.release_lock = kQFull;
    tq.next = "t_qin" + x;
    bds.push_back(tq);
    Bd to{"t_oout" + x, t, "mm2s0", "t_qo" + x, 0, q_bytes};
    to.acquire_lock = kOFull;
    to.release_lock = kQEmpty;
    to.next = "t_oout" + x;
    bds.push_back(to);
    routes += "  - {from: {tile: mem0, port: mm2s0}, to: {tile: " + t + ", port: s2mm0}}\n";
    routes += "  - {from: {tile: mem0, port: mm2s" + std::to_string(1 + r) + "}, to: {tile: " + t + ", port: s2mm1}}\n";
  }
  if (R == 1) {
    Bd ow{"o_wr", "shim0", "s2mm0", "ddr_o", 0, uint64_t(p.heads) * head_bytes};
    ow.dims = dims({{d / 2, 1}, {s, p.h() / 2}, {p.heads, d / 2}});
    bds.push_back(ow);
    routes += "  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: shim0, port: s2mm0}}\n";
  } else {
    for (int64_t r = 0; r < R; ++r) {
      const std::string s2mm = "s2mm" + std::to_string(1 + r);
      Bd oi{"o_in" + sx(r), "mem0", s2mm, "mem_out", uint64_t(r * rows * p.h()) * 2, uint64_t(p.heads) * q_bytes};
      oi.dims = row_head_dims;
      oi.release_lock = kMemOutputs;
      bds.push_back(oi);
      routes += "  - {from: {tile: " + tl(r) + ", port: mm2s0}, to: {tile: mem0, port: " + s2mm + "}}\n";
    }
    const std::string mm2s = "mm2s" + std::to_string(1 + R);
    Bd orr{"o_rd", "mem0", mm2s, "mem_out", 0, o_bytes};
    orr.acquire_lock = kMemOutputs;
    orr.acquire_value = int(R);
    bds.push_back(orr);
    bds.push_back(Bd{"o_wr", "shim0", "s2mm0", "ddr_o", 0, o_bytes});
    routes += "  - {from: {tile: mem0, port: " + mm2s + "}, to: {tile: shim0, port: s2mm0}}\n";
  }
  y << "bds:\n";
  for (const Bd& b : bds) y << bd_yaml(b);
  y << "routes:\n" << routes;
  return y.str();
}

std::string attention_kernel(const AttentionPlan& p, const std::string& title, const RowBody& setup,
                             const RowBody& row) {
  const std::string core = attention_core_program(p, setup, row);
  std::string text = "; " + title + "\n";
  for (int64_t r = 0; r < p.row_tiles; ++r) text += ".tile 0 " + std::to_string(r) + "\n" + core;
  return text + ".movement\n" + attention_movement(p);
}

}  // namespace tlmcraft::tasks::aie_ml
