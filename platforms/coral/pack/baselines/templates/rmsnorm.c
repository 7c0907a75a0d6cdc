/* Integer RMSNorm of the whole vector (rmsnorm_row.c). */
#include "prelude.c"
#include "rmsnorm_row.c"

int main(void) {
  set_rounding_rnu();
  rmsnorm_row((const int8_t*)X_ADDR, (const int8_t*)GAMMA_ADDR, (int8_t*)Y_ADDR, DIM_N);
  return 0;
}
