/* FlashAttention in integers (platforms/coral/pack/int8_attention.h): per query row, keys in
   blocks of BLOCK with a running maximum m, sum l and int32 partial output acc [d]:
     t = requant(q K_b^T, SHIFT_QK); m' = max(m, max t);
     if m' > m: a = exp[m' - m]; l = (l a + 2^14) >> 15; acc = (acc a + 2^14) >> 15; m = m'
     e = exp[m - t]; l += sum e; acc += e V_b
   then o = sat8(rdiv(acc, l)). The rescale of acc is vsmul by a << 16 (SEW 32):
   (acc (a 2^16) + 2^30) >> 31 with vxrm = rnu, exactly (acc a + 2^14) >> 15; it is skipped
   while l = 0 (acc is 0 then too). */
#include "prelude.c"
#include "matmul_requant.c"
#include "softmax_q7.c"
#define HEADS 1
#define KV_HEADS 1
#define HEAD_D DIM_H
#define KEYS DIM_S
#define KT_BLOCK BLOCK
#include "attention_kv.c"

static int8_t t_blk[BLOCK];
static int32_t e_blk[BLOCK];
static int32_t acc[HEAD_D];

/* acc = (acc a + 2^14) >> 15, l likewise (a <= 32767). */
static void rescale(int32_t* l, int32_t a) {
  *l = (int32_t)(((int64_t)*l * a + 16384) >> 15);
  for (size_t c = 0; c < HEAD_D;) {
    size_t vl = __riscv_vsetvl_e32m4(HEAD_D - c);
    __riscv_vse32_v_i32m4(acc + c, __riscv_vsmul_vx_i32m4(__riscv_vle32_v_i32m4(acc + c, vl), a << 16, vl), vl);
    c += vl;
  }
}

/* acc += sum over the block's keys of e_blk[j] V[b0 + j] (vectorised over d). */
static void accumulate(int b0, int nb) {
  for (size_t c = 0; c < HEAD_D;) {
    size_t vl = __riscv_vsetvl_e32m4(HEAD_D - c);
    vint32m4_t a = __riscv_vle32_v_i32m4(acc + c, vl);
    for (int j = 0; j < nb; ++j) {
      vint32m4_t vv = __riscv_vsext_vf4_i32m4(__riscv_vle8_v_i8m1(vh + (b0 + j) * HEAD_D + c, vl), vl);
      a = __riscv_vmacc_vx_i32m4(a, e_blk[j], vv, vl);
    }
    __riscv_vse32_v_i32m4(acc + c, a, vl);
    c += vl;
  }
}

static void flash_row(int8_t* o) {
  int32_t m = -128, l = 0;
  for (size_t c = 0; c < HEAD_D;) {
    size_t vl = __riscv_vsetvl_e32m4(HEAD_D - c);
    __riscv_vse32_v_i32m4(acc + c, __riscv_vmv_v_x_i32m4(0, vl), vl);
    c += vl;
  }
  for (int b0 = 0; b0 < KEYS; b0 += BLOCK) {
    const int nb = KEYS - b0 < BLOCK ? KEYS - b0 : BLOCK;
    matmul_requant(q_row, kt + b0 * HEAD_D, 0, t_blk, 1, HEAD_D, nb, SHIFT_QK);
    size_t vl = __riscv_vsetvl_e8m1((size_t)nb);
    vint8m1_t t = __riscv_vle8_v_i8m1(t_blk, vl);
    const int32_t mb = first_i8(__riscv_vredmax_vs_i8m1_i8m1(t, __riscv_vmv_s_x_i8m1(-128, 1), vl));
    if (mb > m) {
      if (l != 0) rescale(&l, exp_dtcm[mb - m]);
      m = mb;
    }
    vint32m4_t e = exp_lookup(exp_dtcm, t, m, vl);
    l += __riscv_vmv_x_s_i32m1_i32(__riscv_vredsum_vs_i32m4_i32m1(e, __riscv_vmv_s_x_i32m1(0, 1), vl));
    __riscv_vse32_v_i32m4(e_blk, e, vl);
    accumulate(b0, nb);
  }
  for (size_t c = 0; c < HEAD_D;) {
    size_t vl = __riscv_vsetvl_e32m4(HEAD_D - c);
    vint32m4_t num = __riscv_vadd_vx_i32m4(__riscv_vsll_vx_i32m4(__riscv_vle32_v_i32m4(acc + c, vl), 1, vl), l, vl);
    __riscv_vse8_v_i8m1(o + c, requant(vfloor_div(num, 2 * l, vl), 0, vl), vl);
    c += vl;
  }
}

int main(void) {
  set_rounding_rnu();
  copy_exp_table((const int32_t*)EXP_TABLE_ADDR);
  load_kv_head((const int8_t*)K_ADDR, (const int8_t*)V_ADDR, 0);
  const int8_t* q = (const int8_t*)Q_ADDR;
  for (int r = 0; r < KEYS; ++r) {
    copy_bytes(q_row, q + r * ROW_Q, HEAD_D);
    flash_row((int8_t*)O_ADDR + r * ROW_Q);
  }
  return 0;
}
