/* Conv2D (stride 1, 'same', channels last): y = sat8((conv + 2^(SHIFT-1)) >> SHIFT),
   vectorised over the output channels. */
#include "prelude.c"
#include "conv_acc.c"

int main(void) {
  set_rounding_rnu();
  const int8_t* x = (const int8_t*)X_ADDR;
  const int8_t* w = (const int8_t*)W_ADDR;
  int8_t* y = (int8_t*)Y_ADDR;
  for (int r = 0; r < DIM_H; ++r)
    for (int c = 0; c < DIM_H; ++c)
      for (int o = 0; o < DIM_C_OUT;) {
        size_t vl = __riscv_vsetvl_e32m4((size_t)(DIM_C_OUT - o));
        __riscv_vse8_v_i8m1(y + (r * DIM_H + c) * DIM_C_OUT + o, requant(conv_acc(x, w, r, c, o, vl), SHIFT, vl), vl);
        o += (int)vl;
      }
  return 0;
}
