/* Integer RoPE (rotate-half), x in Q5, cos/sin in Q7:
   y[j] = sat8((x[j] cos[j] - x[j + h/2] sin[j] + 64) >> 7) for j < h/2,
   y[j] = sat8((x[j] cos[j] + x[j - h/2] sin[j] + 64) >> 7) for j >= h/2. */
#include "prelude.c"
#include "rope_rows.c"

int main(void) {
  set_rounding_rnu();
  rope_rows((const int8_t*)X_ADDR, (const int8_t*)COS_ADDR, (const int8_t*)SIN_ADDR, (int8_t*)Y_ADDR, DIM_S, DIM_H,
            DIM_H);
  return 0;
}
