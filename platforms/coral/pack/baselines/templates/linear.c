/* Linear: y = sat8((x W + bias + 2^(SHIFT-1)) >> SHIFT); the int32 bias starts the accumulator. */
#include "prelude.c"
#include "matmul_requant.c"

int main(void) {
  set_rounding_rnu();
  matmul_requant((const int8_t*)X_ADDR, (const int8_t*)W_ADDR, (const int32_t*)BIAS_ADDR, (int8_t*)Y_ADDR, DIM_M, DIM_K,
                 DIM_N, SHIFT);
  return 0;
}
