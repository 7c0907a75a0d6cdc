// Composed PLENA instructions added by data alone (issue 20, docs/isa-extensions.md):
// V_SILU_V (five steps, temporaries in hidden VRAM rows) and the legacy fused
// V_SIGMOID_V (converted alias-safe on load) run with destination = source and compute
// exactly what their steps compute; the temporaries are invisible to the program; an
// architectural register cannot reach the hidden rows.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "isa/isa_variant.h"
#include "platforms/plena/plena_platform.h"
#include "tests/platforms/plena_test_util.h"

namespace tlmcraft::plena {
namespace {

namespace fs = std::filesystem;

// V_SILU_V (composed) and V_SILU (`semantics: rd = silu(rs1)`) come from the shared
// overlays in examples/isa_ext/plena/; f1 holds 1.0 (the SiLU baseline's convention:
// S_LD_FP f1, gp0, 1 loads FP_MEM[1] = 1.0), f0 is the zero register. This test adds the
// legacy fused V_SIGMOID_V and V_ADD2_VV (one read port).
const char* kTestEntries = R"yaml(isa: plena
instructions:
  - mnemonic: V_SIGMOID_V
    opcode: 0x3C
    class: V
    unit: vector
    latency_class: vector_reci
    operands:
      - {name: rd, kind: gp, field: rd}
      - {name: rs1, kind: gp, field: rs1}
      - {name: rmask, kind: flag, field: rs3}
    reads: [V_MASK]
    doc: "Logistic sigmoid (legacy fused form, writing rd in place)."
    operation: "VRAM[gp[rd]] = 1 / (1 + exp(-VRAM[gp[rs1]]))"
    fused:
      - "V_SUB_VF rd, rs1, f0, rmask, 1"
      - "V_EXP_V rd, rd, rmask"
      - "V_ADD_VF rd, rd, f1, rmask"
      - "V_RECI_V rd, rd, rmask"
  - mnemonic: V_ADD2_VV
    opcode: 0x3D
    class: V
    unit: vector
    latency_class: vector_add
    operands:
      - {name: rd,  kind: gp, field: rd,  role: write, value: vrow}
      - {name: rs1, kind: gp, field: rs1, role: read,  value: vrow}
      - {name: rs2, kind: gp, field: rs2, role: read,  value: vrow}
    doc: "rs1 + rs2 with one read port."
    operation: "VRAM[gp[rd]] = VRAM[gp[rs1]] + VRAM[gp[rs2]]"
    semantics: "rd = rs1 + rs2"
    timing: {latency: 1, ii: 1, read_ports: 1, write_ports: 1}
)yaml";

// The shared overlays and this test's, in force for each test.
class ComposedIsa : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path own = fs::path(::testing::TempDir()) / ("composed_" + std::to_string(getpid()) + ".yaml");
    std::ofstream(own) << kTestEntries;
    const std::string dir = std::string(TLMCRAFT_SOURCE_DIR) + "/examples/isa_ext/plena/";
    scope_ = std::make_unique<isa::ScopedIsaVariant>(
        isa::IsaVariant{"", {dir + "silu_composed.yaml", dir + "silu_semantics.yaml", own.string()}});
    setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  }
  void TearDown() override { scope_.reset(); }
  std::unique_ptr<isa::ScopedIsaVariant> scope_;
};

std::vector<uint8_t> bytes_of(const std::vector<uint16_t>& v) {
  std::vector<uint8_t> b;
  for (uint16_t x : v) b.push_back(uint8_t(x & 0xFF)), b.push_back(uint8_t(x >> 8));
  return b;
}

std::vector<uint16_t> row(PlenaPlatform& p, uint32_t addr) {
  const std::vector<uint8_t> b = p.read_memory("vram", addr, 64 * 2);
  std::vector<uint16_t> v;
  for (size_t i = 0; i < b.size(); i += 2) v.push_back(uint16_t(b[i] | (b[i + 1] << 8)));
  return v;
}

// 64 lanes: six hand-checked values, then a spread of others.
std::vector<uint16_t> inputs() {
  std::vector<uint16_t> x = {0x0000, 0x3F80, 0x4000, 0xBF80, 0x3F00, 0xC040};  // 0, 1, 2, -1, 0.5, -3
  for (int i = 6; i < 64; ++i) x.push_back(uint16_t(0x3C00 + i * 0x45 + (i % 2 ? 0x8000 : 0)));
  return x;
}

