// The energy of one real AIE-ML run derived by hand: the bf16 gemm baseline at C1
// (M 8, K 64, N 64), run as
//   tlmcraft run --platform aie_ml --task gemm --config C1 --baseline --trials 1 --json
// MACs by format come from the task shape (every MAC of C = A x B is one bf16 MAC of a
// VMAC.BF16, 128 per issue); the other components are the report's own action counts times
// platforms/aie_ml/configs/default.yaml `ppa.energy` (docs/energy-area.md).
#include <sys/wait.h>

#include <cstdlib>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

TEST(EnergyByFormat, AieMlBf16GemmEnergyIsMacsByFormatTimesTheTable) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  const std::string cmd = std::string("'") + TLMCRAFT_EXE +
                          "' run --platform aie_ml --task gemm --config C1 --baseline --trials 1 --seed 1 --json > '" +
                          dir.file("o") + "' 2> '" + dir.file("e") + "'";
  const int rc = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 0) << test::read_text(dir.file("e"));
  const json r = json::parse(test::read_text(dir.file("o")));
  ASSERT_EQ(r["status"], "pass");

  // By hand: M x N x K = 8 x 64 x 64 bf16 MACs, nothing in int8 or int16.
  const double macs_bf16 = 8.0 * 64 * 64;
  EXPECT_EQ(r["macs_by_format"], (json{{"bf16", 32768}, {"int16", 0}, {"int8", 0}}));
  // DDR: A (8 x 64) and B (64 x 64) bf16 read once, C (8 x 64) bf16 written once.
  const double ddr_read = (8 * 64 + 64 * 64) * 2.0, ddr_written = 8 * 64 * 2.0;
  EXPECT_EQ(r["memory"]["ddr"]["bytes_read"].get<double>(), ddr_read);
  EXPECT_EQ(r["memory"]["ddr"]["bytes_written"].get<double>(), ddr_written);

  // The other actions from the report, priced by default.yaml's ppa.energy (per action).
  const std::map<std::string, double> pj = {
      {"vector.mac.bf16", 1.57},        {"vector.add.int32", 0.1},        {"scalar.add.int32", 0.1},
      {"scalar.mul.int32", 3.1},        {"vreg.read_bytes", 0.42},        {"vreg.write_bytes", 0.42},
      {"acc.read_bytes", 0.42},         {"acc.write_bytes", 0.42},        {"sreg.read_bytes", 0.42},
      {"sreg.write_bytes", 0.42},       {"data_memory.read_bytes", 3.45}, {"data_memory.write_bytes", 3.45},
      {"program_memory.read_bytes", 1.77}, {"dma.bytes", 3.45},          {"ddr.read_bytes", 162.5},
      {"ddr.write_bytes", 162.5}};
  const double tiles = 16, cycles = r["cycles"];
  const double mac = macs_bf16 * 1.57;
  EXPECT_EQ(r["actions"]["vector.mac.bf16"].get<double>(), macs_bf16);
  EXPECT_EQ(r["actions"]["ddr.read_bytes"].get<double>(), ddr_read);
  EXPECT_EQ(r["actions"]["ddr.write_bytes"].get<double>(), ddr_written);
  double total = cycles * tiles * 5.0;  // static power x time
  for (const auto& [name, n] : r["actions"].items()) {
    if (n.get<double>() == 0) continue;
    ASSERT_TRUE(pj.count(name)) << name;
    total += n.get<double>() * pj.at(name);
  }
  EXPECT_DOUBLE_EQ(r["energy"]["by_component"]["vector_mac"].get<double>(), mac);
  EXPECT_DOUBLE_EQ(r["energy"]["by_component"]["vector_mac"].get<double>(), 51445.76);
  EXPECT_DOUBLE_EQ(r["energy"]["by_component"]["ddr"].get<double>(), (ddr_read + ddr_written) * 162.5);
  EXPECT_NEAR(r["energy"]["total_pj"].get<double>(), total, 1e-9 * total);
  // Roofline: a MAC is two operations.
  EXPECT_EQ(r["roofline"]["ops"].get<double>(), 2 * macs_bf16);
#endif
}

}  // namespace
}  // namespace tlmcraft::harness
