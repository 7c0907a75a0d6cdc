/* What the Coral attention baselines keep in DTCM (platforms/coral/pack/int8_attention.h):
   the exp table, one key/value head (K_g transposed, V_g) and the current query row. The
   including template defines HEADS, KV_HEADS, HEAD_D (d), KEYS (s) and KT_BLOCK: K_g^T is
   stored block by block, block b a [d, nb] matrix of its nb keys (KT_BLOCK = KEYS: one
   [d, s] matrix), so a block's logits are one matmul_requant. */
#define ROW_Q (HEADS * HEAD_D)     /* row stride of Q and O */
#define ROW_KV (KV_HEADS * HEAD_D) /* row stride of K and V */

static int32_t exp_dtcm[256];
static int8_t kt[HEAD_D * KEYS];
static int8_t vh[KEYS * HEAD_D];
static int8_t q_row[HEAD_D];

static void copy_bytes(int8_t* dst, const int8_t* src, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t vl = __riscv_vsetvl_e8m4(n - i);
    __riscv_vse8_v_i8m4(dst + i, __riscv_vle8_v_i8m4(src + i, vl), vl);
    i += vl;
  }
}

static void copy_exp_table(const int32_t* table) {
  for (size_t i = 0; i < 256;) {
    size_t vl = __riscv_vsetvl_e32m4(256 - i);
    __riscv_vse32_v_i32m4(exp_dtcm + i, __riscv_vle32_v_i32m4(table + i, vl), vl);
    i += vl;
  }
}

/* K_g transposed into kt (blocked), V_g into vh [s, d]: each row of K_g is scattered down
   one column of its block with a strided store. */
static void load_kv_head(const int8_t* k, const int8_t* v, int g) {
  for (int j = 0; j < KEYS; ++j) {
    const int b0 = j / KT_BLOCK * KT_BLOCK;
    const int nb = KEYS - b0 < KT_BLOCK ? KEYS - b0 : KT_BLOCK;
    const int8_t* row = k + j * ROW_KV + g * HEAD_D;
    for (size_t c = 0; c < HEAD_D;) {
      size_t vl = __riscv_vsetvl_e8m4(HEAD_D - c);
      __riscv_vsse8_v_i8m4(kt + b0 * HEAD_D + (int)c * nb + (j - b0), nb, __riscv_vle8_v_i8m4(row + c, vl), vl);
      c += vl;
    }
    copy_bytes(vh + j * HEAD_D, v + j * ROW_KV + g * HEAD_D, HEAD_D);
  }
}
