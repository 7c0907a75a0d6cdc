// Energy by action (docs/energy-area.md): each figure derived by hand from a kernel's
// instructions x the actions each performs x the pJ of platforms/<p>/configs/default.yaml
// `ppa.energy`; energy changes only with the work or the run time.
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

#ifdef TLMCRAFT_EXE
// `tlmcraft run <args> --trials 1 --seed 1 --json`, parsed; fails the test on a non-zero exit.
json run_json(const std::string& args) {
  test::ScratchDir dir;
  const std::string cmd = std::string("'") + TLMCRAFT_EXE + "' run " + args + " --trials 1 --seed 1 --json > '" +
                          dir.file("o") + "' 2> '" + dir.file("e") + "'";
  const int rc = std::system(cmd.c_str());
  EXPECT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 0) << cmd << "\n" << test::read_text(dir.file("e"));
  return json::parse(test::read_text(dir.file("o")));
}

// The actions a run performed (count > 0).
std::map<std::string, uint64_t> performed(const json& r) {
  std::map<std::string, uint64_t> out;
  for (const auto& [name, n] : r["actions"].items())
    if (n.get<uint64_t>() > 0) out[name] = n.get<uint64_t>();
  return out;
}

const std::string kSilu = std::string("--platform plena --task silu --config C1 '") + TLMCRAFT_SOURCE_DIR +
                          "/platforms/plena/kernels/silu_c1.asm'";
#endif

// platforms/plena/kernels/silu_c1.asm: 9 prologue instructions, 4 iterations of an 8-
// instruction body (V_SUB_VF, V_EXP_V, V_ADD_VF, V_RECI_V, V_MUL_VV, 2 x S_ADDI_INT,
// C_LOOP_END), 2 epilogue instructions: 43 executed. Per action:
// - fetch.instruction: 43.
// - scalar.add.int32: S_ADDI_INT 5 outside the loop + 2 x 4 inside, C_LOOP_END's decrement
//   x 4: 17.
// - vector lanes (VLEN 64) x 4 rows: add.bf16 (V_SUB_VF, V_ADD_VF) 512, exp 256, recip 256,
//   mul 256.
// - vram.read_bytes: per row V_SUB/EXP/ADD/RECI read one 128-byte row, V_MUL two: 768 x 4
//   = 3072, + H_STORE_V's 4 rows 512 = 3584. vram.write_bytes: 5 x 128 x 4 = 2560 +
//   H_PREFETCH_V's 4 rows 512 = 3072.
// - gp (4 bytes; gp0 is no access): reads C_SET_SCALE_REG 1, C_SET_ADDR_REG 1,
//   H_PREFETCH_V 1, per iteration 2+2+2+2+3 (vector ops) +1+1 (S_ADDI) +1 (C_LOOP_END) = 14,
//   H_STORE_V 1: 60 reads = 240 bytes; writes S_ADDI 5 + 8, C_LOOP_START 1, C_LOOP_END 4:
//   18 = 72 bytes. fp (2 bytes): f1 read by V_ADD_VF x 4 = 8, written by S_LD_FP = 2.
//   addr (8 bytes): a0, a1 read = 16, a1 written = 8. fp_mem: S_LD_FP reads 2 bytes.
// - hbm: x is 256 MXFP8 bytes + 32 scale bytes = 288 read; y 256 bf16 = 512 written.
const std::map<std::string, uint64_t> kSiluActions = {
    {"addr.read_bytes", 16},    {"addr.write_bytes", 8},  {"fetch.instruction", 43}, {"fp.read_bytes", 8},
    {"fp.write_bytes", 2},      {"fp_mem.read_bytes", 2}, {"gp.read_bytes", 240},    {"gp.write_bytes", 72},
    {"hbm.read_bytes", 288},    {"hbm.write_bytes", 512}, {"scalar.add.int32", 17},  {"vector.add.bf16", 512},
    {"vector.exp.bf16", 256},   {"vector.mul.bf16", 256}, {"vector.recip.bf16", 256}, {"vram.read_bytes", 3584},
    {"vram.write_bytes", 3072}};
