/* Integer attention with whole-row softmax (platforms/coral/pack/int8_attention.h), for
   every query head j and its key/value head g = j / (HEADS / KV_HEADS):
   t = requant(q K_g^T, SHIFT_QK) (Q4 logits); p = softmax_q7(t); o = requant(p V_g, 7).
   One query row at a time: the s x s logits are never stored. */
#include "prelude.c"
#include "matmul_requant.c"
#include "softmax_q7.c"
#define KT_BLOCK KEYS
#include "attention_kv.c"
#include "attention_heads.c"

static void attention(const int8_t* q, const int8_t* k, const int8_t* v, const int32_t* table, int8_t* o) {
  set_rounding_rnu();
  copy_exp_table(table);
  attention_heads(q, k, v, o);
}

int main(void) {
  attention((const int8_t*)Q_ADDR, (const int8_t*)K_ADDR, (const int8_t*)V_ADDR, (const int32_t*)EXP_TABLE_ADDR,
            (int8_t*)O_ADDR);
  return 0;
}
