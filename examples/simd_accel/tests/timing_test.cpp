// simd_accel's timing model against cycle counts derived by hand from the formulas of
// README.md ("Timing model"), with the default config: scalar 1, vload 3, vstore 1,
// valu 2, vfma 4, vrelu 2 cycles; DRAM tRCD = tCL = tRP = 10, 4 cycles per 64-byte granule;
// the scratchpad takes one 64-byte DMA access per cycle.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>

#include <gtest/gtest.h>

#include "isa/formats/bf16.h"
#include "simd_platform.h"

namespace simd_accel {
namespace {

namespace fmt = tlmcraft::isa::formats;
using Setup = std::function<void(SimdPlatform&)>;

std::vector<uint8_t> bf16_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> out(2 * values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const uint16_t b = fmt::float_to_bf16(values[i]);
    std::memcpy(out.data() + 2 * i, &b, 2);
  }
  return out;
}

std::vector<float> bf16_values(const std::vector<uint8_t>& bytes) {
  std::vector<float> out(bytes.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    uint16_t b;
    std::memcpy(&b, bytes.data() + 2 * i, 2);
    out[i] = fmt::bf16_to_float(b);
  }
  return out;
}

tlmcraft::RunResult run(SimdPlatform& p, const std::string& source, const Setup& setup = nullptr) {
  tlmcraft::isa::Program prog;
  std::vector<tlmcraft::isa::Diagnostic> diags;
  std::string errors;
  if (!p.assemble(source, "test.asm", prog, diags))
    for (const auto& d : diags) errors += d.format() + "\n";
  EXPECT_EQ(errors, "");
  p.load(prog);
  if (setup) setup(p);
  return p.run({}, {});
}

uint64_t unit_stalls(const tlmcraft::RunResult& r, const std::string& unit) {
  for (const auto& u : r.units)
    if (u.name == unit) return u.stall_cycles;
  ADD_FAILURE() << "no unit " << unit;
  return 0;
}

TEST(SimdTiming, VectorChainWaitsForEachResult) {
  SimdPlatform p(load_config("default"));
  const std::vector<float> x = {1.5f, -2, 0.25f, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4};
  const auto r = run(p,
                     "S_LI s1, 64\n"          // issue 0
                     "V_LD v1, s1\n"          // 1, v1 ready 1 + 3 = 4
                     "V_ADD v2, v1, v1\n"     // waits for v1: 4, ready 6
                     "V_FMA v2, v1, v1\n"     // reads v2: 6, ready 10
                     "V_ST v2, s1, 32\n",     // waits for v2: 10, lands 11
                     [&](SimdPlatform& q) { q.write_memory("spad", 64, bf16_bytes(x)); });
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 11u);
  EXPECT_EQ(r.instructions, 5u);
  EXPECT_EQ(unit_stalls(r, "vector"), (4u - 2) + (6u - 5) + (10u - 7));
  const std::vector<float> y = bf16_values(p.read_memory("spad", 96, 32));
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(y[i], x[i] * x[i] + 2 * x[i]) << "lane " << i;
}

TEST(SimdTiming, DmaRoundTripMissThenRowHit) {
  SimdPlatform p(load_config("default"));
  std::vector<uint8_t> data(512);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 7);
  const auto r = run(p,
                     "S_LI s1, 0\n"            // 0: DRAM address (bank 0, row 0)
                     "S_LI s2, 256\n"          // 1: scratchpad address
                     "S_LI s3, 512\n"          // 2: 8 granules
                     "DMA_LD s2, s1, s3\n"     // 3: row miss: reads 3 + 20 + 4*8 = 55, writes 8 -> 63
                     "V_LD v1, s2\n"           // interlock: 63, v1 ready 66
                     "V_ST v1, s2, 32\n"       // 66, lands 67
                     "DMA_ST s2, s1, s3\n"     // after the store: 67; reads 67 + 8 = 75, row hit 75 + 10 + 32 = 117
                     "DMA_WAIT\n",             // 117
                     [&](SimdPlatform& q) { q.write_memory("dram", 0, data); });
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 118u);
  std::vector<uint8_t> want = data;
  std::memcpy(want.data() + 32, data.data(), 32);
  EXPECT_EQ(p.read_memory("dram", 0, 512), want);
  EXPECT_EQ(r.memory["dram"]["row_misses"], 1);
  EXPECT_EQ(r.memory["dram"]["row_hits"], 15);
}

