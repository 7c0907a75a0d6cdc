/* The Coral integer softmax of n int8 logits in Q4 into Q7 probabilities (the softmax
   task's formula; platforms/coral/pack/int8_attention.h): m = max(x); e_i = table[m - x_i];
   S = sum e_i; y_i = min(127, rdiv(128 e_i, S)) = min(127, floor((256 e_i + S) / (2 S))).
   y may be x (each strip is read before it is written). */

/* Element 0 of an int8 vector, sign-extended: read as the low byte of a SEW = 32 element
   and sign-extended in the scalar unit, because coral-rtl's vmv.x.s zero-extends a SEW = 8
   element (the RVV spec and the model sign-extend; docs/platforms/coral.md). */
static inline int32_t first_i8(vint8m1_t v) {
  const uint32_t w = (uint32_t)__riscv_vmv_x_s_i32m1_i32(__riscv_vreinterpret_v_i8m1_i32m1(v));
  return (int32_t)(w << 24) >> 24;
}

/* e = table[m - x] for vl lanes: int32 table entries at byte offsets 4 (m - x). */
static inline vint32m4_t exp_lookup(const int32_t* table, vint8m1_t x, int32_t m, size_t vl) {
  vint16m2_t d = __riscv_vrsub_vx_i16m2(__riscv_vsext_vf2_i16m2(x, vl), (int16_t)m, vl);
  vuint16m2_t off = __riscv_vsll_vx_u16m2(__riscv_vreinterpret_v_i16m2_u16m2(d), 2, vl);
  return __riscv_vluxei16_v_i32m4(table, off, vl);
}

static void softmax_q7(const int8_t* x, int8_t* y, size_t n, const int32_t* table) {
  vint8m1_t mx = __riscv_vmv_s_x_i8m1(-128, 1);
  for (size_t i = 0; i < n;) {
    size_t vl = __riscv_vsetvl_e8m1(n - i);
    mx = __riscv_vredmax_vs_i8m1_i8m1(__riscv_vle8_v_i8m1(x + i, vl), mx, vl);
    i += vl;
  }
  const int32_t m = first_i8(mx);

  vint32m1_t sum = __riscv_vmv_s_x_i32m1(0, 1);
  for (size_t i = 0; i < n;) {
    size_t vl = __riscv_vsetvl_e8m1(n - i);
    vint32m4_t e = exp_lookup(table, __riscv_vle8_v_i8m1(x + i, vl), m, vl);
    sum = __riscv_vredsum_vs_i32m4_i32m1(e, sum, vl);
    i += vl;
  }
  const uint32_t s = (uint32_t)__riscv_vmv_x_s_i32m1_i32(sum);

  for (size_t i = 0; i < n;) {
    size_t vl = __riscv_vsetvl_e8m1(n - i);
    vint32m4_t e = exp_lookup(table, __riscv_vle8_v_i8m1(x + i, vl), m, vl);
    vuint32m4_t num = __riscv_vadd_vx_u32m4(__riscv_vsll_vx_u32m4(__riscv_vreinterpret_v_i32m4_u32m4(e), 8, vl), s, vl);
    vuint32m4_t q = __riscv_vminu_vx_u32m4(__riscv_vdivu_vx_u32m4(num, 2 * s, vl), 127, vl);
    vuint16m2_t q16 = __riscv_vnsrl_wx_u16m2(q, 0, vl);
    vuint8m1_t q8 = __riscv_vnsrl_wx_u8m1(q16, 0, vl);
    __riscv_vse8_v_i8m1(y + i, __riscv_vreinterpret_v_u8m1_i8m1(q8), vl);
    i += vl;
  }
}
