// The attention kernels' head-slice shift as a PLENA loop: source (gp1) and destination
// (gp2) step by a row each iteration, 8 iterations; serial timing, default latencies:
// 3 set-ups + C_LOOP_START + 8 x 4 = 36 cycles. With the second gp write port (GPW2) the
// miner fuses the shift with both post-increments (tests/agent/codesign/gp_write_port_test.cpp).
#pragma once

namespace tlmcraft::agent::codesign {

inline constexpr const char* kShiftLoop = R"(S_ADDI_INT gp1, gp0, 0
S_ADDI_INT gp2, gp0, 1024
S_ADDI_INT gp8, gp0, 3
C_LOOP_START gp6, 8
  V_SHFT_V gp2, gp1, gp8, 0
  S_ADDI_INT gp1, gp1, 64
  S_ADDI_INT gp2, gp2, 64
C_LOOP_END gp6
)";

}  // namespace tlmcraft::agent::codesign