TEST(SimdTiming, LoopOfFusedReluCostsItsDocumentedCycles) {
  SimdPlatform p(load_config("default"));
  std::vector<float> x(48);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i) - 20) * 0.5f;
  const auto r = run(p,
                     "S_LI s1, 0\n"            // 0
                     "LOOP s2, 3\n"            // 1
                     "V_LD v1, s1\n"           // 2, 10, 18: ready +3
                     "V_RELU v1, v1\n"         // 5, 13, 21: ready +2
                     "V_ST v1, s1\n"           // 7, 15, 23
                     "S_ADDI s1, s1, 32\n"     // 8, 16, 24
                     "LOOP_END s2\n",          // 9, 17, 25
                     [&](SimdPlatform& q) { q.write_memory("spad", 0, bf16_bytes(x)); });
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 26u);
  EXPECT_EQ(r.instructions, 17u);
  const std::vector<float> y = bf16_values(p.read_memory("spad", 0, 96));
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(y[i], x[i] > 0 ? x[i] : 0.0f) << i;
}

TEST(SimdTiming, FullDmaQueueStallsTheCoreAndRowConflictCostsTrp) {
  const char* program =
      "S_LI s3, 64\n"             // 0
      "DMA_LD s0, s0, s3\n"       // 1: miss: 1 + 20 + 4 = 25, write 26
      "S_LI s1, 8192\n"           // 2: bank 0, row 1
      "DMA_LD s3, s1, s3\n"       // 3: engine busy until 26; row conflict: 26 + 30 + 4 = 60, write 61
      "S_LI s4, 1\n";             // depth 1: after the accept at 26 -> 27; depth 4: 4
  SimdPlatform deep(load_config("default"));
  const auto a = run(deep, program);
  ASSERT_TRUE(a.ok()) << a.message;
  EXPECT_EQ(a.cycles, 61u);
  EXPECT_EQ(unit_stalls(a, "dma"), 0u);
  SimdPlatform shallow(load_config("default", {"dma.queue_depth=1"}));
  const auto b = run(shallow, program);
  ASSERT_TRUE(b.ok()) << b.message;
  EXPECT_EQ(b.cycles, 61u);
  EXPECT_EQ(unit_stalls(b, "dma"), 26u - 3);
  EXPECT_EQ(b.memory["dram"]["row_conflicts"], 1);
}

// The interlock is by address: a load of bytes outside a transfer in flight does not wait.
TEST(SimdTiming, OnlyLoadsOfBytesInFlightWaitForTheTransfer) {
  SimdPlatform p(load_config("default"));
  const auto r = run(p,
                     "S_LI s3, 512\n"          // 0
                     "DMA_LD s0, s0, s3\n"     // 1: scratchpad [0, 512), miss: 1 + 20 + 32 = 53, done 61
                     "S_LI s1, 1024\n"         // 2
                     "V_LD v1, s1\n"           // 3: outside the transfer, ready 6
                     "V_LD v2, s0\n");         // inside it: 61, ready 64
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 64u);
  EXPECT_EQ(unit_stalls(r, "vector"), 61u - 4);
}

TEST(SimdFaults, MisalignedDmaNamesLineAndCause) {
  SimdPlatform p(load_config("default"));
  const auto r = run(p, "S_LI s3, 100\nDMA_LD s0, s0, s3\n");
  EXPECT_EQ(r.stop, tlmcraft::StopReason::Fault);
  EXPECT_EQ(r.message,
            "PC 1 (line 2: DMA_LD s0, s0, s3): DMA scratchpad address 0, DRAM address 0 and byte count 100 must all be "
            "multiples of 64");
}

TEST(SimdFaults, VectorLoadOutsideTheScratchpad) {
  SimdPlatform p(load_config("default"));
  const auto r = run(p, "S_LI s1, 524288\nV_LD v1, s1, -16\n");
  EXPECT_EQ(r.stop, tlmcraft::StopReason::Fault);
  EXPECT_EQ(r.message,
            "PC 1 (line 2: V_LD v1, s1, -16): scratchpad bytes [524272, 524304) are outside the scratchpad (524288 bytes)");
}

