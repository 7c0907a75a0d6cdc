// Vector-extension decoding: placeholder until the Zve32x semantics land (every vector
// encoding is reported as illegal meanwhile).
#include "isa/riscv/hart.h"

namespace tlmcraft::isa::riscv {

bool decode_vector(uint32_t, DecodedInsn&) { return false; }
std::string disassemble_vector(uint32_t) { return ""; }

}  // namespace tlmcraft::isa::riscv
