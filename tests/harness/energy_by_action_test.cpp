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

// platforms/coral/kernels/relu_c1.s through crt0 (platforms/coral/runtime/crt0.s): _start
// (la sp = auipc + addi, call main = one relaxed jal), main (lui a0; lui + addi a1; addi
// a2), 4 passes of vsetvli, vle8, vmax.vx, vse8, add, add, sub, bnez (vl = 128 int8 lanes,
// e8 m8), addi a0, ret, then mpause: 42 instructions. Per action:
// - fetch.instruction 42; scalar.add.int32: 19 ALU ops (2 + 4 + 3 x 4 + 1) + 2 jumps = 21;
//   scalar.cmp.int32: 4 branches.
// - vector.add.int8: vmax.vx over 128 elements x 4 = 512.
// - vreg bytes (vl x 1 byte per vector operand): read by vmax and vse8, written by vle8 and
//   vmax: 2 x 128 x 4 = 1024 each way.
// - xreg bytes (4 per register, x0 no access): reads addi sp 1, addi a1 1, per pass
//   vsetvli 1 + vle8 1 + vse8 1 + add 2 + add 2 + sub 2 + bnez 1 = 10, ret 1: 43 = 172;
//   writes auipc, addi sp, jal ra, lui a0, lui a1, addi a1, addi a2 = 7, per pass t0, a0,
//   a1, a2 = 4, addi a0 1: 24 = 96.
// - ext bytes: x 512 int8 read, y 512 written.
const std::map<std::string, uint64_t> kCoralReluActions = {
    {"ext.read_bytes", 512},    {"ext.write_bytes", 512},   {"fetch.instruction", 42}, {"scalar.add.int32", 21},
    {"scalar.cmp.int32", 4},    {"vector.add.int8", 512},   {"vreg.read_bytes", 1024}, {"vreg.write_bytes", 1024},
    {"xreg.read_bytes", 172},   {"xreg.write_bytes", 96}};
// x pJ: fetch 42 x 5.0 = 210; scalar (21 + 4) x 0.1 = 2.5; vector add 512 x 0.03 = 15.36;
// registers (2048 + 268) x 0.42 = 972.72; ext 1024 x 162.5 = 166400. Sum 167600.58 pJ.
const double kCoralReluDynamicPj = 167600.58;

TEST(EnergyByAction, CoralReluIsInstructionCountsTimesActionsTimesPj) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  const std::string relu = std::string("--platform coral --task relu --config C1 '") + TLMCRAFT_SOURCE_DIR +
                           "/platforms/coral/kernels/relu_c1.s'";
  const json r = run_json(relu);
  ASSERT_EQ(r["status"], "pass");
  EXPECT_EQ(r["instructions"], 42);
  EXPECT_EQ(performed(r), kCoralReluActions);
  EXPECT_NEAR(r["energy"]["dynamic_pj"].get<double>(), kCoralReluDynamicPj, 1e-6);
  EXPECT_NEAR(r["energy"]["static_pj"].get<double>(), 2.0 * r["cycles"].get<double>(), 1e-9);
  // A slower external-memory read: more cycles, the same work; the energy grows by exactly
  // 2 pJ per extra cycle.
  const json slow = run_json(relu + " --set memory.axi.read_latency=48");
  ASSERT_GT(slow["cycles"].get<uint64_t>(), r["cycles"].get<uint64_t>());
  EXPECT_EQ(slow["actions"], r["actions"]);
  EXPECT_NEAR(slow["energy"]["total_pj"].get<double>() - r["energy"]["total_pj"].get<double>(),
              2.0 * (slow["cycles"].get<double>() - r["cycles"].get<double>()), 1e-6);
#endif
}

