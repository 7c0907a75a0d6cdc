// AIE-ML baselines for the level-3 decoder blocks (llama_decoder, t5_decoder): the block's
// stages as phases of one kernel file (docs/platforms/aie-ml.md, "Phases"), each a
// single-tile kernel reading and writing DDR, intermediates in DDR scratch after the
// layout's last tensor.
//
// Precision: the AIE-ML reference is double precision with no intermediate rounding, and
// a decoder block amplifies bf16 rounding of its intermediates past allclose 0.01 (measured:
// every configuration fails with bf16 intermediates, even with only the normalised
// activations or only the residual stream rounded). So every intermediate is kept as bf16
// high + low parts (value = hi + lo, about 16 significant bits): matmuls multiply both
// parts (matmul_kernel.h a_parts/b_parts) and write split results (c_lo_offset), attention
// takes three products per split pair (split_attention.h), the row stages compute in fp32
// (row_stages.h). Only y, the block's output, is rounded to bf16, once.
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "platforms/aie_ml/pack/baselines/decoder_tasks.h"
#include "platforms/aie_ml/pack/baselines/generators.h"
#include "platforms/aie_ml/pack/baselines/matmul_kernel.h"
#include "platforms/aie_ml/pack/baselines/movement_text.h"
#include "platforms/aie_ml/pack/baselines/row_stages.h"
#include "platforms/aie_ml/pack/baselines/split_attention.h"
#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {
namespace {

// A value kept as bf16 high and low parts in DDR scratch: two [rows, cols] matrices.
struct Split {
  uint64_t hi = 0, lo = 0;
  std::vector<uint64_t> parts() const { return {hi, lo}; }
  StageOutput out() const { return {hi, lo}; }
};

// The kernel file under construction: phases in order and a bump allocator for scratch.
class DecoderKernel {
 public:
  DecoderKernel(const Instance& inst, const std::string& title, uint32_t columns, uint32_t rows)
      : inst_(inst), scratch_(AieMlLayout(inst.task(), inst.params()).workspace_begin()), columns_(columns), rows_(rows) {
    text_ << "; " << title << "\n; " << inst.task().name << " " << inst.config().name
          << ": every stage is one phase; intermediates as bf16 high + low parts in DDR scratch from "
          << hex(scratch_) << "\n";
  }
  uint64_t tensor(const std::string& name) const { return aie_ml_tensor_offset(inst_, name); }
  int64_t param(const std::string& name) const { return inst_.params().at(name); }

  Split split(int64_t rows, int64_t cols) {
    Split s;
    s.hi = alloc(uint64_t(rows * cols) * 2);
    s.lo = alloc(uint64_t(rows * cols) * 2);
    return s;
  }
  void phase(const std::string& name, const std::string& kernel) { text_ << "\n.phase " << name << "\n" << kernel; }

  // out = in W (W a bf16 [k, n] weight) with `in` a sum of parts, `out` split; on the
  // largest tile grid within columns_ x rows_ the shape allows (the most tiles, then the
  // most columns).
  void project(const std::string& name, const std::vector<uint64_t>& in, int64_t m, int64_t k, int64_t n,
               uint64_t w, const Split& out) {
    MatmulPlan p;
    p.M = m, p.K = k, p.N = n;
    p.a_parts = in;
    p.b_parts.assign(in.size(), w);
    p.c_offset = out.hi;
    p.c_lo_offset = out.lo;
    MatmulPlan best = p;
    for (uint32_t c = 1; c <= columns_; ++c)
      for (uint32_t r = 1; r <= rows_; ++r) {
        MatmulPlan q = p;
        q.columns = c, q.rows = r;
        if (matmul_plan_problem(q).empty() && c * r > best.columns * best.rows) best = q;
      }
    phase(name, matmul_kernel(best));
  }
  void rmsnorm(const std::string& name, const std::vector<uint64_t>& in, uint64_t gamma, const Split& out,
               const Split* sum) {
    RmsnormStagePlan p;
    p.rows = param("s"), p.cols = param("h");
    p.in = in;
    p.gamma = gamma;
    p.eps = 1e-6;
    p.out = out.out();
    if (sum) p.sum = sum->out();
    phase(name, rmsnorm_stage(p));
  }
  void attention(const std::string& name, const Split& q, const Split& k, const Split& v, const Split& o, bool rope) {
    SplitAttentionPlan p;
    p.s = param("s"), p.heads = param("heads"), p.d = param("h") / param("heads");
    p.q_hi = q.hi, p.q_lo = q.lo, p.k_hi = k.hi, p.k_lo = k.lo, p.v_hi = v.hi, p.v_lo = v.lo;
    p.o_hi = o.hi, p.o_lo = o.lo;
    p.rope = rope;
    if (rope) p.cos_offset = tensor("cos"), p.sin_offset = tensor("sin");
    phase(name, split_attention_kernel(p));
  }
  void elementwise(const std::string& name, ElementwiseOp op, int64_t cols, const std::vector<uint64_t>& a,
                   const std::vector<uint64_t>& b, StageOutput out) {
    ElementwiseStagePlan p;
    p.rows = param("s"), p.cols = cols;
    p.op = op;
    p.a = a;
    p.b = b;
    p.out = out;
    phase(name, elementwise_stage(p));
  }
  // x + MHA(q_in Wq, kv_in Wk, kv_in Wv) Wo's projection t, with q, k, v, o in scratch.
  Split attention_block(const std::string& tag, const std::vector<uint64_t>& q_in, const std::vector<uint64_t>& kv_in,
                        const std::string& wq, const std::string& wk, const std::string& wv, const std::string& wo,
                        bool rope) {
    const int64_t s = param("s"), h = param("h");
    const Split q = split(s, h), k = split(s, h), v = split(s, h), o = split(s, h), t = split(s, h);
    project(tag + "_q", q_in, s, h, h, tensor(wq), q);
    project(tag + "_k", kv_in, s, h, h, tensor(wk), k);
    project(tag + "_v", kv_in, s, h, h, tensor(wv), v);
    attention(tag + "_attention", q, k, v, o, rope);
    project(tag + "_out", o.parts(), s, h, h, tensor(wo), t);
    return t;
  }
  std::string text() const { return text_.str(); }