// x pJ (default.yaml): fetch 43 x 5.0 = 215; scalar add 17 x 0.1 = 1.7; vector add 512 x 0.4
// = 204.8, exp 256 x 3.21 = 821.76, recip 256 x 3.21 = 821.76, mul 256 x 0.67 = 171.52;
// vram 6656 x 4.75 = 31616; registers (312 + 10 + 24) x 0.42 = 145.32; fp_mem 2 x 1.25 =
// 2.5; hbm 800 x 31.2 = 24960. Sum 58960.36 pJ.
const double kSiluDynamicPj = 58960.36;

TEST(EnergyByAction, PlenaSiluIsInstructionCountsTimesActionsTimesPj) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  const json r = run_json(kSilu);
  ASSERT_EQ(r["status"], "pass");
  EXPECT_EQ(r["instructions"], 43);
  EXPECT_EQ(performed(r), kSiluActions);
  EXPECT_NEAR(r["energy"]["dynamic_pj"].get<double>(), kSiluDynamicPj, 1e-6);
  // Static: 11 pJ per cycle (leakage, static power x time), serial mode (the default).
  EXPECT_NEAR(r["energy"]["static_pj"].get<double>(), 11.0 * r["cycles"].get<double>(), 1e-9);
  EXPECT_NEAR(r["energy"]["total_pj"].get<double>(), kSiluDynamicPj + 11.0 * r["cycles"].get<double>(), 1e-6);
  EXPECT_EQ(r["energy"]["unpriced_actions"], json::array());
  // Roofline ops are counted work: 512 + 256 x 3 vector lane ops, no MACs.
  EXPECT_EQ(r["roofline"]["ops"].get<double>(), 1280.0);
#endif
}

TEST(EnergyByAction, PlenaSerialAndPipelinedDifferOnlyByStaticEnergyTimesCycles) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  const json serial = run_json(kSilu + " --set timing.mode=serial");
  const json pipelined = run_json(kSilu + " --set timing.mode=pipelined");
  // The cycle counts are the timing model's (golden elsewhere): 75 serial, 80 pipelined.
  ASSERT_EQ(serial["cycles"], 75);
  ASSERT_EQ(pipelined["cycles"], 80);
  EXPECT_EQ(serial["actions"], pipelined["actions"]);
  EXPECT_EQ(serial["energy"]["dynamic_pj"], pipelined["energy"]["dynamic_pj"]);
  // 5 more cycles x 11 pJ.
  EXPECT_NEAR(pipelined["energy"]["total_pj"].get<double>() - serial["energy"]["total_pj"].get<double>(), 55.0, 1e-6);
#endif
}

TEST(EnergyByAction, PlenaHalvedDmaBandwidthCostsStaticPowerTimesTheExtraTime) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  const std::string pipelined = kSilu + " --set timing.mode=pipelined";
  const json full = run_json(pipelined);
  const json half = run_json(pipelined + " --set timing.dma.prefetch.bytes_per_cycle=32 --set timing.dma.store.bytes_per_cycle=32");
  // Half the SRAM-side DMA bandwidth: each 512-byte transfer takes 16 cycles, not 8; the
  // prefetch and the store are on the critical path: 80 -> 88 cycles.
  ASSERT_EQ(full["cycles"], 80);
  ASSERT_EQ(half["cycles"], 88);
  EXPECT_EQ(full["actions"], half["actions"]);
  EXPECT_EQ(full["energy"]["dynamic_pj"], half["energy"]["dynamic_pj"]);
  EXPECT_NEAR(half["energy"]["total_pj"].get<double>() - full["energy"]["total_pj"].get<double>(), 8 * 11.0, 1e-6);
#endif
}

}  // namespace
}  // namespace tlmcraft::harness