// The AIE-ML relu baseline at C1 (`tlmcraft baseline --platform aie_ml --task relu --config
// C1`): one core, 256 bf16 values in one 512-byte block; 179 bundles: 5 setup (4 MOVXM,
// VCLR x2), 7 per block (2 ACQ, 2 MOV, 3 MOVXM), 16 x {VLDA w0, [p0], #32} {6 NOPs}
// {VMAX.BF16 x1, x0, x2} {NOP} {VST w2, [p1], #32} (the waits of the exposed pipeline, the
// default), 6 after (2 REL, 2 XOR, ADD, JNZ), DONE.
// Per action (the ops' YAML in isa/aie_ml/aie_ml.yaml):
// - program_memory.read_bytes: 179 bundles x 16 = 2864.
// - data_memory: VLDA 16 x 32 bytes read = 512, VST 16 x 32 written = 512.
// - vector.add.int32: the non-MAC vector-slot ops (VCLR, 16 VMAX) x 16 lanes = 272.
// - scalar.add.int32: the scalar-slot ops (2 ACQ, 2 REL, 2 XOR, ADD, JNZ, DONE, and the 16 x 7
//   NOPs, alu-slot ops) = 121.
// - vreg bytes: read VMAX x0, x2 (2 x 64) x 16 + VST w2 32 x 16 = 2560; written VCLR x2 64
//   + VLDA w0 32 x 16 + VMAX x1 64 x 16 = 1600.
// - sreg bytes (4 per register): read VLDA and VST pointers 2 x 16, MOV r0 and r1 2, XOR 2 x
//   2, ADD 1, JNZ 1 = 40 -> 160; written VLDA/VST post-modify 2 x 16, MOV 2, XOR 2, ADD 1,
//   7 MOVXM = 44 -> 176.
// - ddr: x 512 bytes read, y 512 written; dma.bytes: 8 channels (shim, memory tile, tile,
//   both ways) x 512 = 4096.
const std::map<std::string, uint64_t> kAieReluActions = {
    {"data_memory.read_bytes", 512}, {"data_memory.write_bytes", 512}, {"ddr.read_bytes", 512},
    {"ddr.write_bytes", 512},        {"dma.bytes", 4096},              {"program_memory.read_bytes", 2864},
    {"scalar.add.int32", 121},         {"sreg.read_bytes", 160},         {"sreg.write_bytes", 176},
    {"vector.add.int32", 272},       {"vreg.read_bytes", 2560},        {"vreg.write_bytes", 1600}};
// x pJ: program memory 2864 x 1.77 = 5069.28; data memory 1024 x 3.45 = 3532.8; vector 272
// x 0.1 = 27.2; scalar 121 x 0.1 = 12.1; registers 4496 x 0.42 = 1888.32; dma 4096 x 3.45 =
// 14131.2; ddr 1024 x 162.5 = 166400. Sum 191060.9 pJ. Static: 16 tiles x 5 pJ per cycle.
const double kAieReluDynamicPj = 191060.9;

TEST(EnergyByAction, AieMlReluIsBundleCountsTimesActionsTimesPj) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  const json r = run_json("--platform aie_ml --task relu --config C1 --baseline");
  ASSERT_EQ(r["status"], "pass");
  EXPECT_EQ(r["instructions"], 179);
  EXPECT_EQ(performed(r), kAieReluActions);
  EXPECT_NEAR(r["energy"]["dynamic_pj"].get<double>(), kAieReluDynamicPj, 1e-6);
  EXPECT_NEAR(r["energy"]["static_pj"].get<double>(), 16 * 5.0 * r["cycles"].get<double>(), 1e-9);
  EXPECT_EQ(r["energy"]["unpriced_actions"], json::array());
#endif
}

TEST(EnergyByAction, AieMlGemmMacActionsAreTheTasksMacs) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  // The bf16 gemm C1 (M 8, K 64, N 64): 32768 bf16 MACs, VMAC.BF16's `macs: 128` per issue;
  // the roofline's operations are 2 per MAC.
  const json r = run_json("--platform aie_ml --task gemm --config C1 --baseline");
  ASSERT_EQ(r["status"], "pass");
  EXPECT_EQ(r["actions"]["vector.mac.bf16"], 32768);
  EXPECT_EQ(r["macs_by_format"]["bf16"], 32768);
  EXPECT_EQ(r["roofline"]["ops"].get<double>(), 65536.0);
#endif
}

