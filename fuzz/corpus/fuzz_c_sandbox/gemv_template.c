/* GEMV: y[m] = sat8((sum_n A[m, n] x[n] + 2^(SHIFT-1)) >> SHIFT). Each row is a widening
   multiply and a widening reduction; the int32 sums are requantised together. */
#include "prelude.c"

static int32_t acc[DIM_M];

int main(void) {
  set_rounding_rnu();
  const int8_t* a = (const int8_t*)A_ADDR;
  const int8_t* x = (const int8_t*)X_ADDR;
  int8_t* y = (int8_t*)Y_ADDR;
  for (int m = 0; m < DIM_M; ++m) {
    vint32m1_t s = __riscv_vmv_s_x_i32m1(0, 1);
    for (size_t i = 0; i < DIM_N;) {
      size_t vl = __riscv_vsetvl_e8m1(DIM_N - i);
      vint16m2_t p = __riscv_vwmul_vv_i16m2(__riscv_vle8_v_i8m1(a + m * DIM_N + i, vl), __riscv_vle8_v_i8m1(x + i, vl), vl);
      s = __riscv_vwredsum_vs_i16m2_i32m1(p, s, vl);
      i += vl;
    }
    acc[m] = __riscv_vmv_x_s_i32m1_i32(s);
  }
  for (size_t i = 0; i < DIM_M;) {
    size_t vl = __riscv_vsetvl_e32m4(DIM_M - i);
    __riscv_vse8_v_i8m1(y + i, requant(__riscv_vle32_v_i32m4(acc + i, vl), SHIFT, vl), vl);
    i += vl;
  }
  return 0;
}
