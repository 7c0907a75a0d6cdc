/* ReLU: y = max(x, 0) on int8. */
#include "prelude.c"

int main(void) {
  const int8_t* x = (const int8_t*)X_ADDR;
  int8_t* y = (int8_t*)Y_ADDR;
  for (size_t i = 0; i < DIM_N;) {
    size_t vl = __riscv_vsetvl_e8m4(DIM_N - i);
    vint8m4_t v = __riscv_vle8_v_i8m4(x + i, vl);
    __riscv_vse8_v_i8m4(y + i, __riscv_vmax_vx_i8m4(v, 0, vl), vl);
    i += vl;
  }
  return 0;
}
