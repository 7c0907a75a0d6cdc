/* median: 3-point median filter; the two end points are copied. */
#include "scalar.c"

static int32_t median3(int32_t a, int32_t b, int32_t c) {
  if (a > b) {
    int32_t t = a;
    a = b;
    b = t;
  }
  /* now a <= b */
  if (c <= a) return a;
  if (c >= b) return b;
  return c;
}

int main(void) {
  const int32_t* x = (const int32_t*)X_ADDR;
  int32_t* y = (int32_t*)Y_ADDR;
  y[0] = x[0];
  y[DIM_N - 1] = x[DIM_N - 1];
  SCALAR_LOOP
  for (int i = 1; i < DIM_N - 1; ++i) y[i] = median3(x[i - 1], x[i], x[i + 1]);
  return 0;
}
