/* c[m, n] = sat8((sum_k a[m, k] b[k, n] (+ bias[n]) + 2^(shift-1)) >> shift); row-major
   int8 a [M, K], b [K, N], c [M, N]; bias int32 or NULL. Vectorised over n. */
static void matmul_requant(const int8_t* a, const int8_t* b, const int32_t* bias, int8_t* c, int m, int k, int n,
                           int shift) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n;) {
      size_t vl = __riscv_vsetvl_e32m4((size_t)(n - j));
      vint32m4_t acc = bias ? __riscv_vle32_v_i32m4(bias + j, vl) : __riscv_vmv_v_x_i32m4(0, vl);
      for (int kk = 0; kk < k; ++kk) {
        vint8m1_t bv = __riscv_vle8_v_i8m1(b + kk * n + j, vl);
        acc = __riscv_vwadd_wv_i32m4(acc, __riscv_vwmul_vx_i16m2(bv, a[i * k + kk], vl), vl);
      }
      __riscv_vse8_v_i8m1(c + i * n + j, requant(acc, (size_t)shift, vl), vl);
      j += (int)vl;
    }
  }
}