TEST(SimdFaults, InstructionLimitStopsAnEndlessLoop) {
  SimdPlatform p(load_config("default"));
  tlmcraft::isa::Program prog;
  std::vector<tlmcraft::isa::Diagnostic> diags;
  ASSERT_TRUE(p.assemble("LOOP s1, 4000000\nLOOP s2, 4000000\nS_ADDI s3, s3, 1\nLOOP_END s2\nLOOP_END s1\n", "t.asm", prog, diags));
  p.load(prog);
  tlmcraft::RunLimits limits;
  limits.max_instructions = 1000;
  const auto r = p.run(limits, {});
  EXPECT_EQ(r.stop, tlmcraft::StopReason::InstructionLimit);
  EXPECT_EQ(r.instructions, 1000u);
}

// The last instruction issues at 1, but the transfer (64 granules, row miss) ends at
// 1 + 20 + 4 * 64 + 64 = 341: past a limit of 100 cycles.
TEST(SimdFaults, CycleLimitCountsTransfersStillInFlight) {
  SimdPlatform p(load_config("default"));
  tlmcraft::isa::Program prog;
  std::vector<tlmcraft::isa::Diagnostic> diags;
  ASSERT_TRUE(p.assemble("S_LI s3, 4096\nDMA_LD s0, s0, s3\n", "t.asm", prog, diags));
  p.load(prog);
  tlmcraft::RunLimits limits;
  limits.max_cycles = 100;
  const auto r = p.run(limits, {});
  EXPECT_EQ(r.stop, tlmcraft::StopReason::CycleLimit);
  EXPECT_EQ(r.message, "exceeded max cycles limit (100) at the end of the program (cycle 341)");
}

// The platform base's life cycle: the same words as every in-tree platform.
TEST(SimdLifeCycle, RunWithoutALoadOrTwiceIsRefused) {
  SimdPlatform p(load_config("default"));
  EXPECT_THROW(
      {
        try {
          p.run({}, {});
        } catch (const tlmcraft::InputError& e) {
          EXPECT_STREQ(e.what(), "simd_accel: run() without a program: load() one first");
          throw;
        }
      },
      tlmcraft::InputError);
  ASSERT_TRUE(run(p, "S_LI s1, 1\n").ok());
  EXPECT_THROW(p.run({}, {}), tlmcraft::InputError);
}

// A Perfetto trace holds one slice per instruction on its unit's track and one per DMA
// transfer: here S_LI, DMA_LD (its 64-byte transfer: 1 + 20 + 4 = 25 cycles) and DMA_WAIT.
TEST(SimdTraces, InstructionsAndTransfersAreSlices) {
  SimdPlatform p(load_config("default"));
  tlmcraft::isa::Program prog;
  std::vector<tlmcraft::isa::Diagnostic> diags;
  ASSERT_TRUE(p.assemble("S_LI s3, 64\nDMA_LD s0, s0, s3\nDMA_WAIT\n", "t.asm", prog, diags));
  p.load(prog);
  const auto file = std::filesystem::temp_directory_path() / "simd_accel_trace_test.json";
  tlmcraft::TraceOptions traces;
  traces.perfetto_path = file.string();
  ASSERT_TRUE(p.run({}, traces).ok());
  std::ifstream in(file);
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(file);
  for (const char* name : {"\"S_LI\"", "\"DMA_LD\"", "\"DMA_WAIT\"", "\"dma.transfers\""})
    EXPECT_NE(json.find(name), std::string::npos) << name;
}

TEST(SimdConfigFile, UnknownKeyIsAnErrorNamingFileLineAndColumn) {
  const auto dir = std::filesystem::temp_directory_path() / "simd_accel_config_test";
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "bad.yaml").string();
  std::ofstream(file) << "clock_ns: 1\nlatency: {valu: 2}\nspad: {size_bytes: 4KiB, bankz: 2}\ndram: {}\ndma: {}\n";
  try {
    load_config(file);
    FAIL() << "no error";
  } catch (const tlmcraft::InputError& e) {
    EXPECT_EQ(std::string(e.what()), file + ":3:26: unknown key 'spad.bankz' (known here: size_bytes)");
  }
  std::filesystem::remove_all(dir);
}

