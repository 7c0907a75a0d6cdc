// Stage emitters for the PLENA level-2/3 template baselines. A kernel is a sequence of
// stages; every stage reads its operands from HBM and writes its result to HBM (the task's
// output tensor or a BF16 scratch matrix placed after the task's tensors), so stages keep
// no on-chip state between them and each may use all of VRAM and MSRAM.
//
// Matmuls accumulate the whole contraction in the matrix unit's FP32 accumulator and round
// once at write-out, as the references do. A BLEN x BLEN M_MM accumulator would need every
// K/MLEN weight tile resident at once (MSRAM holds 4), so the template uses the batched
// M_BMM / M_BTMM accumulator (MLEN x MLEN per head) with only head 0 meaningful: the
// activation rows are shifted left by m*HLEN lanes (V_SHFT_V) so that head 0 sees
// contraction slice m, and the weight tile is re-fetched per k-tile while ACC persists.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "platforms/plena/pack/baselines/asm_writer.h"
#include "platforms/plena/pack/baselines/gemm.h"
#include "tasks/layout.h"

namespace tlmcraft::tasks::plena {

// A 2-D view of a matrix in HBM: element (r, c) of column tile t = c / MLEN lives at
// element offset col0 + r * stride + t * tile_step + c % MLEN of the tensor at `addr`.
// stride 0 repeats one row for every row; tile_step 0 repeats one column tile.
struct HbmMat {
  uint64_t addr = 0;       // HBM byte address of the tensor (element 0)
  int prec = 2;            // H_* precision: 0/1 MXFP8, 2 BF16
  uint64_t scale = 0;      // SCALE for MXFP8 (the tensor's element count)
  uint64_t stride = 0;     // elements between rows
  uint64_t col0 = 0;       // first column (a multiple of 8 for MXFP8)
  uint64_t tile_step = 64; // elements between 64-column tiles

  HbmMat columns(uint64_t first) const {  // the view starting `first` columns further
    HbmMat m = *this;
    m.col0 += first;
    return m;
  }
};

// The whole tensor as laid out (rows of its last dimension).
HbmMat hbm_mat(const TensorPlacement& p);

// One product X @ W (or X @ W^T with W stored as [N, K]) with contraction length k.
struct MatTerm {
  HbmMat x, w;
  bool transposed = false;
  uint32_t k = 0;
};

// FP registers every stage may rely on (set by prologue()).
constexpr int kFOne = 1, kFNegInf = 2, kFScale = 3;
// FP_MEM base of the FlashAttention running maxima (past the task constants).
constexpr uint32_t kFlashMax = 256;

// One row operation of a map stage: VRAM row addresses of the inputs (gp registers), the
// output row register and a scratch row register.
using RowOp = std::function<void(AsmWriter& w, const std::vector<int>& in, int out, int tmp)>;

class StageEmitter {
 public:
  StageEmitter(const PlenaArch& arch, uint64_t scratch_base) : a_(arch), next_scratch_(scratch_base) {}

  // f1 = 1.0 (FP_MEM[1]), f2 = -inf, f3 = FP_MEM[scale_index] when scale_index >= 0.
  void prologue(int scale_index);
  // A fresh BF16 scratch matrix [rows, cols] after the task's tensors.
  HbmMat scratch(uint64_t rows, uint64_t cols);
  // A BF16 scratch row of ones viewed as a [any, 64] matrix (stride 0, tile_step 0).
  HbmMat ones();

  // y[M, N] = x[M, K] @ w[K, N], or x @ w^T with w viewed as [N, K] when w_transposed.
  // Contraction tail (K % 64) must be a multiple of HLEN; y is written in whole 64-column
  // tiles (pad N up to 64 in scratch). M must be a multiple of BLEN.
  void matmul(const HbmMat& x, const HbmMat& w, bool w_transposed, const HbmMat& y, uint32_t m, uint32_t k,
              uint32_t n, const std::string& what);
  // y = sum of one or two products, accumulated in one FP32 accumulator per output tile
  // and rounded once (same shape rules as matmul for each product).
  void matmul_sum(const std::vector<MatTerm>& terms, const HbmMat& y, uint32_t m, uint32_t n, const std::string& what);
  // out = op(inputs) row by row over [rows, cols] (cols a multiple of VLEN, rows of BLEN).
  void map(const std::vector<HbmMat>& in, const HbmMat& out, uint32_t rows, uint32_t cols, const RowOp& op,
           const std::string& what);
  // p = softmax(s * f3) per row over the first `cols` columns (cols <= 2*VLEN, a multiple
  // of HLEN; s and p padded to whole tiles).
  void softmax(const HbmMat& s, const HbmMat& p, uint32_t rows, uint32_t cols, const std::string& what);
  // Rotate-half RoPE of x [rows, heads*d] per head with tables cos, sin [rows, d].
  void rope(const HbmMat& x, const HbmMat& cos, const HbmMat& sin, const HbmMat& y, uint32_t rows, uint32_t h,
            uint32_t d, const std::string& what);
  // y = RMSNorm(x; gamma) per row of h with FP_MEM[inv_n_index] = 1/h and FP_MEM[eps_index] = eps.
  void rmsnorm(const HbmMat& x, const HbmMat& gamma, const HbmMat& y, uint32_t rows, uint32_t h, int inv_n_index,
               int eps_index, const std::string& what);
  // O = softmax(Q_j K_g^T * f3) V_g for every query head j (g = j / (heads / kv_heads)).
  void attention(const HbmMat& q, const HbmMat& k, const HbmMat& v, const HbmMat& o, uint32_t s, uint32_t d,
                 uint32_t heads, uint32_t kv_heads, const std::string& what);

  // FlashAttention (flash_stages.cpp). FP_MEM holds the running maximum of query row i
  // at kFlashMax + i.
  // m = -inf for every row.
  void flash_init(uint32_t rows);
  // One KV block of the online softmax over the first `cols` (<= VLEN) columns of s:
  // T = s * f3; m' = max(m, max T); alpha = exp(m - m'); E = exp(T - m'); m = m'.
  // Writes E to e (0 past the block) and alpha broadcast over each row to alpha.
  void flash_block(const HbmMat& s, const HbmMat& e, const HbmMat& alpha, uint32_t rows, uint32_t cols,
                   const std::string& what);
  // A BF16 identity matrix [n, n rounded up to VLEN] in scratch (built once per call).
  HbmMat identity(uint32_t n);

  AsmWriter& writer() { return w_; }
  std::string str() const { return w_.str(); }

 private:
  void add_imm(int rd, uint64_t value, const std::string& comment = "");  // gp[rd] += value (gp12 scratch)
  void set_scale_stride(const HbmMat& m);
  void set_stride(uint64_t stride);
  void k_tile(const HbmMat& x, const HbmMat& w, bool transposed, uint32_t rows, uint32_t slices, int ax, int aw);

  PlenaArch a_;
  uint64_t next_scratch_;
  AsmWriter w_;
  bool have_ones_ = false;
  HbmMat ones_;
};

// The first 4096-aligned HBM byte after every tensor of the layout.
uint64_t scratch_base(const PlatformLayout& layout);

}  // namespace tlmcraft::tasks::plena
