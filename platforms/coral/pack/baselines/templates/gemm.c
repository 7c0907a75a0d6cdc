/* GEMM: C = sat8((A B + 2^(SHIFT-1)) >> SHIFT), A [M, K], B [K, N] int8. */
#include "prelude.c"
#include "matmul_requant.c"

int main(void) {
  set_rounding_rnu();
  matmul_requant((const int8_t*)A_ADDR, (const int8_t*)B_ADDR, 0, (int8_t*)C_ADDR, DIM_M, DIM_K, DIM_N, SHIFT);
  return 0;
}
