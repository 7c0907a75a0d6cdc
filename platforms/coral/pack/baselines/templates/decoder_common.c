/* What both Coral decoder baselines share: the blocks (each the baseline of its own task)
   and the DTCM buffers of the [s, h] activations. Attention takes every head as its own
   key/value head (MHA); K_h^T of one head is one [d, s] block. */
#define HEADS DIM_HEADS
#define KV_HEADS DIM_HEADS
#define HEAD_D (DIM_H / DIM_HEADS)
#define KEYS DIM_S
#define KT_BLOCK KEYS
#define ACT (DIM_S * DIM_H) /* elements of one [s, h] activation */
#include "prelude.c"
#include "matmul_requant.c"
#include "softmax_q7.c"
#include "attention_kv.c"
#include "attention_heads.c"
#include "rmsnorm_row.c"
#include "elementwise_int8.c"

static int8_t a_buf[ACT], q_buf[ACT], k_buf[ACT], v_buf[ACT], o_buf[ACT], x2_buf[ACT];
static int8_t hid_buf[DIM_S * DIM_H_I];

/* RMSNorm of each row of x [s, h]. */
static void rmsnorm_rows(const int8_t* x, const int8_t* gamma, int8_t* y) {
  for (int r = 0; r < DIM_S; ++r) rmsnorm_row(x + r * DIM_H, gamma, y + r * DIM_H, DIM_H);
}

/* y = sat8(x + requant(attention(q, k, v) wo, SHIFT_O)); o_buf holds the attention output,
   a_buf the projection. */
static void attend(const int8_t* x, const int8_t* q, const int8_t* k, const int8_t* v, const int8_t* wo, int8_t* y) {
  attention_heads(q, k, v, o_buf);
  matmul_requant(o_buf, wo, 0, a_buf, DIM_S, DIM_H, DIM_H, SHIFT_O);
  add_sat8(x, a_buf, y, ACT);
}
