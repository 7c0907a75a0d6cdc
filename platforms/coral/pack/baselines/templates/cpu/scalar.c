/* Shared by the CPU-program baselines: scalar C, no vector code. Loops carry
   "vectorize(disable)" because the platform compiles every C kernel for rv32imf_zve32x and
   these programs measure the scalar core. */
#include <stddef.h>
#include <stdint.h>

#define SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")
