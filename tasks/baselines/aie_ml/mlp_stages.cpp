// Two-stage MLP kernel files (see mlp_stages.h).
#include "tasks/baselines/aie_ml/mlp_stages.h"

#include <cmath>
#include <functional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "tasks/baselines/aie_ml/block_loop.h"
#include "tasks/baselines/aie_ml/fp_steps.h"

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

}  // namespace

std::string two_stage_mlp(const MatmulPlan& up_plan, const MatmulPlan& down_plan, const std::string& title) {
  if (up_plan.columns != 1 || up_plan.rows != 1 || down_plan.columns != 1 || down_plan.rows != 1)
    throw std::invalid_argument("two_stage_mlp: both stages must be single-tile plans");
  if (up_plan.c_offset != down_plan.a_offset)
    throw std::invalid_argument("two_stage_mlp: stage 2 must read stage 1's output");
  KernelParts up = split_kernel(matmul_kernel(up_plan));
  KernelParts down = split_kernel(matmul_kernel(down_plan));

  // Stage 1: SiLU in the core; its output leaves through shim1.s2mm1 (see the header).
  up.cores = silu_core(up.cores);
  const std::string out_route = "{from: {tile: mem0, port: mm2s5}, to: {tile: shim0, port: s2mm0}}";
  if (up.routes.find(out_route) == std::string::npos) throw std::logic_error("mlp stages: stage-1 output route not found");
  up.routes = replace_all(up.routes, out_route, "{from: {tile: mem0, port: mm2s5}, to: {tile: shim1, port: s2mm1}}");
  edit_lines(up.bds, {"tile: shim0, channel: s2mm0"}, [](std::string& l) { l = replace_all(l, "tile: shim0, channel: s2mm0", "tile: shim1, channel: s2mm1"); });
  if (edit_lines(up.buffers, {"name: ddr_c0, tile: shim0"}, [](std::string& l) { l = replace_all(l, "tile: shim0", "tile: shim1"); }) != 1)
    throw std::logic_error("mlp stages: stage-1 DDR output buffer not found");
  // The last write of the chain (no `next`) tells stage 2 the intermediate is complete.
  std::string last_write;
  std::istringstream bds(up.bds);
  for (std::string l; std::getline(bds, l);)
    if (l.find("channel: s2mm1") != std::string::npos && l.find("next:") == std::string::npos) last_write = l;
  if (last_write.empty()) throw std::logic_error("mlp stages: stage-1 last output BD not found");
  edit_lines(up.bds, {last_write}, [](std::string& l) { add_field(l, "release: {lock: 0, value: 1}"); });

  // Stage 2 moves to column 1; its A read waits for stage 1.
  for (std::string* s : {&down.cores, &down.locks, &down.buffers, &down.bds, &down.routes}) {
    *s = replace_all(*s, "shim0", "shim1");
    *s = replace_all(*s, "mem0", "mem1");
    *s = replace_all(*s, "[0, 0]", "[1, 0]");
  }
  down.cores = replace_all(down.cores, ".tile 0 0", ".tile 1 0");
  if (edit_lines(down.bds, {"name: a_rd0,"}, [](std::string& l) { add_field(l, "acquire: {lock: 0, value: 1}"); }) != 1)
    throw std::logic_error("mlp stages: stage-2 A read not found");

  std::ostringstream k;
  k << "; " << title << "\n";
  k << "; stage 1 (column 0): SiLU(A1 B1) -> DDR scratch through shim1.s2mm1, which releases shim1 lock 0\n";
  k << "; stage 2 (column 1): A2 B2, its A read acquiring shim1 lock 0\n";
  k << up.cores << down.cores;
  k << ".movement\nlocks:\n" << prefix_names(up.locks, "up_") << prefix_names(down.locks, "down_");
  k << "buffers:\n" << prefix_names(up.buffers, "up_") << prefix_names(down.buffers, "down_");
  k << "bds:\n" << prefix_names(up.bds, "up_") << prefix_names(down.bds, "down_");
  k << "routes:\n" << up.routes << down.routes;
  return k.str();
}

}  // namespace tlmcraft::tasks::aie_ml
