/* Elementwise int8 over n values at LMUL 4: y = sat8(a + b) (vsadd: a residual
   connection) and y = max(x, 0) (ReLU). y may be an operand. */
static void add_sat8(const int8_t* a, const int8_t* b, int8_t* y, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t vl = __riscv_vsetvl_e8m4(n - i);
    __riscv_vse8_v_i8m4(y + i,
                        __riscv_vsadd_vv_i8m4(__riscv_vle8_v_i8m4(a + i, vl), __riscv_vle8_v_i8m4(b + i, vl), vl), vl);
    i += vl;
  }
}

static void relu_int8(const int8_t* x, int8_t* y, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t vl = __riscv_vsetvl_e8m4(n - i);
    vint8m4_t v = __riscv_vle8_v_i8m4(x + i, vl);
    __riscv_vse8_v_i8m4(y + i, __riscv_vmax_vx_i8m4(v, 0, vl), vl);
    i += vl;
  }
}
