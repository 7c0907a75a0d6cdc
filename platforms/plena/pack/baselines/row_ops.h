// Shared emit routines of the PLENA level-1 templates for data held as VLEN-wide VRAM rows:
// moving whole row ranges between HBM and VRAM with the BLEN-row granularity of
// H_PREFETCH_V / H_STORE_V, including ranges that are not a multiple of BLEN rows.
#pragma once
#include <cstdint>
#include <string>

#include "platforms/plena/pack/baselines/asm_writer.h"
#include "platforms/plena/pack/baselines/gemm.h"

namespace tlmcraft::tasks::plena {

// HBM precision operands of the benchmark's formats.
constexpr int kPrecMx = 0;    // MXFP8 weights / activations
constexpr int kPrecBf16 = 2;  // BF16 (outputs)

// Registers the row routines may overwrite: two scratch registers and a loop counter.
struct RowRegs {
  int vram = 1, hbm = 2, loop = 15;
};

// VRAM[vram + r*VLEN] = row r of the tensor in a[areg] from element offset hbm_offset, for
// r < rows (rows of VLEN contiguous elements). Groups of BLEN rows use one H_PREFETCH_V
// each inside a hardware loop; a tail of fewer than BLEN rows is fetched one row at a
// time with STRIDE = 0, which fills BLEN VRAM rows with copies of that row, so the caller
// must leave BLEN - 1 spare rows after the range. SCALE must already be set. Leaves STRIDE
// = 0 when there was a tail.
void emit_prefetch_rows(AsmWriter& w, const PlenaArch& a, int areg, uint64_t hbm_offset, uint64_t vram,
                        uint64_t rows, int precision, const RowRegs& r = {});

// Row r of the tensor in a[areg] from element offset hbm_offset = VRAM[vram + r*VLEN], for
// r < rows. A tail of fewer than BLEN rows is stored one row at a time: the row is copied
// into the BLEN scratch rows at `scratch` and stored with STRIDE = 0, so every row of the
// transfer writes the same (identical) values and nothing past the tensor is touched.
// Leaves STRIDE = 0 when there was a tail.
void emit_store_rows(AsmWriter& w, const PlenaArch& a, int areg, uint64_t hbm_offset, uint64_t vram,
                     uint64_t rows, uint64_t scratch, int precision, const RowRegs& r = {});

}  // namespace tlmcraft::tasks::plena
