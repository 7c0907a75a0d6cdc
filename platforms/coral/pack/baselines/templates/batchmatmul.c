/* BatchMatMul: C[t] = sat8((A[t] B[t] + 2^(SHIFT-1)) >> SHIFT) for every batch t. */
#include "prelude.c"
#include "matmul_requant.c"

int main(void) {
  set_rounding_rnu();
  const int8_t* a = (const int8_t*)A_ADDR;
  const int8_t* b = (const int8_t*)B_ADDR;
  int8_t* c = (int8_t*)C_ADDR;
  for (int t = 0; t < DIM_B; ++t)
    matmul_requant(a + t * DIM_M * DIM_K, b + t * DIM_K * DIM_N, 0, c + t * DIM_M * DIM_N, DIM_M, DIM_K, DIM_N, SHIFT);
  return 0;
}
