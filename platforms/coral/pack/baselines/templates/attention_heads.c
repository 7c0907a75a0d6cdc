/* Attention of every query head j against its key/value head g = j / (HEADS / KV_HEADS)
   (platforms/coral/pack/int8_attention.h), one query row at a time: t = requant(q K_g^T,
   SHIFT_QK) (Q4 logits); p = softmax_q7(t); o = requant(p V_g, 7). Needs matmul_requant.c,
   softmax_q7.c, attention_kv.c and exp_dtcm filled (copy_exp_table); the s x s logits are
   never stored. */
static int8_t t_row[KEYS];

static void attention_heads(const int8_t* q, const int8_t* k, const int8_t* v, int8_t* o) {
  for (int g = 0; g < KV_HEADS; ++g) {
    load_kv_head(k, v, g);
    for (int j = g * (HEADS / KV_HEADS); j < (g + 1) * (HEADS / KV_HEADS); ++j)
      for (int r = 0; r < KEYS; ++r) {
        copy_bytes(q_row, q + r * ROW_Q + j * HEAD_D, HEAD_D);
        matmul_requant(q_row, kt, 0, t_row, 1, HEAD_D, KEYS, SHIFT_QK);
        softmax_q7(t_row, t_row, KEYS, exp_dtcm);
        matmul_requant(t_row, vh, 0, o + r * ROW_Q + j * HEAD_D, 1, KEYS, HEAD_D, 7);
      }
  }
}