// Runs `body` after: VRAM row 1 (address 64) = inputs(), row 2 (128) = 0x1111 marks,
// f1 = 1.0, gp1 = 7, gp2 = 9, gp4 = 11, gp5 = 13 (registers a temporary may borrow).
// Afterwards INT_MEM[0..3] holds gp1, gp2, gp4, gp5.
RunResult run_body(PlenaPlatform& p, const std::string& body) {
  const std::string kernel = "S_LD_FP f1, gp0, 1\nS_ADDI_INT gp1, gp0, 7\nS_ADDI_INT gp2, gp0, 9\n"
                             "S_ADDI_INT gp4, gp0, 11\nS_ADDI_INT gp5, gp0, 13\n" +
                             body + "\nS_ST_INT gp1, gp0, 0\nS_ST_INT gp2, gp0, 1\nS_ST_INT gp4, gp0, 2\nS_ST_INT gp5, gp0, 3\n";
  testing::load(p, kernel);
  p.write_memory("fp_mem", 1, {0x80, 0x3F});
  p.write_memory("vram", 64, bytes_of(inputs()));
  p.write_memory("vram", 128, bytes_of(std::vector<uint16_t>(64, 0x1111)));
  return p.run({}, {});
}

// The composed V_SILU_V gp3, gp3 (destination = source) gives, lane for lane, the bits of
// its five steps run one by one on separate rows, and these hand-derived values (bf16
// rounding after every step, as the vector unit does):
//   x = 1.0:  -1 -> exp 0.3671875 (0x3EBC) -> +1 1.3671875 -> 1/ 0.73046875 (0x3F3B) -> x* 0x3F3B
//   x = 2.0:  -2 -> 0.1357421875 -> 1.1328125 -> 0.8828125 -> 1.765625 (0x3FE2)
//   x = -1.0: 1 -> 2.71875 -> 3.71875 -> 0.26953125 -> -0.26953125 (0xBE8A)
//   x = 0.5:  -0.5 -> 0.60546875 -> 1.609375 -> 0.62109375 -> 0.310546875 (0x3E9F)
//   x = -3.0: 3 -> 20.125 -> 21.125 -> 0.04736328125 -> -0.142578125 (0xBE12)
//   x = 0:    0 -> 1 -> 2 -> 0.5 -> 0 (0x0000)
TEST_F(ComposedIsa, SiluWithDestinationEqualSourceComputesWhatItsStepsCompute) {
  PlenaPlatform composed(testing::config("serial"));
  ASSERT_EQ(run_body(composed, "S_ADDI_INT gp3, gp0, 64\nV_SILU_V gp3, gp3, 0").stop, StopReason::Halted);
  const std::vector<uint16_t> y = row(composed, 64);
  const std::vector<uint16_t> hand = {0x0000, 0x3F3B, 0x3FE2, 0xBE8A, 0x3E9F, 0xBE12};
  for (size_t i = 0; i < hand.size(); ++i) EXPECT_EQ(y[i], hand[i]) << "lane " << i;

  // The steps one by one, each into its own row (rows 4..7), so nothing is overwritten.
  PlenaPlatform steps(testing::config("serial"));
  ASSERT_EQ(run_body(steps, "S_ADDI_INT gp3, gp0, 64\nS_ADDI_INT gp6, gp0, 256\nS_ADDI_INT gp7, gp0, 320\n"
                            "S_ADDI_INT gp8, gp0, 384\nS_ADDI_INT gp9, gp0, 448\nS_ADDI_INT gp12, gp0, 512\n"
                            "V_SUB_VF gp6, gp3, f0, 0, 1\nV_EXP_V gp7, gp6, 0\nV_ADD_VF gp8, gp7, f1, 0\n"
                            "V_RECI_V gp9, gp8, 0\nV_MUL_VV gp12, gp3, gp9, 0")
                .stop,
            StopReason::Halted);
  EXPECT_EQ(y, row(steps, 512));
  // Nothing else changed: the next row keeps its marks, the borrowed registers their values.
  EXPECT_EQ(row(composed, 128), std::vector<uint16_t>(64, 0x1111));
  EXPECT_EQ(composed.read_memory("int_mem", 0, 16),
            (std::vector<uint8_t>{7, 0, 0, 0, 9, 0, 0, 0, 11, 0, 0, 0, 13, 0, 0, 0}));
}

// The legacy fused V_SIGMOID_V wrote rd in place; loaded, its first three writes of rd go
// to temporaries, so with rd = rs1 it reads x in step 1 only and gives 1 / (1 + exp(-x)):
// the fourth column of the derivation above (x = 1.0 -> 0x3F3B, x = 0 -> 0.5 = 0x3F00).
TEST_F(ComposedIsa, LegacyFusedFormIsAliasSafeAfterConversion) {
  PlenaPlatform p(testing::config("serial"));
  ASSERT_EQ(run_body(p, "S_ADDI_INT gp3, gp0, 64\nV_SIGMOID_V gp3, gp3, 0").stop, StopReason::Halted);
  const std::vector<uint16_t> y = row(p, 64);
  const std::vector<uint16_t> hand = {0x3F00, 0x3F3B, 0x3F62, 0x3E8A, 0x3F1F, 0x3D42};
  for (size_t i = 0; i < hand.size(); ++i) EXPECT_EQ(y[i], hand[i]) << "lane " << i;
  PlenaPlatform apart(testing::config("serial"));
  ASSERT_EQ(run_body(apart, "S_ADDI_INT gp3, gp0, 64\nS_ADDI_INT gp6, gp0, 256\nV_SIGMOID_V gp6, gp3, 0").stop,
            StopReason::Halted);
  EXPECT_EQ(y, row(apart, 256));
}

