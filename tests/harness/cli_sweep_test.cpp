// `tlmcraft sweep`, `compare`, `bench` resume separation and the energy figure of a real
// run, through the real executable. PLENA gemv C1 in pipelined mode, one trial per job:
// each job takes milliseconds.
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/suite_runner.h"
#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

#ifdef TLMCRAFT_EXE
int run(const std::string& args, const std::string& out_file, const std::string& err_file) {
  const std::string cmd = std::string("'") + TLMCRAFT_EXE + "' " + args + " > '" + out_file + "' 2> '" + err_file + "'";
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

const std::string kCell = "--platform plena --task gemv --config C1 --trials 1 --jobs 2 --quiet ";
const std::string kBw = "timing.dma.prefetch.bytes_per_cycle";

std::set<std::string> variants_in(const std::string& path) {
  std::set<std::string> ids;
  for (const auto& r : read_jsonl(path).records) ids.insert(r["job"]["variant"].get<std::string>());
  return ids;
}
#endif

TEST(CliSweep, VariantsStayApartAcrossSweepsAndBench) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  const std::string store = dir.file("s.jsonl");
  const std::string sweep = "sweep " + kCell + "--set timing.mode=pipelined --out '" + store + "' ";
  ASSERT_EQ(run(sweep + "--grid " + kBw + "=64,32 --json", dir.file("o1"), dir.file("e1")), 0)
      << test::read_text(dir.file("e1"));
  auto records = read_jsonl(store).records;
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(variants_in(store).size(), 2u);
  for (const auto& r : records) {
    EXPECT_EQ(r["status"], "pass");
    EXPECT_EQ(r["provenance"]["overrides"]["timing.mode"], "pipelined");
    EXPECT_EQ(r["provenance"]["variant"], r["job"]["variant"]);
  }
  const json table = json::parse(test::read_text(dir.file("o1")));
  EXPECT_EQ(table["schema"], "tlmcraft.sweep/1");
  ASSERT_EQ(table["variants"].size(), 2u);
  EXPECT_EQ(table["reference"], kBw + "=64");
  const double c64 = table["rows"][0]["variants"][0]["cycles"], c32 = table["rows"][0]["variants"][1]["cycles"];
  EXPECT_GT(c32, c64);  // half the prefetch bandwidth is slower
  EXPECT_DOUBLE_EQ(table["variants"][1]["geomean_speedup_vs_reference"].get<double>(), c64 / c32);

  // The same sweep again: everything resumed, nothing added.
  ASSERT_EQ(run(sweep + "--grid " + kBw + "=64,32", dir.file("o2"), dir.file("e2")), 0);
  EXPECT_NE(test::read_text(dir.file("e2")).find("sweep: resuming: 2 of 2 result(s) (same job, same variant)"), std::string::npos)
      << test::read_text(dir.file("e2"));
  EXPECT_EQ(read_jsonl(store).records.size(), 2u);

  // Another value into the same store: one new result, the others kept apart and said so.
  ASSERT_EQ(run(sweep + "--grid " + kBw + "=16", dir.file("o3"), dir.file("e3")), 0);
  EXPECT_EQ(read_jsonl(store).records.size(), 3u);
  EXPECT_NE(test::read_text(dir.file("e3")).find("2 result(s) in " + store + " come from other variants and are NOT reused"),
            std::string::npos)
      << test::read_text(dir.file("e3"));

  // bench --set into the store never reuses another variant's result.
  ASSERT_EQ(run("bench " + kCell + "--set timing.mode=pipelined --set " + kBw + "=128 --out '" + store + "'",
                dir.file("o4"), dir.file("e4")),
            0);
  EXPECT_EQ(read_jsonl(store).records.size(), 4u);
  EXPECT_EQ(variants_in(store).size(), 4u);
  EXPECT_NE(test::read_text(dir.file("e4")).find("come from other variants and are NOT reused"), std::string::npos);

  // compare two variants of the store: A/B = 64 vs 32.
  ASSERT_EQ(run("compare '" + store + "' --a '" + kBw + "=64' --b '" + kBw + "=32' --json", dir.file("o5"), dir.file("e5")),
            0)
      << test::read_text(dir.file("e5"));
  const json cmp = json::parse(test::read_text(dir.file("o5")));
  ASSERT_EQ(cmp["cells"].size(), 1u);
  EXPECT_DOUBLE_EQ(cmp["cells"][0]["speedup"].get<double>(), c64 / c32);
  EXPECT_EQ(cmp["regressions"][0]["task"], "gemv");
  // Without --a/--b a store of several variants is ambiguous: exit 2 listing them.
  EXPECT_EQ(run("compare '" + store + "'", dir.file("o6"), dir.file("e6")), 2);
  EXPECT_NE(test::read_text(dir.file("e6")).find("with one file, name both variants"), std::string::npos);
#endif
}

