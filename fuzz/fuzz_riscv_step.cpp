// libFuzzer harness: the RV32IMF_Zve32x decoder, disassembler and ISS (isa/riscv). The
// input is a program of raw instruction words placed in a small executable memory next
// to a small data memory; the hart runs a bounded number of steps from address 0.
// Registers start pointing into data memory so loads, stores and vector accesses reach
// mapped bytes as well as unmapped ones. Traps (illegal instructions, faults) are the
// normal outcome; crashes, out-of-bounds host accesses and UB are findings.
#include <cstdint>
#include <cstring>
#include <vector>

#include "isa/riscv/hart.h"

using namespace tlmcraft::isa::riscv;

namespace {

constexpr uint32_t kCodeBase = 0x0, kCodeSize = 4096;
constexpr uint32_t kDataBase = 0x10000, kDataSize = 4096;
constexpr uint64_t kMaxSteps = 2000;   // loops end here: keeps each input fast
constexpr unsigned kMaxTraps = 8;      // after a trap, skip the instruction and go on

uint32_t word_at(const uint8_t* data, size_t size, size_t i) {
  uint32_t w = 0;
  std::memcpy(&w, data + i, std::min<size_t>(4, size - i));
  return w;
}

void decode_each_word(const uint8_t* data, size_t size) {
  for (size_t i = 0; i < size; i += 4) {
    const uint32_t raw = word_at(data, size, i);
    (void)decode(raw);
    (void)Hart::disassemble(raw, uint32_t(i));
  }
}

void run_program(const uint8_t* data, size_t size) {
  std::vector<uint8_t> code(kCodeSize, 0), mem(kDataSize, 0);
  std::memcpy(code.data(), data, std::min<size_t>(size, kCodeSize));
  // The data memory starts as the program bytes too: loads see varied values.
  std::memcpy(mem.data(), data, std::min<size_t>(size, kDataSize));
  Hart hart;
  hart.add_region({"itcm", kCodeBase, kCodeSize, code.data(), /*writable=*/true, /*executable=*/true});
  hart.add_region({"dtcm", kDataBase, kDataSize, mem.data(), true, false});
  for (unsigned r = 1; r < 32; ++r) hart.x[r] = kDataBase + r * 64;  // in data memory, 64-byte apart
  unsigned traps = 0;
  for (uint64_t step = 0; step < kMaxSteps && !hart.halted; ++step) {
    try {
      hart.step();
    } catch (const Trap& t) {
      if (++traps > kMaxTraps) break;
      (void)to_string(t.cause);
      hart.pc += 4;  // as a trap handler returning past the instruction would
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kCodeSize) return -1;  // keep inputs within the code memory (not added to the corpus)
  decode_each_word(data, size);
  run_program(data, size);
  return 0;
}
