/* ReLU: y = max(x, 0) on int8 (elementwise_int8.c). */
#include "prelude.c"
#include "elementwise_int8.c"

int main(void) {
  relu_int8((const int8_t*)X_ADDR, (int8_t*)Y_ADDR, DIM_N);
  return 0;
}
