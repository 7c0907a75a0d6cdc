// Differential testing of the ISS against qemu-riscv32: assemble a generated program with
// the real GNU toolchain into a Linux-user ELF, run it on qemu and on our Hart (until the
// program's write ecall), compare the dumped state field by field. On a mismatch the
// first diverging unit is found by running prefixes of the program.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tests/isa/riscv/difftest/program_generator.h"

namespace tlmcraft::isa::riscv::difftest {

struct Toolchain {
  std::string as = "riscv64-unknown-elf-as";
  std::string ld = "riscv64-unknown-elf-ld";
  std::string qemu = "qemu-riscv32";
  // qemu 7.2 has no Zve32x CPU model: full V with VLEN = 128 and ELEN = 32 accepts the
  // same programs (the generator emits no vector floating point).
  std::string qemu_cpu = "rv32,v=true,vlen=128,elen=32,vext_spec=v1.0";
  std::string march = "rv32imf_zicsr_zve32x";
};

// The output of one run: the program's written bytes, or why there are none.
struct RunOutput {
  bool ok = false;
  std::string error;
  std::vector<uint8_t> bytes;
  uint64_t instructions = 0;  // ISS only: instructions retired before the write ecall
};

// One field that differs: "a0: iss 0x00000001, qemu 0x00000002".
std::vector<std::string> compare_outputs(const std::vector<uint8_t>& iss, const std::vector<uint8_t>& qemu);
// All fields of one output as readable text (registers, CSRs, vector registers).
std::string format_state(const std::vector<uint8_t>& bytes);

struct CaseResult {
  bool passed = false;
  bool harness_error = false;  // assembling or qemu failed: a generator/toolchain problem
  uint64_t instructions = 0;
  std::string report;          // on failure: program, diverging unit, both states
};

class DiffTester {
 public:
  explicit DiffTester(Toolchain toolchain = {});
  ~DiffTester();
  DiffTester(const DiffTester&) = delete;
  DiffTester& operator=(const DiffTester&) = delete;

  // True when the assembler, linker and qemu can be run (checked once).
  bool tools_available(std::string* why = nullptr) const;

  // Assembles `source` into an ELF in the work directory; returns its path or "" with `error`.
  std::string build(const std::string& source, std::string& error);
  RunOutput run_qemu(const std::string& elf) const;
  RunOutput run_iss(const std::string& elf) const;
  // Removes the files build() made for `elf`.
  void discard(const std::string& elf);

  CaseResult run_case(const GeneratedProgram& program);

 private:
  bool prefix_matches(const GeneratedProgram& program, size_t units, std::vector<std::string>* diffs,
                      std::string* iss_state, std::string* qemu_state, std::string* error);
  Toolchain tc_;
  std::string dir_;
  unsigned counter_ = 0;
};

}  // namespace tlmcraft::isa::riscv::difftest
