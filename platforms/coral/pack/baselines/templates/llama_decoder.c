/* LLaMA decoder block, integer (the Coral notes of llama_decoder): a = RMSNorm(x);
   q, k, v = requant(a W, SHIFT_QKV); RoPE on q and k per head; x2 = sat8(x + requant(
   attention Wo, SHIFT_O)); b = RMSNorm(x2); y = sat8(x2 + SwiGLU(b)). */
#include "decoder_common.c"
#include "lut_lookup.c"
#include "rope_rows.c"
#include "swiglu_ffn.c"

static int8_t u_buf[DIM_S * DIM_H_I];

int main(void) {
  set_rounding_rnu();
  copy_exp_table((const int32_t*)EXP_TABLE_ADDR);
  const int8_t* x = (const int8_t*)X_ADDR;
  const int8_t *cos = (const int8_t*)COS_ADDR, *sin = (const int8_t*)SIN_ADDR;
  rmsnorm_rows(x, (const int8_t*)G_ATTN_ADDR, a_buf);
  matmul_requant(a_buf, (const int8_t*)WQ_ADDR, 0, q_buf, DIM_S, DIM_H, DIM_H, SHIFT_QKV);
  matmul_requant(a_buf, (const int8_t*)WK_ADDR, 0, k_buf, DIM_S, DIM_H, DIM_H, SHIFT_QKV);
  matmul_requant(a_buf, (const int8_t*)WV_ADDR, 0, v_buf, DIM_S, DIM_H, DIM_H, SHIFT_QKV);
  rope_rows(q_buf, cos, sin, q_buf, DIM_S, DIM_H, HEAD_D);
  rope_rows(k_buf, cos, sin, k_buf, DIM_S, DIM_H, HEAD_D);
  attend(x, q_buf, k_buf, v_buf, (const int8_t*)WO_ADDR, x2_buf);
  rmsnorm_rows(x2_buf, (const int8_t*)G_FFN_ADDR, a_buf);
  swiglu_ffn(a_buf, (const int8_t*)W_GATE_ADDR, (const int8_t*)W_UP_ADDR, (const int8_t*)W_DOWN_ADDR,
             (const int8_t*)SILU_LUT_ADDR, hid_buf, u_buf, q_buf, DIM_S, DIM_H, DIM_H_I, SHIFT1, SHIFT2);
  add_sat8(x2_buf, q_buf, (int8_t*)Y_ADDR, ACT);
  return 0;
}
