#include "platforms/plena/pack/baselines/template_kernels.h"

#include <stdexcept>

namespace tlmcraft::tasks::plena {

namespace {

std::string gp(int r) { return "gp" + std::to_string(r); }
std::string num(uint64_t v) { return std::to_string(v); }
constexpr uint64_t kImm18 = 1u << 18;

void need(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("template kernel: " + what);
}

}  // namespace

std::string tmpl_reset_registers(const std::vector<int>& regs) {
  std::string s = "; reset registers\n";
  for (int r : regs) s += "S_ADDI_INT " + gp(r) + ", gp0, 0\n";
  return s;
}

std::string tmpl_set_address_registers(const std::vector<int>& addr_regs, const std::vector<int>& tmp_regs,
                                       const std::vector<uint64_t>& values) {
  std::string s = "; address registers\n";
  for (size_t i = 0; i < values.size(); ++i) {
    const uint64_t v = values[i];
    if (v < kImm18) {
      s += "S_ADDI_INT " + gp(tmp_regs[i]) + ", gp0, " + num(v) + "\n";
    } else {
      s += "S_LUI_INT " + gp(tmp_regs[i]) + ", " + num(v >> 12) + "\n";
      s += "S_ADDI_INT " + gp(tmp_regs[i]) + ", " + gp(tmp_regs[i]) + ", " + num(v & 0xFFF) + "\n";
    }
    s += "C_SET_ADDR_REG a" + num(addr_regs[i]) + ", gp0, " + gp(tmp_regs[i]) + "\n";  // {high = 0, low}
  }
  return s;
}

std::string tmpl_preload_activation(uint32_t vlen, uint32_t preload_len, uint32_t batch, uint32_t hidden,
                                    uint32_t vram_offset, const std::vector<int>& regs, int a_reg, uint32_t stride) {
  const int actual = regs[0], stride_reg = regs[1], result = regs[2], outer = regs[3], inner = regs[4];
  std::string s = "; preload activation\n";
  s += "S_ADDI_INT " + gp(actual) + ", gp0, " + num(uint64_t(hidden) * batch) + "\n";
  s += "C_SET_SCALE_REG " + gp(actual) + "\n";
  s += "S_ADDI_INT " + gp(actual) + ", gp0, 0\n";
  s += "S_ADDI_INT " + gp(result) + ", gp0, " + num(vram_offset) + "\n";
  const std::string a = "a" + num(a_reg);
  if (batch == 1) {  // contiguous: preload_len rows per prefetch, no stride
    const uint32_t per = vlen * preload_len;
    for (uint32_t i = 0; i < (hidden + per - 1) / per; ++i) {
      s += "H_PREFETCH_V " + gp(result) + ", " + gp(actual) + ", " + a + ", 0, 0, 0\n";
      s += "S_ADDI_INT " + gp(result) + ", " + gp(result) + ", " + num(per) + "\n";
      s += "S_ADDI_INT " + gp(actual) + ", " + gp(actual) + ", " + num(per) + "\n";
    }
    return s;
  }
  need(uint64_t(batch) * hidden <= kImm18, "batch * hidden must fit an 18-bit immediate");
  s += "S_ADDI_INT " + gp(stride_reg) + ", gp0, " + num(stride) + "\n";
  s += "C_SET_STRIDE_REG " + gp(stride_reg) + "\n";
  s += "C_LOOP_START " + gp(outer) + ", " + num((hidden + vlen - 1) / vlen) + "\n";
  s += "S_ADDI_INT " + gp(stride_reg) + ", " + gp(actual) + ", 0\n";
  const bool looped = batch > preload_len;
  if (looped) s += "C_LOOP_START " + gp(inner) + ", " + num((batch + preload_len - 1) / preload_len) + "\n";
  s += "H_PREFETCH_V " + gp(result) + ", " + gp(stride_reg) + ", " + a + ", 1, 0\n";
  s += "S_ADDI_INT " + gp(result) + ", " + gp(result) + ", " + num(uint64_t(vlen) * preload_len) + "\n";
  if (looped) {
    s += "S_ADDI_INT " + gp(stride_reg) + ", " + gp(stride_reg) + ", " + num(uint64_t(hidden) * preload_len) + "\n";
    s += "C_LOOP_END " + gp(inner) + "\n";
  }
  s += "S_ADDI_INT " + gp(actual) + ", " + gp(actual) + ", " + num(vlen) + "\n";
  s += "C_LOOP_END " + gp(outer) + "\n";
  return s;
}

std::string tmpl_silu(uint32_t const_one_fp, const std::vector<int>& regs, uint32_t act_base, uint32_t scratch_base,
                      uint32_t vlen, uint32_t batch, uint32_t hidden) {
  const int act = regs[0], scratch = regs[1], loop = regs[2];
  std::string s = "; SiLU: x * 1 / (1 + exp(-x)), in place\n";
  s += "S_ADDI_INT " + gp(act) + ", gp0, " + num(act_base) + "\n";
  s += "S_ADDI_INT " + gp(scratch) + ", gp0, " + num(scratch_base) + "\n";
  s += "S_LD_FP f1, gp0, " + num(const_one_fp) + "\n";
  s += "C_LOOP_START " + gp(loop) + ", " + num(uint64_t(batch) * hidden / vlen) + "\n";
  s += "V_SUB_VF " + gp(scratch) + ", " + gp(act) + ", f0, 0, 1\n";
  s += "V_EXP_V " + gp(scratch) + ", " + gp(scratch) + ", 0\n";
  s += "V_ADD_VF " + gp(scratch) + ", " + gp(scratch) + ", f1, 0\n";
  s += "V_RECI_V " + gp(scratch) + ", " + gp(scratch) + ", 0\n";
  s += "V_MUL_VV " + gp(act) + ", " + gp(scratch) + ", " + gp(act) + ", 0\n";
  s += "S_ADDI_INT " + gp(act) + ", " + gp(act) + ", " + num(vlen) + "\n";
  s += "C_LOOP_END " + gp(loop) + "\n";
  return s;
}

std::string tmpl_projection(uint32_t mlen, uint32_t blen, uint32_t batch, uint32_t k, uint32_t n,
                            const std::vector<int>& regs, int w_reg, uint32_t act_base, uint32_t result_base) {
  const int w_actual = regs[0], w_temp = regs[1], act = regs[2], inter = regs[3], w_off = regs[4], result = regs[5];
  need(uint64_t(k) * n < kImm18, "k * n must fit an 18-bit immediate");
  std::string s = "; projection (batch, " + num(k) + ") x (" + num(k) + ", " + num(n) + ")\n";
  s += "S_ADDI_INT " + gp(act) + ", gp0, " + num(uint64_t(k) * n) + "\nC_SET_SCALE_REG " + gp(act) + "\n";
  s += "S_ADDI_INT " + gp(act) + ", gp0, " + num(n) + "\nC_SET_STRIDE_REG " + gp(act) + "\n";
  s += "S_ADDI_INT " + gp(act) + ", gp0, " + num(act_base) + "\n";
  s += "S_ADDI_INT " + gp(result) + ", gp0, " + num(result_base) + "\n";
  const uint32_t rows_per_tile = mlen / blen, out_rows = n / blen;
  for (uint32_t row = 0; row < out_rows; ++row) {
    const uint32_t in_tile = row % rows_per_tile;
    if (in_tile == 0) {  // fetch the k/mlen weight tiles of the next mlen output columns
      s += "S_ADDI_INT " + gp(w_actual) + ", gp0, 0\n";
      s += "S_ADDI_INT " + gp(w_off) + ", gp0, " + num(uint64_t(row) * blen) + "\n";
      s += "S_ADDI_INT " + gp(inter) + ", " + gp(result) + ", 0\n";
      for (uint32_t t = 0; t < k / mlen; ++t) {
        s += "H_PREFETCH_M " + gp(w_actual) + ", " + gp(w_off) + ", a" + num(w_reg) + ", 1, 0\n";
        s += "S_ADDI_INT " + gp(w_actual) + ", " + gp(w_actual) + ", " + num(uint64_t(mlen) * mlen) + "\n";
        s += "S_ADDI_INT " + gp(w_off) + ", " + gp(w_off) + ", " + num(uint64_t(mlen) * n) + "\n";
      }
      s += "S_ADDI_INT " + gp(w_actual) + ", gp0, 0\n";
    } else {
      s += "S_ADDI_INT " + gp(w_actual) + ", gp0, " + num(uint64_t(in_tile) * blen) + "\n";
      s += "S_ADDI_INT " + gp(inter) + ", " + gp(result) + ", " + num(uint64_t(in_tile) * blen) + "\n";
    }
    for (uint32_t col = 0; col < batch / blen; ++col) {
      s += "S_ADDI_INT " + gp(act) + ", gp0, " + num(act_base + uint64_t(col) * mlen * blen) + "\n";
      s += "S_ADDI_INT " + gp(w_temp) + ", " + gp(w_actual) + ", 0\n";
      for (uint32_t t = 0; t < k / mlen; ++t) {
        s += "M_MM 0, " + gp(w_temp) + ", " + gp(act) + "\n";
        s += "S_ADDI_INT " + gp(w_temp) + ", " + gp(w_temp) + ", " + num(uint64_t(mlen) * mlen) + "\n";
        s += "S_ADDI_INT " + gp(act) + ", " + gp(act) + ", " + num(uint64_t(mlen) * batch) + "\n";
      }
      s += "M_MM_WO " + gp(inter) + ", gp0, 0\n";
      s += "S_ADDI_INT " + gp(inter) + ", " + gp(inter) + ", " + num(uint64_t(blen) * mlen) + "\n";
    }
    if ((row + 1) % rows_per_tile == 0 && row != out_rows - 1)
      s += "S_ADDI_INT " + gp(result) + ", " + gp(result) + ", " + num(uint64_t(mlen) * batch) + "\n";
  }
  return s;
}

std::string template_silu_kernel(uint32_t n) {
  need(n % 256 == 0, "SiLU size must be a multiple of 256");
  const uint32_t batch = 4, hidden = n / batch, vlen = 64;
  std::string s = "; SiLU n = " + num(n) + " (batch 4 x hidden " + num(hidden) + "), template-compiler style\n";
  s += tmpl_reset_registers({1, 2, 3});
  s += tmpl_preload_activation(vlen, batch, batch, hidden, 0, {1, 2, 3, 4, 5}, 0, hidden);
  s += tmpl_reset_registers({1, 2, 3, 4});
  s += tmpl_silu(1, {1, 2, 3, 4, 5}, 0, hidden * batch, vlen, batch, hidden);
  return s;
}

std::string template_gemm_kernel(uint32_t m, uint32_t k, uint32_t n) {
  need(m % 4 == 0 && k % 64 == 0 && n % 64 == 0, "GEMM needs m % 4 == 0 and k, n multiples of 64");
  // HBM: activation (MX, 1.125 bytes per element) then the weights, as the testbench places them.
  const uint64_t act_bytes = uint64_t(k) * m * 9 / 8;
  const uint64_t w_end = (uint64_t(k) * m + uint64_t(k) * n) * 9 / 8;
  std::string s = "; GEMM (" + num(m) + ", " + num(k) + ", " + num(n) + "), template-compiler style\n";
  s += tmpl_set_address_registers({1, 2}, {1, 2}, {act_bytes, w_end});
  s += tmpl_reset_registers({1, 2, 3});
  s += tmpl_preload_activation(64, 4, m, k, 0, {1, 2, 3, 4, 5}, 0, k);
  s += tmpl_reset_registers({1, 2, 3, 4});
  s += tmpl_projection(64, 4, m, k, n, {1, 2, 3, 4, 5, 6}, 1, 0, k * m);
  return s;
}

}  // namespace tlmcraft::tasks::plena
