/* The 'same' convolution accumulator of output pixel (r, c), lanes o..o+vl of c_out:
   sum over the k x k window (zero padding) and c_in of x[rr, cc, i] w[dr, dc, i, o]. */
static inline vint32m4_t conv_acc(const int8_t* x, const int8_t* w, int r, int c, int o, size_t vl) {
  const int pad = (DIM_K - 1) / 2;
  vint32m4_t acc = __riscv_vmv_v_x_i32m4(0, vl);
  for (int dr = 0; dr < DIM_K; ++dr) {
    const int rr = r + dr - pad;
    if (rr < 0 || rr >= DIM_H) continue;
    for (int dc = 0; dc < DIM_K; ++dc) {
      const int cc = c + dc - pad;
      if (cc < 0 || cc >= DIM_H) continue;
      const int8_t* xp = x + (rr * DIM_H + cc) * DIM_C_IN;
      const int8_t* wp = w + (dr * DIM_K + dc) * DIM_C_IN * DIM_C_OUT + o;
      for (int i = 0; i < DIM_C_IN; ++i) {
        vint8m1_t wv = __riscv_vle8_v_i8m1(wp + i * DIM_C_OUT, vl);
        acc = __riscv_vwadd_wv_i32m4(acc, __riscv_vwmul_vx_i16m2(wv, xp[i], vl), vl);
      }
    }
  }
  return acc;
}
