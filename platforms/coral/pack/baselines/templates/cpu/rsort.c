/* rsort: y = x sorted ascending (signed) by an LSD radix sort, 8 bits per pass (4 passes,
   counting sort each), keys with the sign bit flipped so unsigned order is signed order.
   The scratch array lives in DTCM. */
#include "scalar.c"

static uint32_t scratch[DIM_N];
static uint32_t counts[256];

int main(void) {
  const uint32_t* x = (const uint32_t*)X_ADDR;
  uint32_t* y = (uint32_t*)Y_ADDR;
  SCALAR_LOOP
  for (int i = 0; i < DIM_N; ++i) y[i] = x[i] ^ 0x80000000u;
  uint32_t* src = y;
  uint32_t* dst = scratch;
  SCALAR_LOOP
  for (int shift = 0; shift < 32; shift += 8) {
    SCALAR_LOOP
    for (int d = 0; d < 256; ++d) counts[d] = 0;
    SCALAR_LOOP
    for (int i = 0; i < DIM_N; ++i) ++counts[(src[i] >> shift) & 0xFFu];
    uint32_t total = 0;
    SCALAR_LOOP
    for (int d = 0; d < 256; ++d) {
      uint32_t c = counts[d];
      counts[d] = total;
      total += c;
    }
    SCALAR_LOOP
    for (int i = 0; i < DIM_N; ++i) dst[counts[(src[i] >> shift) & 0xFFu]++] = src[i];
    uint32_t* t = src;
    src = dst;
    dst = t;
  }
  /* four passes: the sorted keys are back in y */
  SCALAR_LOOP
  for (int i = 0; i < DIM_N; ++i) y[i] = src[i] ^ 0x80000000u;
  return 0;
}
