/* vvadd: y[i] = a[i] + b[i] (mod 2^32). */
#include "scalar.c"

int main(void) {
  const uint32_t* a = (const uint32_t*)A_ADDR;
  const uint32_t* b = (const uint32_t*)B_ADDR;
  uint32_t* y = (uint32_t*)Y_ADDR;
  SCALAR_LOOP
  for (int i = 0; i < DIM_N; ++i) y[i] = a[i] + b[i];
  return 0;
}
