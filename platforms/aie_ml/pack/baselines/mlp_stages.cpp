// Multi-stage MLP kernel files (see mlp_stages.h): matmul-kernel stages moved to other
// array columns by editing their generated text, elementwise stages, DDR-scratch barriers.
#include "platforms/aie_ml/pack/baselines/mlp_stages.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "platforms/aie_ml/pack/baselines/block_loop.h"
#include "platforms/aie_ml/pack/baselines/fp_steps.h"
#include "platforms/aie_ml/pack/baselines/movement_text.h"

namespace tlmcraft::tasks::aie_ml {
namespace {

// A generated matmul kernel file cut into its core program(s) and `.movement` sections.
struct KernelParts {
  std::string cores, locks, buffers, bds, routes;
};

std::string between(const std::string& s, const std::string& from, const std::string& to) {
  const size_t a = s.find(from);
  const size_t b = to.empty() ? s.size() : s.find(to, a == std::string::npos ? 0 : a);
  if (a == std::string::npos || b == std::string::npos)
    throw std::logic_error("mlp stages: matmul kernel text has no '" + from + "' section");
  return s.substr(a + from.size(), b - a - from.size());
}

KernelParts split_kernel(const std::string& k) {
  KernelParts p;
  const size_t mv = k.find(".movement\n");
  if (mv == std::string::npos) throw std::logic_error("mlp stages: matmul kernel text has no .movement");
  p.cores = k.substr(0, mv);
  const std::string m = k.substr(mv);
  p.locks = between(m, "\nlocks:\n", "\nbuffers:\n") + "\n";
  p.buffers = between(m, "\nbuffers:\n", "\nbds:\n") + "\n";
  p.bds = between(m, "\nbds:\n", "\nroutes:\n") + "\n";
  p.routes = between(m, "\nroutes:\n", "");
  if (p.locks == "\n") p.locks.clear();
  return p;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

std::string prefix_names(const std::string& s, const std::string& prefix) {
  static const std::regex name(R"(\b(name|buffer|next): ([A-Za-z_][A-Za-z0-9_]*))");
  return std::regex_replace(s, name, "$1: " + prefix + "$2");
}

// Applies `edit` to every line of `text` containing all of `keys`; returns how many.
int edit_lines(std::string& text, const std::vector<std::string>& keys, const std::function<void(std::string&)>& edit) {
  std::istringstream in(text);
  std::ostringstream out;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    bool all = true;
    for (const auto& k : keys) all = all && line.find(k) != std::string::npos;
    if (all) {
      edit(line);
      ++n;
    }
    out << line << "\n";
  }
  text = out.str();
  return n;
}

// A BD with the given fields and no dims, next or locks.
Bd make_bd(const std::string& name, const std::string& tile_name, const std::string& channel, const std::string& buffer,
           uint64_t offset, uint64_t length) {
  Bd b;
  b.name = name;
  b.tile = tile_name;
  b.channel = channel;
  b.buffer = buffer;
  b.offset = offset;
  b.length = length;
  return b;
}

// Adds ", <field>" before the closing brace of a one-line BD.
void add_field(std::string& bd, const std::string& field) { bd.insert(bd.rfind('}'), ", " + field); }

// SiLU of the fp32 accumulator z, stored as 16 bf16 at [p2] (post-increment):
// z / (1 + 2^t), t = -z log2(e), with the fp32 steps of fp_steps.h. Clobbers bm2..bm10,
// w2..w9, w12, w13; z's partner accumulator (bm0/bm1) is untouched.
void silu_value(KernelText& t, const std::string& z) {
  split(t, z, "w12", "w13", "bm7");
  mul_split(t, "bm10", "w12", "w13", "w17", "w18");
  exp2(t, "bm2", "bm10");
  t.op("VADD.F bm2, bm2, bm14", "1 + 2^t");
  recip(t, "bm8", "bm2");
  split(t, "bm8", "w6", "w7", "bm7");
  mul_split(t, "bm10", "w12", "w13", "w6", "w7");
}

void silu_store(KernelText& t, const std::string& z) {
  silu_value(t, z);
  t.op("VST.CONV.BF16.FP32 bm10, [p2], #32", "SiLU(z) (bf16)");
}

// The stage-1 core program: constants after the `.tile` line, SiLU before each store.
std::string silu_core(const std::string& core) {
  const std::string stores = "  VST.CONV.BF16.FP32 bm0, [p2], #32\n  VST.CONV.BF16.FP32 bm1, [p2], #32\n";
  const size_t at = core.find(stores), first = core.find(".tile 0 0\n");
  if (at == std::string::npos || first == std::string::npos)
    throw std::logic_error("mlp stages: the matmul core program's stores were not found");
  KernelText c;
  c.comment("SiLU constants (fp_steps.h) and -log2(e) as bf16 high + low");
  fp_constants(c);
  const double l = -1.0 / std::log(2.0);
  const_bf16(c, "w17", bf16_bits(l), "-log2(e), high part");
  const_bf16(c, "w18", bf16_low_bits(l), "-log2(e), low part");
  KernelText s;
  s.comment("SiLU on the two 4x4 fp32 blocks, then store");
  silu_store(s, "bm0");
  silu_store(s, "bm1");
  std::string out = core;
  out.replace(at, stores.size(), s.str());
  out.insert(first + 10, c.str());
  return out;
}

// A matmul kernel moved to array column `column`, its names prefixed: SiLU in the core
// when `silu`; its output stream routed to shim `out_shim` S2MM `out_channel`, whose last
// write releases that shim's lock `out_lock`; its A read acquiring its own shim's lock
// `a_lock` first (-1: none).
// `edit` (optional) changes the column-0 text first.
KernelParts matmul_stage(const MatmulPlan& plan, uint32_t column, const std::string& prefix, bool silu,
                         uint32_t out_shim, uint32_t out_channel, int out_lock, int a_lock,
                         const std::function<void(KernelParts&)>& edit = {}, int out_release_value = 1) {
  if (plan.columns != 1 || plan.rows != 1) throw std::invalid_argument("mlp stages: every stage must be a single-tile plan");
  KernelParts p = split_kernel(matmul_kernel(plan));
  if (silu) p.cores = silu_core(p.cores);
  if (edit) edit(p);
  const std::string out_route = "{from: {tile: mem0, port: mm2s5}, to: {tile: shim0, port: s2mm0}}";
  if (p.routes.find(out_route) == std::string::npos) throw std::logic_error("mlp stages: the output route was not found");
  const std::string c = std::to_string(column), oshim = "shim" + std::to_string(out_shim),
                    och = "s2mm" + std::to_string(out_channel);
  p.routes = replace_all(p.routes, out_route, "{from: {tile: mem0, port: mm2s5}, to: {tile: OUTSHIM, port: " + och + "}}");
  edit_lines(p.bds, {"tile: shim0, channel: s2mm0"},
             [&](std::string& l) { l = replace_all(l, "tile: shim0, channel: s2mm0", "tile: OUTSHIM, channel: " + och); });
  if (edit_lines(p.buffers, {"name: ddr_c0, tile: shim0"}, [](std::string& l) { l = replace_all(l, "tile: shim0", "tile: OUTSHIM"); }) != 1)
    throw std::logic_error("mlp stages: the DDR output buffer was not found");
  // The last write of the chain (no `next`) tells the next stage its input is complete.
  std::string last_write;
  std::istringstream bds(p.bds);
  for (std::string l; std::getline(bds, l);)
    if (l.find("tile: OUTSHIM, channel: " + och) != std::string::npos && l.find("next:") == std::string::npos) last_write = l;
  if (last_write.empty()) throw std::logic_error("mlp stages: the last output BD was not found");
  edit_lines(p.bds, {last_write}, [&](std::string& l) { add_field(l, "release: {lock: " + std::to_string(out_lock) + ", value: " + std::to_string(out_release_value) + "}"); });
  if (a_lock >= 0 && edit_lines(p.bds, {"name: a_rd0,"}, [&](std::string& l) {
        add_field(l, "acquire: {lock: " + std::to_string(a_lock) + ", value: 1}");
      }) != 1)
    throw std::logic_error("mlp stages: the A read was not found");
  for (std::string* s : {&p.cores, &p.locks, &p.buffers, &p.bds, &p.routes}) {
    *s = replace_all(*s, "shim0", "shim" + c);
    *s = replace_all(*s, "mem0", "mem" + c);
    *s = replace_all(*s, "[0, 0]", "[" + c + ", 0]");
    *s = replace_all(*s, "OUTSHIM", oshim);
  }
  p.cores = replace_all(p.cores, ".tile 0 0", ".tile " + c + " 0");
  for (std::string* s : {&p.locks, &p.buffers, &p.bds}) *s = prefix_names(*s, prefix);
  return p;
}

std::string join(const std::string& title, const std::vector<KernelParts>& stages) {
  std::ostringstream k, locks, buffers, bds, routes;
  k << title;
  for (const KernelParts& s : stages) {
    k << s.cores;
    locks << s.locks;
    buffers << s.buffers;
    bds << s.bds;
    routes << s.routes;
  }
  k << ".movement\nlocks:\n" << locks.str() << "buffers:\n" << buffers.str() << "bds:\n" << bds.str() << "routes:\n"
    << routes.str();
  return k.str();
}

// ---- SwiGLU with split precision (swiglu_split_mlp) ----

// Gate+up stage edits on the column-0 matmul kernel for N' = 4 h_i: B is read as
// [W_gate | W_gate | W_up | W_up] (four shim BDs per strip instead of one), and every
// 8-column step stores, per quarter q of the steps: q 0 SiLU(g) high, q 1 SiLU(g) low,
// q 2 u high, q 3 u low (bf16 high/low parts of the fp32 values). The quarter's three
// bf16 mask vectors (m1 = apply SiLU, 1 - m2, m2 = take the low part) come from a table
// the program writes at tile address 0xE000 (the matmul kernel's bias space, unused).
void gate_up_edit(KernelParts& p, const MatmulPlan& plan, uint64_t wg_offset, uint64_t wu_offset, int64_t hi) {
  const int64_t k = plan.K, quarter_steps = hi / 8;
  const uint32_t table = 0xE000, core_table = 0x70000 + table;
  // B: the original per-strip BDs become four per strip.
  std::vector<std::string> strips;
  {
    std::istringstream in(p.bds);
    std::ostringstream out;
    for (std::string l; std::getline(in, l);) {
      if (l.find("name: b_rd0_") != std::string::npos) strips.push_back(l);
      else out << l << "\n";
    }
    p.bds = out.str();
  }
  if (strips.empty()) throw std::logic_error("mlp stages: gate/up B reads not found");
  std::ostringstream b;
  for (size_t st = 0; st < strips.size(); ++st)
    for (int q = 0; q < 4; ++q) {
      Bd r = make_bd("b_rd0_" + std::to_string(st) + "_q" + std::to_string(q), "shim0", "mm2s0", q < 2 ? "ddr_wg0" : "ddr_wu0", 0,
           uint64_t(k * hi) * 2);
      r.dims = dims({{16, 1}, {k, hi / 2}, {hi / 32, 16}});
      if (q < 3) r.next = "b_rd0_" + std::to_string(st) + "_q" + std::to_string(q + 1);
      else if (st + 1 < strips.size()) r.next = "b_rd0_" + std::to_string(st + 1) + "_q0";
      b << bd_yaml(r);
    }
  p.bds += b.str();
  if (edit_lines(p.buffers, {"name: ddr_b0, tile: shim0"}, [&](std::string& l) {
        l = "  - {name: ddr_wg0, tile: shim0, address: " + std::to_string(wg_offset) + ", size: " + std::to_string(k * hi * 2) +
            "}\n  - {name: ddr_wu0, tile: shim0, address: " + std::to_string(wu_offset) + ", size: " + std::to_string(k * hi * 2) + "}";
      }) != 1)
    throw std::logic_error("mlp stages: gate/up B buffer not found");

  // Core: constants and the mask table after the .tile line.
  std::string core = p.cores;
  const size_t tl = core.find(".tile 0 0\n");
  const std::string stores = "  VST.CONV.BF16.FP32 bm0, [p2], #32\n  VST.CONV.BF16.FP32 bm1, [p2], #32\n";
  const size_t at = core.find(stores);
  if (tl == std::string::npos || at == std::string::npos) throw std::logic_error("mlp stages: gate/up core text not as expected");
  KernelText c;
  c.comment("SiLU constants, -log2(e) high + low, and the per-quarter masks (m1, 1 - m2, m2) at 0xE000");
  fp_constants(c);
  const double l = -1.0 / std::log(2.0);
  const_bf16(c, "w17", bf16_bits(l), "-log2(e), high part");
  const_bf16(c, "w18", bf16_low_bits(l), "-log2(e), low part");
  c.op("MOVXM r4, " + hex(core_table));
  c.op("MOV p6, r4");
  for (int q = 0; q < 4; ++q) {
    const double m1 = q < 2 ? 1.0 : 0.0, m2 = q % 2 ? 1.0 : 0.0;
    for (double v : {m1, 1.0 - m2, m2}) {
      const_bf16(c, "w19", bf16_bits(v), "quarter " + std::to_string(q));
      c.op("VST w19, [p6], #32");
    }
  }
  c.op("MOVXM r31, 96", "table bytes per quarter");
  KernelText v;
  v.comment("per 4x4 block: value = z + m1 (SiLU(z) - z); store its high (m2 = 0) or low (m2 = 1) bf16 part");
  for (const char* z : {"bm0", "bm1"}) {
    silu_value(v, z);
    v.op(std::string("VSUB.F bm10, bm10, ") + z, "SiLU(z) - z");
    split(v, "bm10", "w12", "w13", "bm7");
    v.op("VMUL.E.BF16 bm9, w12, w19", "m1 (SiLU(z) - z)");
    v.op("VMAC.E.BF16 bm9, bm9, w13, w19");
    v.op(std::string("VADD.F bm9, bm9, ") + z);
    split(v, "bm9", "w14", "w15", "bm7");
    v.op("VMUL.E.BF16 bm8, w14, w20", "high (1 - m2) + low m2: exact");
    v.op("VMAC.E.BF16 bm8, bm8, w15, w21");
    v.op("VST.CONV.BF16.FP32 bm8, [p2], #32");
  }
  core.replace(at, stores.size(), v.str());
  // Masks per step; the quarter advances every h_i / 8 steps.
  const std::string step = "\nstep:\n", strip = "\nstrip:\n";
  const size_t sp = core.find(step);
  if (sp == std::string::npos) throw std::logic_error("mlp stages: gate/up step label not found");
  core.insert(sp + step.size(), "  MOV p6, r29   ; this quarter's masks\n  VLDA w19, [p6, #0]\n  VLDA w20, [p6, #32]\n"
                                "  VLDA w21, [p6, #64]\n  ADD r28, r28, #-1\n  JNZ r28, qsame\n  ADD r29, r29, r31\n  MOVXM r28, " +
                                    std::to_string(quarter_steps) + "\nqsame:\n");
  const size_t stp = core.find(strip);
  if (stp == std::string::npos) throw std::logic_error("mlp stages: gate/up strip label not found");
  core.insert(stp + strip.size(), "  MOVXM r29, " + hex(core_table) + "   ; quarter 0\n  MOVXM r28, " + std::to_string(quarter_steps) + "\n");
  core.insert(tl + 10, c.str());
  p.cores = core;
}

// One input stream from DDR into a tile's ping/pong blocks.
struct StageInput {
  uint64_t offset = 0, bytes = 0;
  int shim_lock = -1;  // acquired (value 1) before reading
};

// An elementwise stage on tile (column, 0): inputs from shim `column` (mm2s0, mm2s1) into
// ping/pong blocks (0x0000/0x2000, 0x4000/0x6000), output blocks (0x8000/0xA000) to
// `out_bd`'s shim channel. `body` runs per block with p0 (input 0), p1 (input 1) and p2
// (output block) set; registers r20..r23, r10 and lock ids 0..5 belong to the skeleton.
KernelParts elementwise_stage(uint32_t column, const std::vector<StageInput>& ins, uint64_t in_block, uint64_t blocks,
                              Bd out_bd, uint64_t out_block, const std::string& what,
                              const std::function<void(KernelText&)>& body) {
  if (in_block > 0x2000 || out_block > 0x2000 || in_block % 32 || out_block % 32)
    throw std::invalid_argument("mlp elementwise stage: blocks must be multiples of 32 bytes up to 8 KB");
  const std::string c = std::to_string(column), shim = "shim" + c, t = tile(column, 0), pre = out_bd.name + "_";
  const uint32_t in_buf[2][2] = {{0x0000, 0x2000}, {0x4000, 0x6000}}, out_buf[2] = {0x8000, 0xA000};
  KernelText k;
  k.comment(what + ": " + std::to_string(blocks) + " block(s)");
  k.op("MOVXM r20, " + hex(0x70000 + in_buf[0][0]));
  k.op("MOVXM r21, " + hex(0x70000 + in_buf[1][0]));
  k.op("MOVXM r22, " + hex(0x70000 + out_buf[0]));
  k.op("MOVXM r23, " + hex(in_buf[0][0] ^ in_buf[0][1]), "ping ^ pong (the same for every buffer)");
  k.op("MOVXM r10, " + std::to_string(blocks - 1), "blocks left");
  k.label("eblock");
  for (size_t i = 0; i < ins.size(); ++i) k.op("ACQ " + std::to_string(48 + 2 * i) + ", 1", "input " + std::to_string(i) + " filled");
  k.op("ACQ 53, 1", "output block free");
  k.op("MOV p0, r20");
  k.op("MOV p1, r21");
  k.op("MOV p2, r22");
  body(k);
  for (size_t i = 0; i < ins.size(); ++i) k.op("REL " + std::to_string(48 + 2 * i + 1) + ", 1");
  k.op("REL 52, 1", "output block filled");
  k.op("XOR r20, r20, r23");
  k.op("XOR r21, r21, r23");
  k.op("XOR r22, r22, r23");
  k.op("JNZD r10, r10, eblock");
  k.op("DONE");
  KernelParts p;
  p.cores = ".tile " + c + " 0\n" + k.str();
  std::ostringstream locks, buffers, bds, routes;
  std::vector<Bd> all;
  for (size_t i = 0; i < ins.size(); ++i) {
    const std::string is = std::to_string(i), port = (i == 0 ? "0" : "1");
    locks << "  - {tile: " << t << ", id: " << 2 * i + 1 << ", init: 2}\n";
    buffers << "  - {name: " << pre << "ddr_in" << is << ", tile: " << shim << ", address: " << ins[i].offset
            << ", size: " << ins[i].bytes << "}\n";
    Bd rd = make_bd(pre + "rd" + is, shim, "mm2s" + port, pre + "ddr_in" + is, 0, ins[i].bytes);
    rd.acquire_lock = ins[i].shim_lock;
    all.push_back(rd);
    std::vector<Bd> ring_in;
    for (int j = 0; j < 2; ++j) {
      const std::string js = is + "_" + std::to_string(j);
      buffers << "  - {name: " << pre << "in" << js << ", tile: " << t << ", address: " << in_buf[i][j] << ", size: " << in_block << "}\n";
      Bd w = make_bd(pre + "in" + js, t, "s2mm" + port, pre + "in" + js, 0, in_block);
      w.acquire_lock = int(2 * i + 1);
      w.release_lock = int(2 * i);
      ring_in.push_back(w);
    }
    for (const Bd& w : ring(ring_in)) all.push_back(w);
    routes << "  - {from: {tile: " << shim << ", port: mm2s" << port << "}, to: {tile: " << t << ", port: s2mm" << port << "}}\n";
  }
  locks << "  - {tile: " << t << ", id: 5, init: 2}\n";
  std::vector<Bd> ring_out;
  for (int j = 0; j < 2; ++j) {
    const std::string js = std::to_string(j);
    buffers << "  - {name: " << pre << "out" << js << ", tile: " << t << ", address: " << out_buf[j] << ", size: " << out_block << "}\n";
    Bd o = make_bd(pre + "out" + js, t, "mm2s0", pre + "out" + js, 0, out_block);
    o.acquire_lock = 4;
    o.release_lock = 5;
    ring_out.push_back(o);
  }
  for (const Bd& o : ring(ring_out)) all.push_back(o);
  buffers << "  - {name: " << out_bd.buffer << ", tile: " << out_bd.tile << ", address: " << out_bd.offset
          << ", size: " << out_bd.length << "}\n";
  out_bd.offset = 0;
  all.push_back(out_bd);
  routes << "  - {from: {tile: " << t << ", port: mm2s0}, to: {tile: " << out_bd.tile << ", port: " << out_bd.channel << "}}\n";
  for (const Bd& x : all) bds << bd_yaml(x);
  p.locks = locks.str();
  p.buffers = buffers.str();
  p.bds = bds.str();
  p.routes = routes.str();
  return p;
}

}  // namespace

std::string two_stage_mlp(const MatmulPlan& up, const MatmulPlan& down, const std::string& title) {
  if (up.c_offset != down.a_offset) throw std::invalid_argument("two_stage_mlp: stage 2 must read stage 1's output");
  return join("; " + title +
                  "\n; stage 1 (column 0): SiLU(A1 B1) -> DDR scratch through shim1.s2mm1, which releases shim1 lock 0\n"
                  "; stage 2 (column 1): A2 B2, its A read acquiring shim1 lock 0\n",
              {matmul_stage(up, 0, "up_", true, 1, 1, 0, -1), matmul_stage(down, 1, "down_", false, 1, 0, 2, 0)});
}

std::string swiglu_split_mlp(const SwigluSplitPlan& q) {
  const int64_t n = q.n, h = q.h, hi = q.h_i;
  if (n % 4 || h % 32 || hi % 32) throw std::invalid_argument("swiglu_split_mlp: n must be a multiple of 4, h and h_i of 32");
  if (hi * 8 > 0x2000) throw std::invalid_argument("swiglu_split_mlp: a row of s and u parts (4 h_i bf16) must fit 8 KB");
  // Stage 1 (column 0): C = [SiLU(g) hi | lo | u hi | lo], n x 4 h_i at q.c_offset,
  // out through shim1.s2mm1 (releases shim1 lock 0).
  MatmulPlan gu;
  gu.M = n, gu.K = h, gu.N = 4 * hi;
  gu.a_offset = q.x_offset;
  gu.b_offset = q.wg_offset;  // replaced by the four-BD read
  gu.c_offset = q.c_offset;
  KernelParts s1 = matmul_stage(gu, 0, "gu_", false, 1, 1, 0, -1,
                                [&](KernelParts& p) { gate_up_edit(p, gu, q.wg_offset, q.wu_offset, hi); });
  // Stage 2 (column 1): per row, a = (sh + sl)(uh + ul) (three exact products, fp32 sum),
  // split into high and low; [a_hi; a_lo] stacked (2n x h_i) at q.a_offset through
  // shim2.s2mm1 (releases shim2 lock 0).
  Bd a_wr = make_bd("mul_wr", "shim2", "s2mm1", "mul_ddr_a", q.a_offset, uint64_t(2 * n * hi) * 2);
  a_wr.dims = dims({{hi / 2, 1}, {2, n * hi / 2}, {n, hi / 2}});
  a_wr.release_lock = 0;
  KernelParts s2 = elementwise_stage(
      1, {{q.c_offset, uint64_t(n * 4 * hi) * 2, 0}}, uint64_t(4 * hi) * 2, uint64_t(n), a_wr, uint64_t(2 * hi) * 2,
      "a = SiLU(g) u from high + low parts, per row",
      [&](KernelText& t) {
        t.op("MOVXM r4, " + std::to_string(2 * hi), "bytes per quarter row");
        t.op("ADD r5, r20, r4");
        t.op("MOV p3, r5", "s low");
        t.op("ADD r5, r5, r4");
        t.op("MOV p4, r5", "u high");
        t.op("ADD r5, r5, r4");
        t.op("MOV p5, r5", "u low");
        t.op("ADD r5, r22, r4");
        t.op("MOV p6, r5", "a low");
        t.begin_loop("mul", uint64_t(hi / 16));
        t.op("VLDA w0, [p0], #32 ;; VLDB w1, [p3], #32", "s high, low");
        t.op("VLDA w2, [p4], #32 ;; VLDB w3, [p5], #32", "u high, low");
        t.op("VMUL.E.BF16 bm0, w0, w2");
        t.op("VMAC.E.BF16 bm0, bm0, w0, w3");
        t.op("VMAC.E.BF16 bm0, bm0, w1, w2");
        split(t, "bm0", "w4", "w5", "bm7");
        t.op("VST w4, [p2], #32", "a high");
        t.loop_last("VST w5, [p6], #32", "a low");
      });
  // Stage 3 (column 2): P = [a_hi; a_lo] W_down (2n x h) at q.p_offset through
  // shim3.s2mm1, which releases shim3 lock 0 by 2 (one for each half's reader).
  MatmulPlan down;
  down.M = 2 * n, down.K = hi, down.N = h;
  down.a_offset = q.a_offset;
  down.b_offset = q.wd_offset;
  down.c_offset = q.p_offset;
  KernelParts s3 = matmul_stage(down, 2, "down_", false, 3, 1, 0, 0, {}, 2);
  // Stage 4 (column 3): y = P_hi + P_lo.
  const uint64_t elems = uint64_t(n * h), e = std::min<uint64_t>(elems, 2048);
  if (elems % e || e % 16) throw std::invalid_argument("swiglu_split_mlp: n h must be a multiple of 16 and of the block");
  Bd y_wr = make_bd("add_wr", "shim3", "s2mm0", "add_ddr_y", q.y_offset, elems * 2);
  KernelParts s4 = elementwise_stage(3, {{q.p_offset, elems * 2, 0}, {q.p_offset + elems * 2, elems * 2, 0}}, e * 2, elems / e,
                                     y_wr, e * 2, "y = P_hi + P_lo", [&](KernelText& t) {
                                       t.begin_loop("add", e / 16);
                                       t.op("VLDA.CONV.FP32.BF16 bm0, [p0], #32");
                                       t.op("VLDA.CONV.FP32.BF16 bm1, [p1], #32");
                                       t.op("VADD.F bm0, bm0, bm1");
                                       t.loop_last("VST.CONV.BF16.FP32 bm0, [p2], #32");
                                     });
  return join("; swiglu y = (SiLU(x W_gate) * (x W_up)) W_down with bf16 high + low intermediates\n"
              "; stage 1 (column 0): [SiLU(g) hi | lo | u hi | lo] = x [Wg | Wg | Wu | Wu] -> DDR " + hex(q.c_offset) + "\n"
              "; stage 2 (column 1): a = s u, [a_hi; a_lo] -> DDR " + hex(q.a_offset) + "\n"
              "; stage 3 (column 2): P = [a_hi; a_lo] W_down -> DDR " + hex(q.p_offset) + "\n"
              "; stage 4 (column 3): y = P_hi + P_lo\n",
              {s1, s2, s3, s4});
}

}  // namespace tlmcraft::tasks::aie_ml
