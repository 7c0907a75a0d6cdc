/* SwiGLU of x [n, h]: g = requant(x W_gate, shift1); u = requant(x W_up, shift1);
   s = silu_lut[g + 128]; a = sat8((s u + 16) >> 5) (vnclip by 5 with vxrm = rnu);
   y = requant(a W_down, shift2). g and u are [n, h_i] buffers (DTCM); a overwrites g. */
static void swiglu_ffn(const int8_t* x, const int8_t* w_gate, const int8_t* w_up, const int8_t* w_down,
                       const int8_t* silu_lut, int8_t* g, int8_t* u, int8_t* y, int n, int h, int h_i, int shift1,
                       int shift2) {
  matmul_requant(x, w_gate, 0, g, n, h, h_i, shift1);
  matmul_requant(x, w_up, 0, u, n, h, h_i, shift1);
  lut_lookup(g, silu_lut, g, (size_t)(n * h_i));
  for (size_t i = 0; i < (size_t)(n * h_i);) {
    size_t vl = __riscv_vsetvl_e8m1((size_t)(n * h_i) - i);
    vint16m2_t p = __riscv_vwmul_vv_i16m2(__riscv_vle8_v_i8m1(g + i, vl), __riscv_vle8_v_i8m1(u + i, vl), vl);
    __riscv_vse8_v_i8m1(g + i, __riscv_vnclip_wx_i8m1(p, 5, vl), vl);
    i += vl;
  }
  matmul_requant(g, w_down, 0, y, n, h_i, h, shift2);
}
