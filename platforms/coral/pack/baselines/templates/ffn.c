/* FFN: a = sat8((x W1 + 2^(SHIFT1-1)) >> SHIFT1); s = silu_lut[a + 128];
   y = sat8((s W2 + 2^(SHIFT2-1)) >> SHIFT2). Intermediates live in DTCM. */
#include "prelude.c"
#include "matmul_requant.c"
#include "lut_lookup.c"

static int8_t a_buf[DIM_N * DIM_H_I];
static int8_t s_buf[DIM_N * DIM_H_I];

int main(void) {
  set_rounding_rnu();
  matmul_requant((const int8_t*)X_ADDR, (const int8_t*)W1_ADDR, 0, a_buf, DIM_N, DIM_H, DIM_H_I, SHIFT1);
  lut_lookup(a_buf, (const int8_t*)SILU_LUT_ADDR, s_buf, DIM_N * DIM_H_I);
  matmul_requant(s_buf, (const int8_t*)W2_ADDR, 0, (int8_t*)Y_ADDR, DIM_N, DIM_H_I, DIM_H, SHIFT2);
  return 0;
}