// A variant names its base and changes only what differs; the result equals --set's.
TEST(SimdConfigFile, AVariantChangesOnlyWhatItNames) {
  const auto dir = std::filesystem::temp_directory_path() / "simd_accel_variant_test";
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "shallow.yaml").string();
  std::ofstream(file) << "base: " << data_dir() << "/configs/default.yaml\ndma:\n  queue_depth: 1\n";
  const SimdConfig v = load_config(file), s = load_config("default", {"dma.queue_depth=1"});
  std::filesystem::remove_all(dir);
  EXPECT_EQ(v.dma_queue_depth, 1u);
  EXPECT_EQ(v.latency, s.latency);
  EXPECT_EQ(v.name, "shallow");
  EXPECT_FALSE(v.raw.contains("base"));
  EXPECT_EQ(v.raw.at("dma").at("queue_depth"), 1);
  try {
    load_config("default", {"dma.queue_depth=0"});
    FAIL() << "no error";
  } catch (const tlmcraft::InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--set 'dma.queue_depth=0': 'dma.queue_depth' = 0 is out of range [1, 1024]");
  }
}

TEST(SimdConfigFile, LatencyClassWithoutCyclesIsNamed) {
  try {
    SimdPlatform p(load_config("default", {"latency={valu: 2}"}));
    FAIL() << "no error";
  } catch (const tlmcraft::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("latency class 'scalar' of S_LI has no cycles"), std::string::npos) << e.what();
  }
}

TEST(SimdAssembler, WritingTheZeroVectorRegisterIsRejected) {
  SimdPlatform p(load_config("default"));
  tlmcraft::isa::Program prog;
  std::vector<tlmcraft::isa::Diagnostic> diags;
  EXPECT_FALSE(p.assemble("V_ADD v0, v1, v1\n", "k.asm", prog, diags));
  ASSERT_FALSE(diags.empty());
  EXPECT_EQ(diags[0].line, 1u);
  EXPECT_EQ(diags[0].col, 7u);
}

// A fused instruction added by YAML alone (a copy of the ISA with one more entry, found
// through TLMCRAFT_ISA_DIR) runs with its own latency: V_SQ at 5 cycles.
TEST(SimdFused, InstructionAddedByYamlAloneRunsWithItsLatency) {
  const auto dir = std::filesystem::temp_directory_path() / "simd_accel_fused_test";
  std::filesystem::create_directories(dir / "simd");
  std::ifstream in(isa_path());
  std::string yaml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string cls = "  - {name: vrelu, cycles: 2,";
  ASSERT_NE(yaml.find(cls), std::string::npos);
  yaml.insert(yaml.find(cls), "  - {name: vsq, cycles: 5, doc: \"V_SQ\"}\n");
  yaml +=
      "  - mnemonic: V_SQ\n    opcode: 0x18\n    class: V\n    unit: vector\n    latency_class: vsq\n"
      "    operands:\n      - {name: vd, kind: v, field: rd, role: write}\n      - {name: vs1, kind: v, field: rs1}\n"
      "    doc: \"Lane-wise square.\"\n    operation: \"v[vd][i] = v[vs1][i]^2\"\n    fused: [\"V_MUL vd, vs1, vs1\"]\n";
  std::ofstream(dir / "simd" / "simd.yaml") << yaml;
  setenv("TLMCRAFT_ISA_DIR", dir.c_str(), 1);
  SimdPlatform p(load_config("default"));
  const std::vector<float> x = {3, -2, 0.5f, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  const auto r = run(p,
                     "V_LD v1, s0\n"       // 0, ready 3
                     "V_SQ v2, v1\n"       // 3, ready 8
                     "V_ST v2, s0, 32\n",  // 8, lands 9
                     [&](SimdPlatform& q) { q.write_memory("spad", 0, bf16_bytes(x)); });
  unsetenv("TLMCRAFT_ISA_DIR");
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 9u);
  const std::vector<float> y = bf16_values(p.read_memory("spad", 32, 32));
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(y[i], x[i] * x[i]);
}

}  // namespace
}  // namespace simd_accel
