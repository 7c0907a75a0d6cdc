/* SwiGLU (swiglu_ffn.c); the intermediates live in DTCM. */
#include "prelude.c"
#include "matmul_requant.c"
#include "lut_lookup.c"
#include "swiglu_ffn.c"

static int8_t g_buf[DIM_N * DIM_H_I];
static int8_t u_buf[DIM_N * DIM_H_I];

int main(void) {
  set_rounding_rnu();
  swiglu_ffn((const int8_t*)X_ADDR, (const int8_t*)W_GATE_ADDR, (const int8_t*)W_UP_ADDR, (const int8_t*)W_DOWN_ADDR,
             (const int8_t*)SILU_LUT_ADDR, g_buf, u_buf, (int8_t*)Y_ADDR, DIM_N, DIM_H, DIM_H_I, SHIFT1, SHIFT2);
  return 0;
}
