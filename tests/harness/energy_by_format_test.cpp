// The energy of one real AIE-ML run derived by hand: the bf16 gemm baseline at C1
// (M 8, K 64, N 64), run as
//   tlmcraft run --platform aie_ml --task gemm --config C1 --baseline --trials 1 --json
// MACs by format come from the task shape (every MAC of C = A x B is one bf16 MAC of a
// VMAC.BF16, 128 per issue); the other components are the report's own counters times
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

  // The other counters from the report, summed over tiles as the table's wildcards do.
  std::map<std::string, double> busy, instr;
  for (const auto& u : r["units"]) {
    const std::string name = u["name"], slot = name.substr(name.rfind('.') + 1);
    busy[slot] += u["busy_cycles"].get<double>();
    instr[slot] += u["instructions"].get<double>();
  }
  double dma_bytes = 0;
  for (const auto& [ch, s] : r["memory"]["dma"].items()) dma_bytes += s["bytes"].get<double>();
  const double tiles = 16, cycles = r["cycles"];

  // default.yaml ppa.energy, in table order (the model sums in that order).
  const double mac = 0 * 0.3 + 0 * 0.99 + macs_bf16 * 1.57;
  const double terms[] = {0 * 0.3,
                          0 * 0.99,
                          macs_bf16 * 1.57,
                          busy["vec"] * 16 * 0.1,
                          busy["lda"] * 32 * 3.45,
                          busy["ldb"] * 32 * 3.45,
                          busy["st"] * 32 * 3.45,
                          instr["alu"] * 0.1,
                          instr["core"] * 16 * 1.77,
                          dma_bytes * 3.45,
                          ddr_read * 162.5,
                          ddr_written * 162.5,
                          cycles * tiles * 5.0};
  double total = 0;
  for (double t : terms) total += t;
  EXPECT_DOUBLE_EQ(r["energy"]["by_component"]["vector_mac"].get<double>(), mac);
  EXPECT_DOUBLE_EQ(r["energy"]["by_component"]["vector_mac"].get<double>(), 51445.76);
  EXPECT_DOUBLE_EQ(r["energy"]["by_component"]["ddr"].get<double>(), (ddr_read + ddr_written) * 162.5);
  EXPECT_DOUBLE_EQ(r["energy"]["total_pj"].get<double>(), total);
  // Roofline: a MAC is two operations.
  EXPECT_EQ(r["roofline"]["ops"].get<double>(), 2 * macs_bf16);
  EXPECT_GT(busy["vec"], 0);
#endif
}

}  // namespace
}  // namespace tlmcraft::harness
