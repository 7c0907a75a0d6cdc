/* copy: y = x, one word at a time. */
#include "scalar.c"

int main(void) {
  const uint32_t* x = (const uint32_t*)X_ADDR;
  uint32_t* y = (uint32_t*)Y_ADDR;
  SCALAR_LOOP
  for (int i = 0; i < DIM_N; ++i) y[i] = x[i];
  return 0;
}