 private:
  uint64_t alloc(uint64_t bytes) {
    const uint64_t at = scratch_;
    scratch_ += (bytes + kAieMlAlignment - 1) / kAieMlAlignment * kAieMlAlignment;
    return at;
  }
  const Instance& inst_;
  uint64_t scratch_;
  uint32_t columns_, rows_;  // the projections' tile grid limit (1 x 1: the baseline)
  std::ostringstream text_;
};

std::vector<uint64_t> operator+(std::vector<uint64_t> a, const std::vector<uint64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// a = RMSNorm(x); x2 = x + MHA(RoPE(a Wq), RoPE(a Wk), a Wv) Wo; b = RMSNorm(x2);
// y = x2 + (SiLU(b Wg) * (b Wu)) Wd.
std::string llama_decoder(const Instance& inst, uint32_t columns, uint32_t rows) {
  DecoderKernel k(inst, "LLaMA decoder block: RMSNorm, MHA with RoPE, residual, RMSNorm, SwiGLU, residual", columns,
                  rows);
  const int64_t s = k.param("s"), h = k.param("h"), hi = k.param("h_i");
  const uint64_t x = k.tensor("x");
  const Split a = k.split(s, h);
  k.rmsnorm("norm_attn", {x}, k.tensor("g_attn"), a, nullptr);
  const Split t = k.attention_block("self", a.parts(), a.parts(), "Wq", "Wk", "Wv", "Wo", /*rope=*/true);
  const Split x2 = k.split(s, h), b = k.split(s, h);
  k.rmsnorm("norm_ffn", std::vector<uint64_t>{x} + t.parts(), k.tensor("g_ffn"), b, &x2);
  const Split g = k.split(s, hi), u = k.split(s, hi), m = k.split(s, hi), f = k.split(s, h);
  k.project("gate", b.parts(), s, h, hi, k.tensor("W_gate"), g);
  k.project("up", b.parts(), s, h, hi, k.tensor("W_up"), u);
  k.elementwise("swiglu", ElementwiseOp::SiluMul, hi, g.parts(), u.parts(), m.out());
  k.project("down", m.parts(), s, hi, h, k.tensor("W_down"), f);
  k.elementwise("residual", ElementwiseOp::Sum, h, x2.parts() + f.parts(), {}, {k.tensor("y"), 0});
  return k.text();
}

// a = RMSNorm(x); x2 = x + SelfAttention(a); b = RMSNorm(x2); x3 = x2 + CrossAttention(b, enc);
// c = RMSNorm(x3); y = x3 + ReLU(c W1) W2.
std::string t5_decoder(const Instance& inst, uint32_t columns, uint32_t rows) {
  DecoderKernel k(inst, "T5 decoder block: RMSNorm, self-attention, RMSNorm, cross-attention, RMSNorm, ReLU FFN",
                  columns, rows);
  const int64_t s = k.param("s"), h = k.param("h"), hi = k.param("h_i");
  const uint64_t x = k.tensor("x"), enc = k.tensor("enc");
  const Split a = k.split(s, h);
  k.rmsnorm("norm_self", {x}, k.tensor("g_self"), a, nullptr);
  const Split t = k.attention_block("self", a.parts(), a.parts(), "Wq_s", "Wk_s", "Wv_s", "Wo_s", false);
  const Split x2 = k.split(s, h), b = k.split(s, h);
  k.rmsnorm("norm_cross", std::vector<uint64_t>{x} + t.parts(), k.tensor("g_cross"), b, &x2);
  const Split t2 = k.attention_block("cross", b.parts(), {enc}, "Wq_c", "Wk_c", "Wv_c", "Wo_c", false);
  const Split x3 = k.split(s, h), c = k.split(s, h);
  k.rmsnorm("norm_ffn", x2.parts() + t2.parts(), k.tensor("g_ffn"), c, &x3);
  const Split z = k.split(s, hi), r = k.split(s, hi), f = k.split(s, h);
  k.project("ffn_in", c.parts(), s, h, hi, k.tensor("W1"), z);
  k.elementwise("relu", ElementwiseOp::Relu, hi, z.parts(), {}, r.out());
  k.project("ffn_out", r.parts(), s, hi, h, k.tensor("W2"), f);
  k.elementwise("residual", ElementwiseOp::Sum, h, x3.parts() + f.parts(), {}, {k.tensor("y"), 0});
  return k.text();
}

}  // namespace

std::string decoder_kernel(const Instance& inst, uint32_t columns, uint32_t rows) {
  if (inst.task().name == "llama_decoder") return llama_decoder(inst, columns, rows);
  if (inst.task().name == "t5_decoder") return t5_decoder(inst, columns, rows);
  throw std::invalid_argument("decoder_kernel: " + inst.task().name + " is not a decoder block");
}

GeneratorMap decoder_generators() {
  const auto baseline = [](const Instance& inst, const nlohmann::json&) { return decoder_kernel(inst, 1, 1); };
  return {{"llama_decoder", baseline}, {"t5_decoder", baseline}};
}

}  // namespace tlmcraft::tasks::aie_ml
