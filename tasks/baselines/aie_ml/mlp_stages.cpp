// Two-stage MLP kernel files (see mlp_stages.h).
#include "tasks/baselines/aie_ml/mlp_stages.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "tasks/baselines/aie_ml/block_loop.h"
#include "tasks/baselines/aie_ml/fp_steps.h"
#include "tasks/baselines/aie_ml/movement_text.h"

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

// Adds ", <field>" before the closing brace of a one-line BD.
void add_field(std::string& bd, const std::string& field) { bd.insert(bd.rfind('}'), ", " + field); }

// SiLU of the fp32 accumulator z, stored as 16 bf16 at [p2] (post-increment):
// z / (1 + 2^t), t = -z log2(e), with the fp32 steps of fp_steps.h. Clobbers bm2..bm10,
// w2..w9, w12, w13; z's partner accumulator (bm0/bm1) is untouched.
void silu_store(KernelText& t, const std::string& z) {
  split(t, z, "w12", "w13", "bm7");
  mul_split(t, "bm10", "w12", "w13", "w17", "w18");
  exp2(t, "bm2", "bm10");
  t.op("VADD.F bm2, bm2, bm14", "1 + 2^t");
  recip(t, "bm8", "bm2");
  split(t, "bm8", "w6", "w7", "bm7");
  mul_split(t, "bm10", "w12", "w13", "w6", "w7");
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
KernelParts matmul_stage(const MatmulPlan& plan, uint32_t column, const std::string& prefix, bool silu,
                         uint32_t out_shim, uint32_t out_channel, int out_lock, int a_lock) {
  if (plan.columns != 1 || plan.rows != 1) throw std::invalid_argument("mlp stages: every stage must be a single-tile plan");
  KernelParts p = split_kernel(matmul_kernel(plan));
  if (silu) p.cores = silu_core(p.cores);
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
  edit_lines(p.bds, {last_write}, [&](std::string& l) { add_field(l, "release: {lock: " + std::to_string(out_lock) + ", value: 1}"); });
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

// Elementwise a = s * u (bf16 products rounded once) on tile (column, 0): s and u
// stream from DDR (shim `column` mm2s0 / mm2s1, each read waiting for that shim's lock
// 0 / 1) into ping/pong blocks; a leaves to shim `out_shim` s2mm1, whose last write
// releases that shim's lock 0.
KernelParts multiply_stage(uint32_t column, uint64_t s_offset, uint64_t u_offset, uint64_t a_offset, uint64_t elems,
                           uint32_t out_shim) {
  const uint64_t e = std::min<uint64_t>(elems, 2048);  // elements per block (4 KB)
  if (elems % e != 0 || e % 16 != 0) throw std::invalid_argument("mlp multiply stage: element count must be a multiple of 16 and of the block");
  const uint64_t blocks = elems / e, bytes = elems * 2;
  const std::string c = std::to_string(column), shim = "shim" + c, t = tile(column, 0), oshim = "shim" + std::to_string(out_shim);
  // Tile memory: s, u, a ping/pong, each block in its own 8 KB bank.
  const uint32_t s_buf[2] = {0x0000, 0x2000}, u_buf[2] = {0x4000, 0x6000}, a_buf[2] = {0x8000, 0xA000};
  enum : int { kSFull = 0, kSEmpty = 1, kUFull = 2, kUEmpty = 3, kAFull = 4, kAEmpty = 5 };
  KernelParts p;
  std::ostringstream core;
  core << ".tile " << c << " 0\n";
  core << "  ; a = s * u, " << blocks << " block(s) of " << e << " bf16\n";
  core << "  MOVXM r20, " << hex(0x70000 + s_buf[0]) << "\n  MOVXM r21, " << hex(0x70000 + u_buf[0]) << "\n  MOVXM r22, "
       << hex(0x70000 + a_buf[0]) << "\n";
  core << "  MOVXM r23, " << hex(s_buf[0] ^ s_buf[1]) << "   ; ping ^ pong (the same for s, u, a)\n";
  core << "  MOVXM r10, " << blocks - 1 << "   ; blocks left\n";
  core << "  MOVXM ls, mloop\n  MOVXM le, mend\n";
  core << "block:\n";
  core << "  ACQ " << 48 + kSFull << ", 1\n  ACQ " << 48 + kUFull << ", 1\n  ACQ " << 48 + kAEmpty << ", 1\n";
  core << "  MOV p0, r20\n  MOV p1, r21\n  MOV p2, r22\n";
  core << "  MOVXM lc, " << e / 16 << "\n";
  core << "mloop:\n";
  core << "  VLDA w0, [p0], #32 ;; VLDB w1, [p1], #32\n";
  core << "  VMUL.E.BF16 bm0, w0, w1\n";
  core << "mend:\n";
  core << "  VST.CONV.BF16.FP32 bm0, [p2], #32\n";
  core << "  REL " << 48 + kSEmpty << ", 1\n  REL " << 48 + kUEmpty << ", 1\n  REL " << 48 + kAFull << ", 1\n";
  core << "  XOR r20, r20, r23\n  XOR r21, r21, r23\n  XOR r22, r22, r23\n";
  core << "  JNZD r10, r10, block\n  DONE\n";
  p.cores = core.str();

  std::ostringstream locks, buffers;
  for (int id : {kSEmpty, kUEmpty, kAEmpty}) locks << "  - {tile: " << t << ", id: " << id << ", init: 2}\n";
  buffers << "  - {name: mul_ddr_s, tile: " << shim << ", address: " << s_offset << ", size: " << bytes << "}\n";
  buffers << "  - {name: mul_ddr_u, tile: " << shim << ", address: " << u_offset << ", size: " << bytes << "}\n";
  buffers << "  - {name: mul_ddr_a, tile: " << oshim << ", address: " << a_offset << ", size: " << bytes << "}\n";
  std::vector<Bd> all;
  Bd rs{"mul_rd_s", shim, "mm2s0", "mul_ddr_s", 0, bytes};
  rs.acquire_lock = 0;
  Bd ru{"mul_rd_u", shim, "mm2s1", "mul_ddr_u", 0, bytes};
  ru.acquire_lock = 1;
  Bd wa{"mul_wr_a", oshim, "s2mm1", "mul_ddr_a", 0, bytes};
  wa.release_lock = 0;
  all = {rs, ru, wa};
  std::vector<Bd> sin, uin, aout;
  for (int i = 0; i < 2; ++i) {
    const std::string is = std::to_string(i);
    buffers << "  - {name: mul_s" << is << ", tile: " << t << ", address: " << s_buf[i] << ", size: " << e * 2 << "}\n";
    buffers << "  - {name: mul_u" << is << ", tile: " << t << ", address: " << u_buf[i] << ", size: " << e * 2 << "}\n";
    buffers << "  - {name: mul_a" << is << ", tile: " << t << ", address: " << a_buf[i] << ", size: " << e * 2 << "}\n";
    Bd a{"mul_sin" + is, t, "s2mm0", "mul_s" + is, 0, e * 2};
    a.acquire_lock = kSEmpty;
    a.release_lock = kSFull;
    sin.push_back(a);
    Bd b{"mul_uin" + is, t, "s2mm1", "mul_u" + is, 0, e * 2};
    b.acquire_lock = kUEmpty;
    b.release_lock = kUFull;
    uin.push_back(b);
    Bd o{"mul_aout" + is, t, "mm2s0", "mul_a" + is, 0, e * 2};
    o.acquire_lock = kAFull;
    o.release_lock = kAEmpty;
    aout.push_back(o);
  }
  for (const auto& chain : {ring(sin), ring(uin), ring(aout)}) all.insert(all.end(), chain.begin(), chain.end());
  std::ostringstream bds;
  for (const Bd& b : all) bds << bd_yaml(b);
  p.locks = locks.str();
  p.buffers = buffers.str();
  p.bds = bds.str();
  p.routes = "  - {from: {tile: " + shim + ", port: mm2s0}, to: {tile: " + t + ", port: s2mm0}}\n" +
             "  - {from: {tile: " + shim + ", port: mm2s1}, to: {tile: " + t + ", port: s2mm1}}\n" +
             "  - {from: {tile: " + t + ", port: mm2s0}, to: {tile: " + oshim + ", port: s2mm1}}\n";
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

std::string swiglu_mlp(const MatmulPlan& gate, const MatmulPlan& up, const MatmulPlan& down, uint64_t a_offset,
                       const std::string& title) {
  if (gate.M != up.M || gate.N != up.N || down.a_offset != a_offset)
    throw std::invalid_argument("swiglu_mlp: gate and up must have one shape and down must read a");
  return join("; " + title +
                  "\n; stage 1 (column 0): s = SiLU(A Bg) -> DDR through shim2.s2mm0 (releases shim2 lock 0)\n"
                  "; stage 2 (column 1): u = A Bu -> DDR through shim2.s2mm1 (releases shim2 lock 1)\n"
                  "; stage 3 (column 2): a = s * u (waits for both) -> DDR through shim3.s2mm1 (releases shim3 lock 0)\n"
                  "; stage 4 (column 3): a Bd, its A read acquiring shim3 lock 0\n",
              {matmul_stage(gate, 0, "gate_", true, 2, 0, 0, -1), matmul_stage(up, 1, "up_", false, 2, 1, 1, -1),
               multiply_stage(2, gate.c_offset, up.c_offset, a_offset, uint64_t(gate.M * gate.N), 3),
               matmul_stage(down, 3, "down_", false, 3, 0, 2, 0)});
}

}  // namespace tlmcraft::tasks::aie_ml
