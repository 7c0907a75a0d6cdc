// Perfetto traces of the AIE-ML array: one process per tile, threads for each core slot,
// the stall track, each DMA channel and each lock (a counter).
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/platforms/aie_ml_test_util.h"
#include "traces/perfetto_writer.h"

namespace tlmcraft::aie_ml::test {
namespace {

TEST(AieMlTrace, TracksForCoreSlotsDmaChannelsAndLocks) {
  const char* k = R"(.tile 0 0
  MOVXM p0, 0x70000
  ACQ 48, 1
  LDA r1, [p0] ;; MOV r2, 3
  NOP
  NOP
  NOP
  NOP
  NOP
  NOP
  ADD r3, r1, r2
  DONE
.movement
locks:
  - {tile: [0, 0], id: 0, init: 0}
buffers:
  - {name: s, tile: mem0, address: 0, size: 16}
  - {name: d, tile: [0, 0], address: 0, size: 16}
bds:
  - {name: rd, tile: mem0, channel: mm2s0, buffer: s, length: 16}
  - {name: wr, tile: [0, 0], channel: s2mm1, buffer: d, length: 16, release: {lock: 0, value: 1}}
routes:
  - {from: {tile: mem0, port: mm2s0}, to: {tile: [0, 0], port: s2mm1}}
)";
  auto p = make();
  load(*p, k);
  const std::string path = (std::filesystem::temp_directory_path() / "aie_ml_trace_test.json").string();
  const RunResult r = run(*p, path);
  ASSERT_TRUE(r.ok()) << r.message;
  // DMA: setup to 4, [4, 8), lands 9 (1 hop) and releases lock 0; the core's ACQ (tried at
  // 1) wakes at 10: ACQ 10, LDA 11 (r1 at 18), NOPs 12..17, ADD 18, DONE 19: halt at 20.
  EXPECT_EQ(r.cycles, 20u);
  std::ifstream in(path);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::map<int, std::string> process;
  std::set<std::string> threads;
  for (const auto& e : j["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "process_name") process[e["pid"].get<int>()] = e["args"]["name"];
  bool lock_counter = false, dma_slice = false, lda_slice = false;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name")
      threads.insert(process[e["pid"].get<int>()] + "/" + e["args"]["name"].get<std::string>());
    if (e["ph"] == "C" && e["name"] == "lock0") lock_counter = true;
    if (e["ph"] == "X" && e["name"] == "rd") dma_slice = true;
    if (e["ph"] == "X" && e["name"] == "LDA") lda_slice = e["args"]["begin_cycle"] == 11 && e["args"]["end_cycle"] == 18;
  }
  for (const char* t : {"tile(0,0)/core.lda", "tile(0,0)/core.alu", "tile(0,0)/core.mv", "tile(0,0)/core.stall",
                        "tile(0,0)/dma.s2mm1", "mem0/dma.mm2s0"})
    EXPECT_TRUE(threads.count(t)) << t;
  EXPECT_TRUE(lock_counter);
  EXPECT_TRUE(dma_slice);
  EXPECT_TRUE(lda_slice);
  // One flow: the DMA transfer that filled d (s2mm1 [5, 9), lock 0 released at 9) to the
  // core bundle that acquires lock 0 at 10.
  std::vector<nlohmann::json> starts, finishes;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "s") starts.push_back(e);
    if (e["ph"] == "f") finishes.push_back(e);
  }
  ASSERT_EQ(starts.size(), 1u);
  ASSERT_EQ(finishes.size(), 1u);
  EXPECT_EQ(starts[0]["name"], "lock 0");
  EXPECT_DOUBLE_EQ(starts[0]["ts"].get<double>(), 0.008);
  EXPECT_DOUBLE_EQ(finishes[0]["ts"].get<double>(), 0.010);
  EXPECT_EQ(finishes[0]["id"], starts[0]["id"]);
  std::map<std::pair<int, int>, std::string> thread;
  for (const auto& e : j["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name")
      thread[{e["pid"].get<int>(), e["tid"].get<int>()}] =
          process[e["pid"].get<int>()] + "/" + e["args"]["name"].get<std::string>();
  EXPECT_EQ((thread[{starts[0]["pid"].get<int>(), starts[0]["tid"].get<int>()}]), "tile(0,0)/dma.s2mm1");
  EXPECT_EQ((thread[{finishes[0]["pid"].get<int>(), finishes[0]["tid"].get<int>()}]).rfind("tile(0,0)/core.", 0), 0u);
  std::filesystem::remove(path);
}

// The 16-tile GEMM C5 kernel (149,370 cycles) writes 415 MB of Perfetto JSON without a
// budget; with the default budget its trace is aggregated and stays under 50 MB.
TEST(AieMlTrace, SixteenTileGemmTraceStaysUnder50MegabytesByDefault) {
  std::ifstream in(std::string(TLMCRAFT_SOURCE_DIR) + "/platforms/aie_ml/kernels/gemm_multitile_16_C5.aie");
  ASSERT_TRUE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  auto p = make();
  load(*p, text.str());
  const std::string path = (std::filesystem::temp_directory_path() / "aie_ml_gemm16_trace_test.json").string();
  const RunResult r = run(*p, path);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.cycles, 149370u);  // the example kernel with its waits (kernels/README.md)
  const auto bytes = std::filesystem::file_size(path);
  EXPECT_LT(bytes, 50'000'000u);
  EXPECT_GT(bytes, 10'000'000u);  // aggregated, not emptied
  std::ifstream trace(path);
  const nlohmann::json j = nlohmann::json::parse(trace);
  EXPECT_EQ(j["otherData"]["size_budget_bytes"], 40'000'000);
  EXPECT_EQ(j["otherData"]["aggregation_bin_cycles"], 128);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace tlmcraft::aie_ml::test
