/* Shared by every Coral C baseline: headers, the rounding mode and exact integer helpers. */
#include <stddef.h>
#include <stdint.h>
#include <riscv_vector.h>

/* vnclip/vssra round to nearest, ties up (vxrm = rnu): (v + 2^(s-1)) >> s, as the
   reference's rshift. Set once at the start of main. */
static inline void set_rounding_rnu(void) { __asm__ volatile("csrwi vxrm, 0"); }

/* floor(a / b) for b > 0 (C division truncates towards zero). */
static inline int32_t floor_div(int32_t a, int32_t b) {
  int32_t q = a / b;
  if (a % b != 0 && a < 0) --q;
  return q;
}

/* rdiv(a, b) = floor((2a + b) / (2b)): a / b rounded half up. */
static inline int32_t rdiv(int32_t a, int32_t b) { return floor_div(2 * a + b, 2 * b); }

/* floor(sqrt(v)), bit by bit. */
static inline int32_t isqrt(uint32_t v) {
  uint32_t r = 0, bit = 1u << 30;
  while (bit > v) bit >>= 2;
  while (bit != 0) {
    if (v >= r + bit) {
      v -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
    bit >>= 2;
  }
  return (int32_t)r;
}

/* Element-wise floor((num) / den) for den > 0: vdiv truncates, and a negative
   remainder (only when num < 0 and inexact) means one less. */
static inline vint32m4_t vfloor_div(vint32m4_t num, int32_t den, size_t vl) {
  vint32m4_t q = __riscv_vdiv_vx_i32m4(num, den, vl);
  vint32m4_t r = __riscv_vrem_vx_i32m4(num, den, vl);
  return __riscv_vadd_vv_i32m4(q, __riscv_vsra_vx_i32m4(r, 31, vl), vl);
}

/* sat8((acc + 2^(shift-1)) >> shift) of int32 lanes: two saturating narrowing clips. */
static inline vint8m1_t requant(vint32m4_t acc, size_t shift, size_t vl) {
  vint16m2_t h = __riscv_vnclip_wx_i16m2(acc, shift, vl);
  return __riscv_vnclip_wx_i8m1(h, 0, vl);
}
