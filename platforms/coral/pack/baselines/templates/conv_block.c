/* ConvBlock: t = sat8((conv + 2^(SHIFT-1)) >> SHIFT); b = sat8((t bn_mult + bn_bias + 32) >> 6);
   y = max(b, 0). Vectorised over the output channels. */
#include "prelude.c"
#include "conv_acc.c"

int main(void) {
  set_rounding_rnu();
  const int8_t* x = (const int8_t*)X_ADDR;
  const int8_t* w = (const int8_t*)W_ADDR;
  const int8_t* mult = (const int8_t*)BN_MULT_ADDR;
  const int32_t* bias = (const int32_t*)BN_BIAS_ADDR;
  int8_t* y = (int8_t*)Y_ADDR;
  for (int r = 0; r < DIM_H; ++r)
    for (int c = 0; c < DIM_H; ++c)
      for (int o = 0; o < DIM_C_OUT;) {
        size_t vl = __riscv_vsetvl_e32m4((size_t)(DIM_C_OUT - o));
        vint8m1_t t = requant(conv_acc(x, w, r, c, o, vl), SHIFT, vl);
        vint16m2_t p = __riscv_vwmul_vv_i16m2(t, __riscv_vle8_v_i8m1(mult + o, vl), vl);
        vint32m4_t b = __riscv_vwadd_wv_i32m4(__riscv_vle32_v_i32m4(bias + o, vl), p, vl);
        vint8m1_t bn = __riscv_vmax_vx_i8m1(requant(b, 6, vl), 0, vl);
        __riscv_vse8_v_i8m1(y + (r * DIM_H + c) * DIM_C_OUT + o, bn, vl);
        o += (int)vl;
      }
  return 0;
}
