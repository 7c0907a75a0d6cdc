// Random RV32IMF_Zve32x test programs for differential testing against qemu-riscv32.
//
// A program is a prologue (random register, FP, CSR and vector state), a list of
// self-contained "units" (one instruction, or a short group such as a forward branch
// over other instructions, or "li t, stride; vlse32.v ..."), and an epilogue that dumps
// the architectural state and writes it to stdout (Linux write/exit syscalls). Units
// are self-contained so any prefix of them is a valid program (used to find the first
// diverging instruction). Every generated instruction is legal and stays inside the
// data buffer, so a correct simulator never traps before the final ecall.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tlmcraft::isa::riscv::difftest {

// Layout of the bytes the program writes: the data buffer, then the register dump.
constexpr uint32_t kBufBytes = 1024;
constexpr uint32_t kDumpX = kBufBytes;            // x1..x31 (31 words)
constexpr uint32_t kDumpF = kDumpX + 31 * 4;      // f0..f31
constexpr uint32_t kDumpCsr = kDumpF + 32 * 4;    // fcsr, vl, vtype, vxsat, vxrm
constexpr uint32_t kDumpV = kDumpCsr + 5 * 4;     // v0..v31, 16 bytes each
constexpr uint32_t kOutputBytes = kDumpV + 32 * 16;
const char* dump_csr_name(unsigned index);        // "fcsr", "vl", ...

struct GeneratorOptions {
  unsigned units = 100;      // body units per program
  bool vector = true;        // include vector units
};

struct GeneratedProgram {
  uint64_t seed = 0;
  std::vector<std::string> prologue;  // assembly lines
  std::vector<std::string> units;     // each unit: one or more lines joined by '\n'
  std::vector<uint32_t> data;         // initial contents of the data buffer (kBufBytes / 4 words)
  // The complete assembly source with the first `unit_count` units.
  std::string source(size_t unit_count) const;
  std::string source() const { return source(units.size()); }
};

GeneratedProgram generate_program(uint64_t seed, const GeneratorOptions& options);

}  // namespace tlmcraft::isa::riscv::difftest
