// Speed of the bare RISC-V ISS loop (isa/riscv Hart::run, no platform, no timing): a
// scalar int32 dot-product kernel (loads, mul, add, branches) repeated until enough
// instructions ran. Prints simulated instructions per host second.
//
// Usage: bench_riscv_iss [repetitions]   (default 100000 -> about 180 M instructions)
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "isa/riscv/hart.h"

using tlmcraft::isa::riscv::Hart;
using tlmcraft::isa::riscv::Trap;

int main(int argc, char** argv) {
  const long repetitions = argc > 1 ? std::atol(argv[1]) : 100000;
  if (repetitions <= 0) {
    std::fprintf(stderr, "usage: bench_riscv_iss [repetitions > 0]\n");
    return 2;
  }
  // a0 = DTCM + 16, a3 = repetitions; a[i] at a0, b[i] at a0 + 1024 (256 elements each);
  // the dot product is stored at a0 - 4.
  const uint32_t kernel[] = {
      0x00050293,  // outer: mv    t0,a0
      0x10000313,  //        li    t1,256
      0x00000613,  //        li    a2,0
      0x0002a383,  // inner: lw    t2,0(t0)
      0x4002ae03,  //        lw    t3,1024(t0)
      0x03c38eb3,  //        mul   t4,t2,t3
      0x01d60633,  //        add   a2,a2,t4
      0x00428293,  //        addi  t0,t0,4
      0xfff30313,  //        addi  t1,t1,-1
      0xfe0314e3,  //        bnez  t1,inner
      0xfec52e23,  //        sw    a2,-4(a0)
      0xfff68693,  //        addi  a3,a3,-1
      0xfc0698e3,  //        bnez  a3,outer
      0x08000073,  //        mpause
  };
  std::vector<uint8_t> itcm(8192), dtcm(32768);
  std::memcpy(itcm.data(), kernel, sizeof kernel);
  for (uint32_t i = 0; i < 512; ++i) {
    const uint32_t v = i * 2654435761u;
    std::memcpy(dtcm.data() + 16 + 4 * i, &v, 4);
  }
  Hart hart;
  hart.add_region({"itcm", 0x0, 8192, itcm.data(), false, true});
  hart.add_region({"dtcm", 0x10000, 32768, dtcm.data(), true, false});
  hart.x[10] = 0x10010;
  hart.x[13] = static_cast<uint32_t>(repetitions);

  // Wall time and this process's CPU time (the machine may be shared: CPU time is the
  // fairer figure of the ISS's own speed).
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  uint64_t retired = 0;
  try {
    retired = hart.run(~0ull);
  } catch (const Trap& t) {
    std::fprintf(stderr, "trap: %s\n", t.detail.c_str());
    return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu_seconds = double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  // Check the result so the run is not vacuous: the dot product of the two arrays.
  uint32_t expect = 0;
  for (uint32_t i = 0; i < 256; ++i) expect += (i * 2654435761u) * ((i + 256) * 2654435761u);
  uint32_t got;
  std::memcpy(&got, dtcm.data() + 12, 4);
  std::printf(
      "bench_riscv_iss: %llu instructions in %.3f s wall (%.1f M instructions/s), %.3f s CPU (%.1f M "
      "instructions/s); dot product %s\n",
      static_cast<unsigned long long>(retired), seconds, retired / seconds / 1e6, cpu_seconds,
      retired / cpu_seconds / 1e6, got == expect ? "correct" : "WRONG");
  return got == expect ? 0 : 1;
}
