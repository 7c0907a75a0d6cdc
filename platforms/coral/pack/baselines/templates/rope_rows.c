/* RoPE of rows of x [s, h] (row stride h) on each head of d columns, tables cos/sin [s, d]
   in Q7; products widened to int16, their difference/sum to int32 (no overflow for any
   int8 operands), then vnclip by 7 (vxrm = rnu) and by 0: sat8((acc + 64) >> 7). x and y
   may be the same buffer. */
static void rope_rows(const int8_t* x, const int8_t* cos, const int8_t* sin, int8_t* y, int s, int h, int d) {
  const int half = d / 2;
  for (int p = 0; p < s; ++p) {
    const int8_t* c = cos + p * d;
    const int8_t* sn = sin + p * d;
    for (int head = 0; head < h; head += d) {
      const int8_t* xr = x + p * h + head;
      int8_t* yr = y + p * h + head;
      for (int j = 0; j < half;) {
        size_t vl = __riscv_vsetvl_e8m1((size_t)(half - j));
        vint8m1_t x1 = __riscv_vle8_v_i8m1(xr + j, vl);
        vint8m1_t x2 = __riscv_vle8_v_i8m1(xr + half + j, vl);
        vint16m2_t a1 = __riscv_vwmul_vv_i16m2(x1, __riscv_vle8_v_i8m1(c + j, vl), vl);
        vint16m2_t b1 = __riscv_vwmul_vv_i16m2(x2, __riscv_vle8_v_i8m1(sn + j, vl), vl);
        vint16m2_t a2 = __riscv_vwmul_vv_i16m2(x2, __riscv_vle8_v_i8m1(c + half + j, vl), vl);
        vint16m2_t b2 = __riscv_vwmul_vv_i16m2(x1, __riscv_vle8_v_i8m1(sn + half + j, vl), vl);
        vint32m4_t lo = __riscv_vwsub_vv_i32m4(a1, b1, vl);
        vint32m4_t hi = __riscv_vwadd_vv_i32m4(a2, b2, vl);
        __riscv_vse8_v_i8m1(yr + j, requant(lo, 7, vl), vl);
        __riscv_vse8_v_i8m1(yr + half + j, requant(hi, 7, vl), vl);
        j += (int)vl;
      }
    }
  }
}
