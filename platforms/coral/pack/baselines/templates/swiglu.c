/* SwiGLU: g = requant(x W_gate, SHIFT1); u = requant(x W_up, SHIFT1); s = silu_lut[g + 128];
   a = sat8((s u + 16) >> 5) (vnclip by 5 with vxrm = rnu); y = requant(a W_down, SHIFT2).
   Intermediates live in DTCM. */
#include "prelude.c"
#include "matmul_requant.c"
#include "lut_lookup.c"

static int8_t g_buf[DIM_N * DIM_H_I];
static int8_t u_buf[DIM_N * DIM_H_I];

int main(void) {
  set_rounding_rnu();
  const int8_t* x = (const int8_t*)X_ADDR;
  matmul_requant(x, (const int8_t*)W_GATE_ADDR, 0, g_buf, DIM_N, DIM_H, DIM_H_I, SHIFT1);
  matmul_requant(x, (const int8_t*)W_UP_ADDR, 0, u_buf, DIM_N, DIM_H, DIM_H_I, SHIFT1);
  lut_lookup(g_buf, (const int8_t*)SILU_LUT_ADDR, g_buf, DIM_N * DIM_H_I);
  for (size_t i = 0; i < DIM_N * DIM_H_I;) {
    size_t vl = __riscv_vsetvl_e8m1(DIM_N * DIM_H_I - i);
    vint16m2_t p = __riscv_vwmul_vv_i16m2(__riscv_vle8_v_i8m1(g_buf + i, vl), __riscv_vle8_v_i8m1(u_buf + i, vl), vl);
    __riscv_vse8_v_i8m1(g_buf + i, __riscv_vnclip_wx_i8m1(p, 5, vl), vl);
    i += vl;
  }
  matmul_requant(g_buf, (const int8_t*)W_DOWN_ADDR, 0, (int8_t*)Y_ADDR, DIM_N, DIM_H_I, DIM_H, SHIFT2);
  return 0;
}
