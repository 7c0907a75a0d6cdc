// Running kernels on the Coral platform: halting, faults and their messages, limits,
// memories, C kernels, the DMA option, determinism across SystemC quanta, traces, stats.
#include <unistd.h>

#include <filesystem>
#include <map>
#include <fstream>
#include <string>

#include "tests/platforms/coral_test_util.h"

#include <nlohmann/json.hpp>

namespace tlmcraft::coral {
namespace {

using testing::build;
using testing::read_u32;
using testing::symbol;

std::string kernel(const std::string& body, const std::string& data = "") {
  return "  .text\n  .globl main\nmain:\n" + body + "  ret\n" + (data.empty() ? "" : "  .data\n" + data);
}

RunResult run_text(const std::string& src, RunLimits limits = {}, const std::vector<std::string>& overrides = {}) {
  CoralPlatform p = testing::make_platform(overrides);
  const isa::Program prog = build(p, src);
  p.load(prog);
  return p.run(limits, {});
}

TEST(CoralRun, MainReturnsIntoMpauseAndHalts) {
  const RunResult r = run_text(kernel("  li a0, 1\n"));
  EXPECT_EQ(r.stop, StopReason::Halted);
  EXPECT_TRUE(r.message.empty());
  // crt0: auipc, addi, jal; main: li, ret; crt0: mpause = 6 instructions.
  EXPECT_EQ(r.instructions, 6u);
  EXPECT_EQ(r.instructions_by_class.at("halt"), 1u);
  EXPECT_EQ(r.instructions_by_class.at("jump"), 2u);
}

TEST(CoralRun, KernelMayEndWithItsOwnMpause) {
  const RunResult r = run_text("  .text\n  .globl main\nmain:\n  li a0, 1\n  mpause\n  j main\n");
  EXPECT_EQ(r.stop, StopReason::Halted);
  EXPECT_EQ(r.instructions, 5u);  // auipc, addi, jal, li, mpause
}

TEST(CoralRun, StoreIntoItcmFaultsWithPcLineAndAddress) {
  const RunResult r = run_text(kernel("  li a1, 0x40\n  sw a0, 0(a1)\n"));
  ASSERT_EQ(r.stop, StopReason::Fault);
  EXPECT_NE(r.message.find("Fault at PC 0x"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("(line 5: sw a0, 0(a1))"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("store to itcm at 0x00000040"), std::string::npos) << r.message;
}

TEST(CoralRun, MisalignedLoadFaults) {
  const RunResult r = run_text(kernel("  li a1, 0x10002\n  lw a0, 0(a1)\n"));
  ASSERT_EQ(r.stop, StopReason::Fault);
  EXPECT_NE(r.message.find("line 5: lw a0, 0(a1)"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("misaligned 4-byte load at 0x00010002"), std::string::npos) << r.message;
}

TEST(CoralRun, UnmappedAccessFaults) {
  const RunResult r = run_text(kernel("  li a1, 0x50000\n  sw a0, 0(a1)\n"));
  ASSERT_EQ(r.stop, StopReason::Fault);
  EXPECT_NE(r.message.find("unmapped address 0x00050000"), std::string::npos) << r.message;
}

TEST(CoralRun, EbreakAndEcallFault) {
  const RunResult b = run_text(kernel("  nop\n  ebreak\n"));
  ASSERT_EQ(b.stop, StopReason::Fault);
  EXPECT_NE(b.message.find("(line 5: ebreak): breakpoint"), std::string::npos) << b.message;
  const RunResult c = run_text(kernel("  ecall\n"));
  ASSERT_EQ(c.stop, StopReason::Fault);
  EXPECT_NE(c.message.find("(line 4: ecall): environment call"), std::string::npos) << c.message;
}

TEST(CoralRun, JumpOutOfItcmFaultsOnFetch) {
  const RunResult r = run_text(kernel("  li a1, 0x10000\n  jr a1\n"));
  ASSERT_EQ(r.stop, StopReason::Fault);
  EXPECT_NE(r.message.find("Fault at PC 0x00010000"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("non-executable address 0x00010000"), std::string::npos) << r.message;
}

TEST(CoralRun, IllegalInstructionFaults) {
  // 0x0000000b: the custom-0 major opcode, which Coral does not implement.
  const RunResult r = run_text(kernel("  .insn 0x0000000b\n"));
  ASSERT_EQ(r.stop, StopReason::Fault);
  EXPECT_NE(r.message.find("line 4: .insn 0x0000000b"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("illegal instruction"), std::string::npos) << r.message;
}

TEST(CoralRun, EndlessLoopStopsAtTheInstructionLimit) {
  RunLimits l;
  l.max_instructions = 1000;
  const RunResult r = run_text(kernel("1:\n  addi a0, a0, 1\n  j 1b\n"), l);
  ASSERT_EQ(r.stop, StopReason::InstructionLimit);
  EXPECT_EQ(r.instructions, 1000u);
  EXPECT_NE(r.message.find("exceeded max instructions limit (1000)"), std::string::npos) << r.message;
  // 3 crt0 instructions, then the loop alternates addi (line 5) and j (line 6): the
  // 1001st instruction is the j (odd count of loop instructions executed: 997).
  EXPECT_NE(r.message.find("line 6: j 1b"), std::string::npos) << r.message;
}

TEST(CoralRun, CycleLimit) {
  RunLimits l;
  l.max_cycles = 500;
  const RunResult r = run_text(kernel("  li t0, 100000\n1:\n  addi t0, t0, -1\n  bnez t0, 1b\n"), l);
  ASSERT_EQ(r.stop, StopReason::CycleLimit);
  EXPECT_NE(r.message.find("exceeded max cycles limit (500)"), std::string::npos) << r.message;
}

TEST(CoralRun, ExternalMemoryIsReadAndWrittenByTheKernel) {
  CoralPlatform p = testing::make_platform();
  // Sum 4 words from ext[0..16) into ext[16].
  const isa::Program prog = build(p, kernel("  li a1, 0x20000000\n  lw a2, 0(a1)\n  lw a3, 4(a1)\n  lw a4, 8(a1)\n"
                                            "  lw a5, 12(a1)\n  add a2, a2, a3\n  add a4, a4, a5\n  add a2, a2, a4\n"
                                            "  sw a2, 16(a1)\n"));
  p.load(prog);
  p.write_memory("ext", 0, {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0});
  const RunResult r = p.run({}, {});
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(read_u32(p, 0x20000010), 10u);
  EXPECT_EQ(r.memory["ext"]["reads"], 4);
  EXPECT_EQ(r.memory["ext"]["bytes_written"], 4);
  // 5 AXI transactions (one at a time), each holding the port for its round trip: a load
  // 1 + read_latency 24 + load tail 3 = 28, the store 1 + write_latency 12 + store tail 1 +
  // write response 1 = 15: 4 x 28 + 15 = 127.
  bool seen = false;
  for (const auto& u : r.units) {
    if (u.name != "axi") continue;
    seen = true;
    EXPECT_EQ(u.instructions, 5u);
    EXPECT_EQ(u.busy_cycles, 127u);
  }
  EXPECT_TRUE(seen);
}

TEST(CoralRun, MemoryAccessOutsideARangeIsAnInputError) {
  CoralPlatform p = testing::make_platform();
  EXPECT_THROW(p.write_memory("dtcm", 32766, {1, 2, 3}), InputError);
  EXPECT_THROW(p.read_memory("ext", 4u << 20, 1), InputError);
  EXPECT_THROW(p.read_memory("hbm", 0, 1), InputError);
  EXPECT_EQ(p.memories(), (std::vector<std::string>{"itcm", "dtcm", "ext"}));
}

TEST(CoralRun, CKernelCompilesRunsAndMapsLines) {
  CoralPlatform p = testing::make_platform();
  const std::string c =
      "#include <riscv_vector.h>\n"
      "#include <stdint.h>\n"
      "int main(void) {\n"
      "  int8_t *in = (int8_t *)0x20000000, *out = (int8_t *)0x20000100;\n"
      "  for (size_t i = 0, n = 40; i < n;) {\n"
      "    size_t vl = __riscv_vsetvl_e8m1(n - i);\n"
      "    vint8m1_t v = __riscv_vle8_v_i8m1(in + i, vl);\n"
      "    v = __riscv_vmax_vx_i8m1(v, 0, vl);\n"
      "    __riscv_vse8_v_i8m1(out + i, v, vl);\n"
      "    i += vl;\n"
      "  }\n"
      "  return 0;\n"
      "}\n";
  const isa::Program prog = build(p, c, "relu.c");
  ASSERT_FALSE(prog.code.empty());
  p.load(prog);
  std::vector<uint8_t> in(40);
  for (int i = 0; i < 40; ++i) in[i] = static_cast<uint8_t>(i - 20);
  p.write_memory("ext", 0, in);
  const RunResult r = p.run({}, {});
  ASSERT_TRUE(r.ok()) << r.message;
  const auto out = p.read_memory("ext", 0x100, 40);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(static_cast<int8_t>(out[i]), std::max(i - 20, 0)) << i;
  EXPECT_GT(r.instructions_by_class.at("vec_load"), 0u);
  bool line_8 = false;
  for (const auto& l : r.lines) line_8 |= l.line == 8 && l.executions == 3;  // vmax: 16 + 16 + 8 elements
  EXPECT_TRUE(line_8);
}

TEST(CoralRun, CountsDoNotDependOnTheSimulationQuantum) {
  const std::string src = kernel("  li t0, 3000\n1:\n  mul a0, a0, t0\n  addi t0, t0, -1\n  bnez t0, 1b\n");
  const RunResult a = run_text(src, {}, {"simulation.quantum_cycles=1"});
  const RunResult b = run_text(src, {}, {"simulation.quantum_cycles=100000"});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.instructions, b.instructions);
  EXPECT_EQ(a.to_json()["units"], b.to_json()["units"]);
}

TEST(CoralRun, DmaEngineCopiesWhenEnabledAndStatusWaits) {
  // SRC = ext+0, DST = DTCM 0x10100, LEN = 64, CTRL = 1; a STATUS read waits for the
  // transfer; then the kernel reads the copied data.
  const std::string src = kernel(
      "  li t0, 0x40000\n  li t1, 0x20000000\n  sw t1, 0(t0)\n  li t1, 0x10100\n  sw t1, 4(t0)\n"
      "  li t1, 64\n  sw t1, 8(t0)\n  li t1, 1\n  sw t1, 12(t0)\n  lw t2, 16(t0)\n"
      "  li t3, 0x10100\n  lw a0, 60(t3)\n  la t4, out\n  sw a0, 0(t4)\n  sw t2, 4(t4)\n",
      "out: .word 0, 0\n");
  CoralPlatform p = testing::make_platform({"dma.enabled=true"});
  const isa::Program prog = build(p, src);
  p.load(prog);
  std::vector<uint8_t> data(64);
  for (int i = 0; i < 64; ++i) data[i] = static_cast<uint8_t>(i + 1);
  p.write_memory("ext", 0, data);
  const RunResult r = p.run({}, {});
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(read_u32(p, symbol(prog, "out")), 0x403f3e3du);     // bytes 61..64
  EXPECT_EQ(read_u32(p, symbol(prog, "out") + 4), 1u);          // one transfer completed
  EXPECT_EQ(r.memory["dma"]["descriptors"], 1);
  // The STATUS read waited for the transfer: more than the AXI read latency alone.
  EXPECT_GT(r.cycles, uint64_t(p.coral_config().axi.read_latency));

  // Off (the Coral default): the register block does not exist.
  const RunResult off = run_text(src);
  ASSERT_EQ(off.stop, StopReason::Fault);
  EXPECT_NE(off.message.find("unmapped address 0x00040000"), std::string::npos) << off.message;
}

TEST(CoralRun, StatisticsCoverUnitsLinesAndTraffic) {
  const RunResult r = run_text(kernel("  li t0, 10\n  la a1, buf\n1:\n  lw a0, 0(a1)\n  mul a0, a0, a0\n  sw a0, 4(a1)\n"
                                      "  addi t0, t0, -1\n  bnez t0, 1b\n",
                                      "buf: .word 3, 0\n"));
  ASSERT_TRUE(r.ok()) << r.message;
  std::map<std::string, UnitStats> u;
  for (const auto& s : r.units) u[s.name] = s;
  EXPECT_EQ(u["lsu"].instructions, 20u);
  EXPECT_EQ(u["mul"].instructions, 10u);
  EXPECT_EQ(u["vector_alu0"].instructions, 0u);
  EXPECT_EQ(r.memory["dtcm"]["reads"], 10);
  EXPECT_EQ(r.memory["dtcm"]["writes"], 10);
  // The hottest line is in the loop (lines 6-10), each executed 10 times.
  ASSERT_FALSE(r.lines.empty());
  EXPECT_GE(r.lines[0].line, 6u);
  EXPECT_LE(r.lines[0].line, 10u);
  EXPECT_EQ(r.lines[0].executions, 10u);
  uint64_t sum = 0;
  for (const auto& l : r.lines) sum += l.cycles;
  EXPECT_LE(sum, r.cycles);
}

TEST(CoralRun, TracesAreWrittenForAWindow) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("coral_trace_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  CoralPlatform p = testing::make_platform();
  const isa::Program prog = build(p, kernel("  li t0, 50\n1:\n  mul a0, a0, t0\n  addi t0, t0, -1\n  bnez t0, 1b\n"));
  p.load(prog);
  TraceOptions t;
  t.vcd_path = (dir / "c.vcd").string();
  t.perfetto_path = (dir / "c.json").string();
  t.window_begin = 10;
  t.window_end = 60;
  const RunResult r = p.run({}, t);
  ASSERT_TRUE(r.ok());
  std::ifstream j(t.perfetto_path);
  const std::string text((std::istreambuf_iterator<char>(j)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"coral\""), std::string::npos);
  EXPECT_NE(text.find("\"issue0\""), std::string::npos);
  EXPECT_NE(text.find("\"issue1\""), std::string::npos);  // mul and addi dispatch together
  EXPECT_NE(text.find("mul"), std::string::npos);
  EXPECT_TRUE(fs::file_size(t.vcd_path) > 0);
  fs::remove_all(dir);
}

// A dependent multiply chain: each mul waits for the previous one's result, so the
// trace shows "wait" slices on stall.mul and cycles with no dispatch.
TEST(CoralRun, TraceHasStallTracks) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("coral_stall_trace_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  CoralPlatform p = testing::make_platform();
  const isa::Program prog = build(p, kernel("  li t0, 3\n  li a0, 1\n  mul a0, a0, t0\n  mul a0, a0, t0\n  mul a0, a0, t0\n"));
  p.load(prog);
  TraceOptions t;
  t.perfetto_path = (dir / "c.json").string();
  const RunResult r = p.run({}, t);
  ASSERT_TRUE(r.ok());
  std::ifstream in(t.perfetto_path);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::map<int, std::string> thread;
  for (const auto& e : j["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name") thread[e["tid"].get<int>()] = e["args"]["name"];
  std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> stalls;  // thread -> (begin, end) cycles
  for (const auto& e : j["traceEvents"])
    if (e["ph"] == "X" && (e["name"] == "wait" || e["name"] == "no dispatch"))
      stalls[thread[e["tid"].get<int>()]].push_back({e["args"]["begin_cycle"], e["args"]["end_cycle"]});
  EXPECT_EQ(stalls["stall.mul"], (std::vector<std::pair<uint64_t, uint64_t>>{{4, 5}, {6, 9}}));
  // No dispatch in 8..11: mpause waits for the last mul's result. main's lines arrive in
  // time after the call (jal at 3, main at 4, as on the RTL), so nothing stalls before.
  EXPECT_EQ(stalls["stall.dispatch"], (std::vector<std::pair<uint64_t, uint64_t>>{{8, 12}}));
  fs::remove_all(dir);
}

TEST(CoralRun, RunNeedsAFreshLoad) {
  CoralPlatform p = testing::make_platform();
  EXPECT_THROW(p.run({}, {}), InputError);
  const isa::Program prog = build(p, kernel(""));
  p.load(prog);
  EXPECT_TRUE(p.run({}, {}).ok());
  EXPECT_THROW(p.run({}, {}), InputError);
}

}  // namespace
}  // namespace tlmcraft::coral