TEST(EnergyByAction, PlenaFusedSiluDoesTheSameArithmeticAndSavesOnlyTraffic) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  // A copy of the PLENA ISA with a fused V_SILU_V (the five steps of the loop body), and
  // silu_c1.asm with the body's five vector instructions replaced by it.
  test::ScratchDir dir;
  const std::string src = TLMCRAFT_SOURCE_DIR;
  std::string isa = test::read_text(src + "/isa/plena/plena.yaml");
  isa += "\n  - mnemonic: V_SILU_V\n    opcode: 0x3A\n    class: V\n    unit: vector\n    latency_class: vector_exp\n"
         "    operands:\n      - {name: rd, kind: gp, field: rd}\n      - {name: rs1, kind: gp, field: rs1}\n"
         "      - {name: fone, kind: fp, field: rs2}\n      - {name: rmask, kind: flag, field: rs3}\n"
         "    doc: \"silu\"\n    operation: \"x * sigmoid(x)\"\n    fused:\n"
         "      - \"V_SUB_VF rd, rs1, f0, rmask, 1\"\n      - \"V_EXP_V rd, rd, rmask\"\n"
         "      - \"V_ADD_VF rd, rd, fone, rmask\"\n      - \"V_RECI_V rd, rd, rmask\"\n"
         "      - \"V_MUL_VV rd, rd, rs1, rmask\"\n";
  ASSERT_EQ(std::system(("mkdir -p '" + dir.file("isa/plena") + "'").c_str()), 0);
  test::write_text(dir.file("isa/plena/plena.yaml"), isa);
  std::string kernel = test::read_text(src + "/platforms/plena/kernels/silu_c1.asm");
  const size_t first = kernel.find("  V_SUB_VF"), last = kernel.find("  S_ADDI_INT gp3, gp3, 64");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(last, std::string::npos);
  kernel.replace(first, last - first, "  V_SILU_V gp5, gp3, f1, 0\n");
  test::write_text(dir.file("silu_fused.asm"), kernel);

  const json plain = run_json(kSilu);
  const json fused = run_json("--platform plena --task silu --config C1 --isa-dir '" + dir.file("isa") + "' '" +
                              dir.file("silu_fused.asm") + "'");
  ASSERT_EQ(fused["status"], "pass");
  ASSERT_EQ(fused["instructions"], 27);  // 43 - 4 rows x 4
  // The same arithmetic, action by action.
  for (const char* a : {"vector.add.bf16", "vector.exp.bf16", "vector.recip.bf16", "vector.mul.bf16", "scalar.add.int32"})
    EXPECT_EQ(fused["actions"][a], plain["actions"][a]) << a;
  // What the fusion saves, per row: 4 fetches; gp reads 11 -> 2 (V_SILU_V reads gp5 and
  // gp3 once: 9 x 4 bytes); VRAM: the steps' rows merge into x read once and y written once
  // (768 -> 128 bytes read, 640 -> 128 written). 4 rows: 16 fetches x 5.0 = 80, 144 gp
  // bytes x 0.42 = 60.48, (2560 + 2048) VRAM bytes x 4.75 = 21888: 22028.48 pJ.
  EXPECT_EQ(plain["actions"]["fetch.instruction"].get<int>() - fused["actions"]["fetch.instruction"].get<int>(), 16);
  EXPECT_EQ(plain["actions"]["gp.read_bytes"].get<int>() - fused["actions"]["gp.read_bytes"].get<int>(), 144);
  EXPECT_EQ(plain["actions"]["vram.read_bytes"].get<int>() - fused["actions"]["vram.read_bytes"].get<int>(), 2560);
  EXPECT_EQ(plain["actions"]["vram.write_bytes"].get<int>() - fused["actions"]["vram.write_bytes"].get<int>(), 2048);
  EXPECT_NEAR(plain["energy"]["dynamic_pj"].get<double>() - fused["energy"]["dynamic_pj"].get<double>(), 22028.48, 1e-6);
  EXPECT_EQ(fused["energy"]["by_component"]["vector"], plain["energy"]["by_component"]["vector"]);
  // The roofline counts the same 1280 operations over the same HBM bytes: the same bound,
  // reached in fewer cycles (before, busy-cycle ops flipped the fused kernel to memory bound).
  EXPECT_EQ(fused["roofline"]["ops"], plain["roofline"]["ops"]);
  EXPECT_EQ(fused["roofline"]["bound"], plain["roofline"]["bound"]);
  EXPECT_GT(fused["roofline"]["ops_per_cycle"].get<double>(), plain["roofline"]["ops_per_cycle"].get<double>());
#endif
}

}  // namespace
}  // namespace tlmcraft::harness
