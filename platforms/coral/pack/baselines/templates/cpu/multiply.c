/* multiply: y[i] = a[i] * b[i] (mod 2^32) by software shift-and-add, no mul instruction. */
#include "scalar.c"

static uint32_t shift_add_multiply(uint32_t x, uint32_t y) {
  uint32_t result = 0;
  SCALAR_LOOP
  while (y != 0) {
    if (y & 1u) result += x;
    x <<= 1;
    y >>= 1;
  }
  return result;
}

int main(void) {
  const uint32_t* a = (const uint32_t*)A_ADDR;
  const uint32_t* b = (const uint32_t*)B_ADDR;
  uint32_t* y = (uint32_t*)Y_ADDR;
  SCALAR_LOOP
  for (int i = 0; i < DIM_N; ++i) y[i] = shift_add_multiply(a[i], b[i]);
  return 0;
}
