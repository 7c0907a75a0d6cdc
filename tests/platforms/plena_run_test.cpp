// End-to-end runs of kernels on the PLENA platform: numerics, the SiLU must-show, faults,
// limits and traces.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "isa/formats/bf16.h"
#include "isa/formats/mxfp8.h"
#include "tests/platforms/plena_test_util.h"
#include "tests/unique_temp_dir.h"

namespace tlmcraft::plena {
namespace {

namespace fmt = tlmcraft::isa::formats;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string silu_kernel() { return read_file(std::string(TLMCRAFT_SOURCE_DIR) + "/platforms/plena/kernels/silu_c1.asm"); }

// x[i] in [-4, 4), quantised to MXFP8 as the HBM holds it.
std::vector<float> silu_input() {
  std::vector<float> x(256);
  for (int i = 0; i < 256; ++i) x[i] = -4.0f + 8.0f * float((i * 37) % 256) / 256.0f;
  return x;
}

RunResult run_silu(PlenaPlatform& p, std::vector<uint16_t>& y) {
  testing::load(p, silu_kernel());
  const std::vector<float> x = silu_input();
  p.write_memory("hbm", 0, fmt::encode_mx_tensor(x.data(), x.size()));
  p.write_memory("fp_mem", 1, {0x80, 0x3F});  // FP_MEM[1] = 1.0 (bf16 0x3F80)
  const RunResult r = p.run({}, {});
  const std::vector<uint8_t> out = p.read_memory("hbm", 4096, 512);
  y.resize(256);
  std::memcpy(y.data(), out.data(), 512);
  return r;
}

TEST(PlenaRun, SiluComputesXTimesSigmoidWithBf16Rounding) {
  PlenaPlatform p(testing::config("serial"));
  std::vector<uint16_t> y;
  const RunResult r = run_silu(p, y);
  ASSERT_TRUE(r.ok()) << r.message;
  const std::vector<float> x = fmt::mx_round_trip(silu_input().data(), 256);
  for (int i = 0; i < 256; ++i) {
    // The kernel's five steps, each rounded to bf16 (round to nearest even).
    const float t0 = fmt::round_to_bf16(0.0f - x[i]);
    const float t1 = fmt::round_to_bf16(std::exp(t0));
    const float t2 = fmt::round_to_bf16(1.0f + t1);
    const float t3 = fmt::round_to_bf16(1.0f / t2);
    const float want = fmt::round_to_bf16(t3 * x[i]);
    ASSERT_EQ(fmt::bf16_to_float(y[i]), want) << "element " << i << " x=" << x[i];
    const double exact = x[i] / (1.0 + std::exp(-double(x[i])));
    EXPECT_NEAR(fmt::bf16_to_float(y[i]), exact, 0.02 * std::fabs(exact) + 1e-3) << i;
  }
}

TEST(PlenaRun, SiluSerialCyclesAreTheLatencyTablePlusTransfers) {
  // Non-HBM instructions by the latency table: 5 set-up (S_ADDI, C_SET_SCALE, S_ADDI,
  // C_SET_ADDR, S_ADDI) + S_LD_FP + S_ADDI + C_LOOP_START + 4 x (SUB 1, EXP 1, ADD 1,
  // RECI 2, MUL 1, 2 S_ADDI, LOOP_END 1 = 9) + S_ADDI = 45.
  // Prefetch issued at 5: 30 cycles on the HBM engine (the derivation of
  // PlenaTiming.PrefetchThenUseSerial: the last of 4 RDs per channel returns 30 later).
  // Store issued at 75: 4 BF16 rows = 8 blocks = 32 write requests, 4 per channel, all
  // accepted at once; a write completes on acceptance (as in the reference): 0 cycles.
  // Total 45 + 30 + 0 = 75.
  PlenaPlatform p(testing::config("serial"));
  std::vector<uint16_t> y;
  const RunResult r = run_silu(p, y);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 75u);
  EXPECT_EQ(r.instructions, 5u + 1 + 3 + 4 * 8 + 2);
  uint64_t prefetch = 0, store = 0;
  for (const auto& u : r.units) {
    if (u.name == "dma.prefetch") prefetch = u.busy_cycles;
    if (u.name == "dma.store") store = u.busy_cycles;
  }
  EXPECT_EQ(prefetch, 30u);
  EXPECT_EQ(store, 0u);
  EXPECT_EQ(r.cycles - prefetch - store, 45u);
  EXPECT_EQ(r.instructions_by_class.at("V"), 20u);
  EXPECT_EQ(r.instructions_by_class.at("H"), 2u);
}

// Same result in both modes. The loop needs the prefetched rows and the store the loop's;
// pipelined mode still gains by issuing independent instructions back to back, but its
// store takes the SRAM side's 8 cycles (4 rows x 128 B at 64 B/cycle), which the reference
// (serial mode) does not charge.
TEST(PlenaRun, PipelinedSiluComputesTheSame) {
  PlenaPlatform ps(testing::config("serial")), pp(testing::config("pipelined"));
  std::vector<uint16_t> ys, yp;
  const RunResult rs = run_silu(ps, ys), rp = run_silu(pp, yp);
  ASSERT_TRUE(rp.ok()) << rp.message;
  EXPECT_EQ(ys, yp);
  EXPECT_LE(rp.cycles, rs.cycles + 16);
}

RunResult run_text(const std::string& kernel, RunLimits limits = {}) {
  PlenaPlatform p(testing::config("serial"));
  return testing::run(p, kernel, limits);
}

TEST(PlenaRun, InstructionLimitNamesTheLoop) {
  RunLimits l;
  l.max_instructions = 1000;
  const RunResult r = run_text("S_ADDI_INT gp3, gp0, 1\nC_LOOP_START gp1, 100\n  C_LOOP_START gp2, 100\n"
                               "    S_ADDI_INT gp3, gp3, 1\n  C_LOOP_END gp2\nC_LOOP_END gp1\n",
                               l);
  EXPECT_EQ(r.stop, StopReason::InstructionLimit);
  EXPECT_EQ(r.message, "exceeded max instructions limit (1000) at PC 4 (line 5: C_LOOP_END gp2), in the loop at PC 2 "
                       "(line 3: C_LOOP_START gp2, 100)");
  EXPECT_EQ(r.instructions, 1000u);
}

TEST(PlenaRun, CycleLimit) {
  RunLimits l;
  l.max_cycles = 100;
  const RunResult r = run_text("C_LOOP_START gp1, 1000\n  V_RED_SUM f1, gp0\nC_LOOP_END gp1\n", l);
  EXPECT_EQ(r.stop, StopReason::CycleLimit);
  EXPECT_NE(r.message.find("exceeded max cycles limit (100)"), std::string::npos) << r.message;
}

TEST(PlenaRun, OutOfRangeVramAddressFaultsWithPcAndLine) {
  // gp1 = 64 << 12 = 262144: beyond the 65536-element VRAM.
  const RunResult r = run_text("S_LUI_INT gp1, 64\nV_EXP_V gp1, gp1, 0\n");
  EXPECT_EQ(r.stop, StopReason::Fault);
  EXPECT_EQ(r.message.rfind("PC 1 (line 2: V_EXP_V gp1, gp1, 0): ", 0), 0u) << r.message;
  EXPECT_EQ(r.instructions, 1u);
}

TEST(PlenaRun, HbmAddressOutsideHbmFaults) {
  const RunResult r = run_text("S_LUI_INT gp1, 1\nC_SET_ADDR_REG a0, gp1, gp0\nH_PREFETCH_V gp0, gp0, a0, 0, 0\n");
  EXPECT_EQ(r.stop, StopReason::Fault);
  EXPECT_NE(r.message.find("PC 2 (line 3: H_PREFETCH_V gp0, gp0, a0, 0, 0): HBM access [0x100000000000, "),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("is outside HBM"), std::string::npos) << r.message;
}

TEST(PlenaRun, LoopStackOverflowFaults) {
  // Nine nested loops on gp1..gp9; the loop stack holds arch.loop_depth = 8.
  std::string k;
  for (int i = 1; i <= 9; ++i) k += "C_LOOP_START gp" + std::to_string(i) + ", 2\n";
  for (int i = 9; i >= 1; --i) k += "C_LOOP_END gp" + std::to_string(i) + "\n";
  const RunResult r = run_text(k);
  EXPECT_EQ(r.stop, StopReason::Fault);
  EXPECT_EQ(r.message.rfind("PC 8 (line 9: C_LOOP_START gp9, 2): ", 0), 0u) << r.message;
  EXPECT_EQ(r.instructions, 8u);
}

TEST(PlenaRun, TracesAreWrittenWhenAsked) {
  const ::tlmcraft::test::UniqueTempDir scratch("plena-trace");
  const std::filesystem::path dir = scratch.path();
  PlenaPlatform p(testing::config("pipelined"));
  testing::load(p, silu_kernel());
  TraceOptions t;
  t.vcd_path = (dir / "silu.vcd").string();
  t.perfetto_path = (dir / "silu.json").string();
  const RunResult r = p.run({}, t);
  ASSERT_TRUE(r.ok());
  const std::string vcd = read_file(t.vcd_path), pf = read_file(t.perfetto_path);
  EXPECT_NE(vcd.find("$enddefinitions"), std::string::npos);
  EXPECT_NE(vcd.find("vector"), std::string::npos);
  EXPECT_NE(pf.find("\"traceEvents\""), std::string::npos);
  EXPECT_NE(pf.find("V_EXP_V"), std::string::npos);
  EXPECT_NE(pf.find("dma.prefetch"), std::string::npos);
  // The prefetch [5, 35) fills the VRAM rows V_EXP_V reads: its queue holds one transfer
  // from 5 to 35, the vector unit waits [9, 35), and a flow links the prefetch's last
  // cycle (34) to the first use (35).
  const nlohmann::json j = nlohmann::json::parse(pf);
  std::map<std::string, std::vector<std::pair<double, int64_t>>> counters;
  std::vector<std::pair<double, double>> waits;
  std::vector<nlohmann::json> flows;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "C") counters[e["name"]].push_back({e["ts"].get<double>(), e["args"]["value"].get<int64_t>()});
    if (e["ph"] == "X" && e["name"] == "wait") waits.push_back({e["ts"].get<double>(), e["dur"].get<double>()});
    if (e["ph"] == "s" || e["ph"] == "f") flows.push_back(e);
  }
  EXPECT_EQ(counters["hbm.prefetch_queue"], (std::vector<std::pair<double, int64_t>>{{0, 0}, {0.005, 1}, {0.035, 0}}));
  EXPECT_EQ(counters["hbm.store_queue"], (std::vector<std::pair<double, int64_t>>{{0, 0}, {0.072, 1}, {0.08, 0}}));
  ASSERT_FALSE(waits.empty());
  EXPECT_EQ(waits[0], (std::pair<double, double>{0.009, 0.026}));
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(flows[0]["name"], "prefetch -> first use");
  EXPECT_EQ(flows[0]["ts"], 0.034);
  EXPECT_EQ(flows[1]["ts"], 0.035);
  EXPECT_EQ(flows[1]["bp"], "e");
  // The VCD never shows x, and GTKWave's filter and save file are written beside it.
  EXPECT_EQ(vcd.find("bx"), std::string::npos);
  const std::string names = read_file((dir / "silu.vcd.names.txt").string());
  EXPECT_EQ(names.rfind("0 idle\n1 S_ADDI_INT\n", 0), 0u);
  EXPECT_NE(read_file((dir / "silu.gtkw").string()).find("plena.vector.slice[31:0]\n"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::plena