// V_SILU by expression (`semantics: rd = silu(rs1)`): computed in f32 from the bf16 input
// and rounded once, x / (1 + exp(-x)) to bf16:
//   x = 1: 0.7310586 -> 0x3F3B; x = 2: 1.7615942 -> 1.7578125 (0x3FE1; the five-step
//   composition rounds five times and gives 0x3FE2); x = -1: -0.2689414 -> 0xBE8A;
//   x = 0.5: 0.3112297 -> 0x3E9F; x = -3: -0.1422776 -> 0xBE12; 0 -> 0.
// Destination = source gives the same row as a separate destination; with rmask = 1 and
// V_MASK = 1 only head 0 (lanes 0..15, HLEN 16) is written, the rest keep x.
TEST_F(ComposedIsa, ExpressionSiluIsAliasSafeAndHonoursTheMask) {
  PlenaPlatform p(testing::config("serial"));
  ASSERT_EQ(run_body(p, "S_ADDI_INT gp3, gp0, 64\nV_SILU gp3, gp3, 0").stop, StopReason::Halted);
  const std::vector<uint16_t> y = row(p, 64);
  const std::vector<uint16_t> hand = {0x0000, 0x3F3B, 0x3FE1, 0xBE8A, 0x3E9F, 0xBE12};
  for (size_t i = 0; i < hand.size(); ++i) EXPECT_EQ(y[i], hand[i]) << "lane " << i;
  PlenaPlatform apart(testing::config("serial"));
  ASSERT_EQ(run_body(apart, "S_ADDI_INT gp3, gp0, 64\nS_ADDI_INT gp6, gp0, 256\nV_SILU gp6, gp3, 0").stop,
            StopReason::Halted);
  EXPECT_EQ(y, row(apart, 256));
  PlenaPlatform masked(testing::config("serial"));
  ASSERT_EQ(run_body(masked, "S_ADDI_INT gp3, gp0, 64\nS_ADDI_INT gp6, gp0, 1\nC_SET_V_MASK_REG gp6\n"
                             "V_SILU gp3, gp3, 1")
                .stop,
            StopReason::Halted);
  std::vector<uint16_t> want = inputs();
  std::copy(y.begin(), y.begin() + 16, want.begin());
  EXPECT_EQ(row(masked, 64), want);
}

// timing.read_ports: one port moves one row a cycle, so V_ADD2_VV (two rows read, one
// read port) takes ceil(2 / 1) = 2 cycles although its latency says 1; V_ADD_VV (the
// vector_add class, 1 cycle) is the control. Serial: the program's cycles are the sum,
// so the two kernels differ by exactly 1 cycle.
TEST_F(ComposedIsa, ReadPortsBoundTheLatency) {
  const std::string setup = "S_ADDI_INT gp3, gp0, 64\nS_ADDI_INT gp6, gp0, 128\n";
  PlenaPlatform one(testing::config("serial")), two(testing::config("serial"));
  const RunResult a = run_body(one, setup + "V_ADD_VV gp3, gp3, gp6, 0");
  const RunResult b = run_body(two, setup + "V_ADD2_VV gp3, gp3, gp6");
  ASSERT_EQ(a.stop, StopReason::Halted);
  ASSERT_EQ(b.stop, StopReason::Halted);
  EXPECT_EQ(b.cycles, a.cycles + 1);
  EXPECT_EQ(row(one, 64), row(two, 64));  // the same sums, bit for bit
}

// A gp register holding an address past the VRAM faults as an ordinary instruction's
// would, although the steps' view reaches the hidden rows.
TEST_F(ComposedIsa, AnArchitecturalAddressCannotReachTheHiddenRows) {
  PlenaPlatform p(testing::config("serial"));
  const uint32_t past = load_plena_config("default").vram_elements;
  const RunResult r = run_body(p, "S_LUI_INT gp6, " + std::to_string(past >> 12) + "\nS_ADDI_INT gp6, gp6, " +
                                      std::to_string(past & 0xFFF) + "\nS_ADDI_INT gp3, gp0, 64\nV_SILU_V gp3, gp6, 0");
  ASSERT_EQ(r.stop, StopReason::Fault);
  EXPECT_NE(r.message.find("V_SILU_V (composed) step 1: VRAM address gp6 = " + std::to_string(past) +
                           " is past the VRAM (" + std::to_string(past) + " elements)"),
            std::string::npos)
      << r.message;
}

}  // namespace
}  // namespace tlmcraft::plena
