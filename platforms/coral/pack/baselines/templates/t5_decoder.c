/* T5 decoder block, integer (the Coral notes of t5_decoder): self-attention on
   RMSNorm(x), cross-attention of RMSNorm(x2) to enc, then the ReLU feed-forward on
   RMSNorm(x3), each added to the residual with sat8. */
#include "decoder_common.c"

static int8_t x3_buf[ACT];

int main(void) {
  set_rounding_rnu();
  copy_exp_table((const int32_t*)EXP_TABLE_ADDR);
  const int8_t* x = (const int8_t*)X_ADDR;
  const int8_t* enc = (const int8_t*)ENC_ADDR;
  rmsnorm_rows(x, (const int8_t*)G_SELF_ADDR, a_buf);
  matmul_requant(a_buf, (const int8_t*)WQ_S_ADDR, 0, q_buf, DIM_S, DIM_H, DIM_H, SHIFT_QKV);
  matmul_requant(a_buf, (const int8_t*)WK_S_ADDR, 0, k_buf, DIM_S, DIM_H, DIM_H, SHIFT_QKV);
  matmul_requant(a_buf, (const int8_t*)WV_S_ADDR, 0, v_buf, DIM_S, DIM_H, DIM_H, SHIFT_QKV);
  attend(x, q_buf, k_buf, v_buf, (const int8_t*)WO_S_ADDR, x2_buf);

  rmsnorm_rows(x2_buf, (const int8_t*)G_CROSS_ADDR, a_buf);
  matmul_requant(a_buf, (const int8_t*)WQ_C_ADDR, 0, q_buf, DIM_S, DIM_H, DIM_H, SHIFT_QKV);
  matmul_requant(enc, (const int8_t*)WK_C_ADDR, 0, k_buf, DIM_S, DIM_H, DIM_H, SHIFT_QKV);
  matmul_requant(enc, (const int8_t*)WV_C_ADDR, 0, v_buf, DIM_S, DIM_H, DIM_H, SHIFT_QKV);
  attend(x2_buf, q_buf, k_buf, v_buf, (const int8_t*)WO_C_ADDR, x3_buf);

  rmsnorm_rows(x3_buf, (const int8_t*)G_FFN_ADDR, a_buf);
  matmul_requant(a_buf, (const int8_t*)W1_ADDR, 0, hid_buf, DIM_S, DIM_H, DIM_H_I, SHIFT1);
  relu_int8(hid_buf, hid_buf, DIM_S * DIM_H_I);
  matmul_requant(hid_buf, (const int8_t*)W2_ADDR, 0, q_buf, DIM_S, DIM_H_I, DIM_H, SHIFT2);
  add_sat8(x3_buf, q_buf, (int8_t*)Y_ADDR, ACT);
  return 0;
}
