// Runs a program on the Coral NPU RTL oracle (coral-rtl: the RTL under Verilator as an ELF
// runner, ../shared/oracles/coral-rtl/README.md) and reads back its cycle count and
// memory regions.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tlmcraft::bench {

struct ExtRegion {  // bytes at an absolute address in external memory (>= 0x20000000)
  uint32_t address = 0;
  std::vector<uint8_t> bytes;
};

struct OracleRun {
  bool ok = false;             // halted without fault
  std::string error;           // why not
  uint64_t cycles = 0;         // cycles_first_to_mpause
  uint64_t dispatched = 0;     // instructions
  std::vector<ExtRegion> dumps;  // the requested regions after the halt
};

struct OracleOptions {
  std::string binary;          // path of coral-rtl
  uint32_t read_latency = 24;  // the model's AXI read latency (coral-rtl --ext-latency R-1)
  uint32_t write_latency = 12; // the model's AXI write latency (--ext-wlatency W-1)
  uint64_t max_cycles = 50'000'000;
};

// The oracle path: `flag` if set, else $CORAL_RTL, else the development checkout's
// ../shared/oracles/coral-rtl/coral-rtl next to the source tree; "" if none exists.
std::string find_coral_rtl(const std::string& flag);

// `inputs` are placed in external memory before the run; `dump` names the regions to read
// back (their bytes are ignored).
OracleRun run_on_rtl(const OracleOptions& options, const std::vector<uint8_t>& elf,
                     const std::vector<ExtRegion>& inputs, const std::vector<ExtRegion>& dump);

}  // namespace tlmcraft::bench
