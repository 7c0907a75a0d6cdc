/* y[i] = lut[x[i] + 128]: an indexed load with byte offsets x + 128 (x ^ 0x80 as unsigned). */
static void lut_lookup(const int8_t* x, const int8_t* lut, int8_t* y, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t vl = __riscv_vsetvl_e8m4(n - i);
    vuint8m4_t u = __riscv_vreinterpret_v_i8m4_u8m4(__riscv_vle8_v_i8m4(x + i, vl));
    vuint8m4_t idx = __riscv_vxor_vx_u8m4(u, 0x80, vl);
    __riscv_vse8_v_i8m4(y + i, __riscv_vluxei8_v_i8m4(lut, idx, vl), vl);
    i += vl;
  }
}
