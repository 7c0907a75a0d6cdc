// Perfetto traces of the AIE-ML array: one process per tile, threads for each core slot,
// the stall track, each DMA channel and each lock (a counter).
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/platforms/aie_ml_test_util.h"

namespace tlmcraft::aie_ml::test {
namespace {

TEST(AieMlTrace, TracksForCoreSlotsDmaChannelsAndLocks) {
  const char* k = R"(.tile 0 0
  MOVXM p0, 0x70000
  ACQ 48, 1
  LDA r1, [p0] ;; MOV r2, 3
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
  // 1) wakes at 10: ACQ 10, LDA 11 (r1 at 18), ADD 18, DONE 19: halt at 20.
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
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace tlmcraft::aie_ml::test
