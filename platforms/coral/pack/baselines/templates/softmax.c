/* Integer softmax: m = max(x); e_i = exp_table[m - x_i]; S = sum e_i;
   y_i = min(127, rdiv(128 e_i, S)) = min(127, floor((256 e_i + S) / (2 S))). */
#include "prelude.c"
#include "softmax_q7.c"

int main(void) {
  softmax_q7((const int8_t*)X_ADDR, (int8_t*)Y_ADDR, DIM_N, (const int32_t*)EXP_TABLE_ADDR);
  return 0;
}
