/* Integer LayerNorm: mean = rdiv(sum x, n); c = x - mean; var = rdiv(sum c^2, n);
   sd = isqrt(256 (var + 1)); z = rdiv(512 c, sd); y = sat8(rdiv(z gamma, 64) + beta). */
#include "prelude.c"

int main(void) {
  set_rounding_rnu();
  const int8_t* x = (const int8_t*)X_ADDR;
  const int8_t* gamma = (const int8_t*)GAMMA_ADDR;
  const int8_t* beta = (const int8_t*)BETA_ADDR;
  int8_t* y = (int8_t*)Y_ADDR;

  vint32m1_t s1 = __riscv_vmv_s_x_i32m1(0, 1);
  for (size_t i = 0; i < DIM_N;) {
    size_t vl = __riscv_vsetvl_e8m1(DIM_N - i);
    s1 = __riscv_vwredsum_vs_i16m2_i32m1(__riscv_vsext_vf2_i16m2(__riscv_vle8_v_i8m1(x + i, vl), vl), s1, vl);
    i += vl;
  }
  const int32_t mean = rdiv(__riscv_vmv_x_s_i32m1_i32(s1), DIM_N);

  vint32m1_t s2 = __riscv_vmv_s_x_i32m1(0, 1);
  for (size_t i = 0; i < DIM_N;) {
    size_t vl = __riscv_vsetvl_e8m1(DIM_N - i);
    vint16m2_t c = __riscv_vsub_vx_i16m2(__riscv_vsext_vf2_i16m2(__riscv_vle8_v_i8m1(x + i, vl), vl), (int16_t)mean, vl);
    s2 = __riscv_vredsum_vs_i32m4_i32m1(__riscv_vwmul_vv_i32m4(c, c, vl), s2, vl);
    i += vl;
  }
  const int32_t var = rdiv(__riscv_vmv_x_s_i32m1_i32(s2), DIM_N);
  const int32_t sd = isqrt((uint32_t)(256 * (var + 1)));

  for (size_t i = 0; i < DIM_N;) {
    size_t vl = __riscv_vsetvl_e8m1(DIM_N - i);
    vint32m4_t c = __riscv_vsub_vx_i32m4(__riscv_vsext_vf4_i32m4(__riscv_vle8_v_i8m1(x + i, vl), vl), mean, vl);
    /* z = floor((1024 c + sd) / (2 sd)) */
    vint32m4_t z = vfloor_div(__riscv_vadd_vx_i32m4(__riscv_vsll_vx_i32m4(c, 10, vl), sd, vl), 2 * sd, vl);
    vint32m4_t zg = __riscv_vmul_vv_i32m4(z, __riscv_vsext_vf4_i32m4(__riscv_vle8_v_i8m1(gamma + i, vl), vl), vl);
    /* rdiv(v, 64) = (v + 32) >> 6 */
    vint32m4_t t = __riscv_vsra_vx_i32m4(__riscv_vadd_vx_i32m4(zg, 32, vl), 6, vl);
    t = __riscv_vadd_vv_i32m4(t, __riscv_vsext_vf4_i32m4(__riscv_vle8_v_i8m1(beta + i, vl), vl), vl);
    __riscv_vse8_v_i8m1(y + i, requant(t, 0, vl), vl);
    i += vl;
  }
  return 0;
}
