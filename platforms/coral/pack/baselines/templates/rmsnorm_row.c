/* Integer RMSNorm of n values: ms = rdiv(sum x^2, n); sd = isqrt(256 (ms + 1));
   z = rdiv(512 x, sd); y = sat8(rdiv(z gamma, 64)) (rdiv by 64 is vnclip by 6 with vxrm = rnu). */
static void rmsnorm_row(const int8_t* x, const int8_t* gamma, int8_t* y, size_t n) {
  vint32m1_t s = __riscv_vmv_s_x_i32m1(0, 1);
  for (size_t i = 0; i < n;) {
    size_t vl = __riscv_vsetvl_e8m1(n - i);
    vint8m1_t v = __riscv_vle8_v_i8m1(x + i, vl);
    s = __riscv_vwredsum_vs_i16m2_i32m1(__riscv_vwmul_vv_i16m2(v, v, vl), s, vl);
    i += vl;
  }
  const int32_t ms = rdiv(__riscv_vmv_x_s_i32m1_i32(s), (int32_t)n);
  const int32_t sd = isqrt((uint32_t)(256 * (ms + 1)));

  for (size_t i = 0; i < n;) {
    size_t vl = __riscv_vsetvl_e8m1(n - i);
    vint32m4_t v = __riscv_vsext_vf4_i32m4(__riscv_vle8_v_i8m1(x + i, vl), vl);
    /* z = floor((1024 x + sd) / (2 sd)) */
    vint32m4_t z = vfloor_div(__riscv_vadd_vx_i32m4(__riscv_vsll_vx_i32m4(v, 10, vl), sd, vl), 2 * sd, vl);
    vint32m4_t zg = __riscv_vmul_vv_i32m4(z, __riscv_vsext_vf4_i32m4(__riscv_vle8_v_i8m1(gamma + i, vl), vl), vl);
    __riscv_vse8_v_i8m1(y + i, requant(zg, 6, vl), vl);
    i += vl;
  }
}