TEST(CliSweep, SweepFileErrorsExitWith2) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  test::write_text(dir.file("s.yaml"), "platform: plena\ntasks: [gemv]\ngrid:\n  arch.nope: [1, 2]\n");
  EXPECT_EQ(run("sweep '" + dir.file("s.yaml") + "' --out '" + dir.file("s.jsonl") + "' --quiet", dir.file("o"), dir.file("e")),
            2);
  // Every variant's platform is built before any job runs: the unknown key stops the sweep.
  const std::string err = test::read_text(dir.file("e"));
  EXPECT_NE(err.find("tlmcraft sweep: error: variant 'arch.nope=1' on plena: "), std::string::npos) << err;
  EXPECT_NE(err.find("arch.nope"), std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("s.jsonl")));
#endif
}

TEST(CliSweep, EnergyOfARunIsCountsTimesTheTable) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  ASSERT_EQ(run("run --platform plena --task gemv --config C1 --baseline --trials 1 --set timing.mode=pipelined --json",
                dir.file("o"), dir.file("e")),
            0)
      << test::read_text(dir.file("e"));
  const json r = json::parse(test::read_text(dir.file("o")));
  const json& m = r["memory"];
  const double pre_in = m["dma_prefetch"]["bytes_in"], st_out = m["dma_store"]["bytes_out"];
  // platforms/plena/configs/default.yaml, ppa.energy: pJ per action (docs/energy-area.md).
  const std::map<std::string, double> pj = {
      {"matrix.mac.bf16", 1.57},  {"matrix.convert.fp32", 0.03}, {"vector.add.bf16", 0.4},
      {"vector.add.fp32", 0.9},   {"vector.mul.bf16", 0.67},     {"vector.cmp.bf16", 0.4},
      {"vector.exp.bf16", 3.21},  {"vector.recip.bf16", 3.21},   {"vector.move.bf16", 0.0},
      {"scalar.add.bf16", 0.4},   {"scalar.mul.bf16", 0.67},     {"scalar.cmp.bf16", 0.4},
      {"scalar.exp.bf16", 3.21},  {"scalar.recip.bf16", 3.21},   {"scalar.sqrt.bf16", 3.21},
      {"scalar.add.int32", 0.1},  {"scalar.mul.int32", 3.1},     {"gp.read_bytes", 0.42},
      {"gp.write_bytes", 0.42},   {"fp.read_bytes", 0.42},       {"fp.write_bytes", 0.42},
      {"addr.read_bytes", 0.42},  {"addr.write_bytes", 0.42},    {"msram.read_bytes", 2.5},
      {"msram.write_bytes", 2.5}, {"vram.read_bytes", 4.75},     {"vram.write_bytes", 4.75},
      {"fp_mem.read_bytes", 1.25}, {"fp_mem.write_bytes", 1.25}, {"int_mem.read_bytes", 1.25},
      {"int_mem.write_bytes", 1.25}, {"hbm.read_bytes", 31.2},   {"hbm.write_bytes", 31.2},
      {"fetch.instruction", 5.0}};
  // bf16 MACs counted per matrix instruction: gemv C1 (M 64, N 512) is 64 x 512 of them.
  EXPECT_EQ(r["macs_by_format"], (json{{"bf16", 64 * 512}}));
  EXPECT_EQ(r["actions"]["matrix.mac.bf16"], 64 * 512);
  double total = r["cycles"].get<double>() * 11.0;  // static power x time
  for (const auto& [name, n] : r["actions"].items()) {
    ASSERT_TRUE(pj.count(name)) << name;
    total += n.get<double>() * pj.at(name);
  }
  // HBM: the bytes the DMA engines read from / wrote to HBM.
  EXPECT_EQ(r["actions"]["hbm.read_bytes"].get<double>(), pre_in);
  EXPECT_EQ(r["actions"]["hbm.write_bytes"].get<double>(), st_out);
  const double hbm = (pre_in + st_out) * 31.2;
  ASSERT_TRUE(r.contains("energy"));
  EXPECT_NEAR(r["energy"]["total_pj"].get<double>(), total, 1e-6 * total);
  EXPECT_NEAR(r["energy"]["by_component"]["hbm"].get<double>(), hbm, 1e-9 * hbm);
  EXPECT_GT(pre_in, 0);
  // Area: 16 MACs x 0.005824 + 64 lanes x 0.003 + (32 + 128 + 4 + 2) KiB x 0.0047 mm2.
  EXPECT_NEAR(r["area"]["total_mm2"].get<double>(), 16 * 0.005824 + 64 * 0.003 + 166 * 0.0047, 1e-9);
#endif
}

}  // namespace
}  // namespace tlmcraft::harness
