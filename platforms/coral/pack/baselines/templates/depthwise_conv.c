/* Depthwise convolution (stride 1, 'same', channels last):
   y[r, c, ch] = sat8((sum_{dr, dc} x[r + dr - p, c + dc - p, ch] w[dr, dc, ch] + 2^(SHIFT-1)) >> SHIFT),
   vectorised over the channels. */
#include "prelude.c"

int main(void) {
  set_rounding_rnu();
  const int8_t* x = (const int8_t*)X_ADDR;
  const int8_t* w = (const int8_t*)W_ADDR;
  int8_t* y = (int8_t*)Y_ADDR;
  const int pad = (DIM_K - 1) / 2;
  for (int r = 0; r < DIM_H; ++r)
    for (int c = 0; c < DIM_H; ++c)
      for (int ch = 0; ch < DIM_C;) {
        size_t vl = __riscv_vsetvl_e32m4((size_t)(DIM_C - ch));
        vint32m4_t acc = __riscv_vmv_v_x_i32m4(0, vl);
        for (int dr = 0; dr < DIM_K; ++dr) {
          const int rr = r + dr - pad;
          if (rr < 0 || rr >= DIM_H) continue;
          for (int dc = 0; dc < DIM_K; ++dc) {
            const int cc = c + dc - pad;
            if (cc < 0 || cc >= DIM_H) continue;
            vint8m1_t xv = __riscv_vle8_v_i8m1(x + (rr * DIM_H + cc) * DIM_C + ch, vl);
            vint8m1_t wv = __riscv_vle8_v_i8m1(w + (dr * DIM_K + dc) * DIM_C + ch, vl);
            acc = __riscv_vwadd_wv_i32m4(acc, __riscv_vwmul_vv_i16m2(xv, wv, vl), vl);
          }
        }
        __riscv_vse8_v_i8m1(y + (r * DIM_H + c) * DIM_C + ch, requant(acc, SHIFT, vl), vl);
        ch += (int)vl;
      }
  return 0;
}
