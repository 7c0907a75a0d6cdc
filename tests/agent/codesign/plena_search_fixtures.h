// What the tests of PLENA's search in explore share (plena_search_test.cpp,
// plena_region_search_test.cpp): the hardware they search for, the tlmcraft binary that
// runs the results, the adapter, and a candidate mined from a hand-written kernel.
#pragma once
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "agent/codesign/kernel_dataflow.h"
#include "agent/codesign/miner.h"

namespace tlmcraft::agent::codesign::test_plena {

inline const nlohmann::json kHardware = {{"platform", "plena"}, {"config", {{"arch", {{"vlen", 64}}}}}};
inline const std::string kExe = std::string(TLMCRAFT_BINARY_DIR) + "/harness/tlmcraft";

inline const DataflowAdapter& plena() {
  const DataflowAdapter* a = find_dataflow_adapter("plena");
  if (!a) throw std::runtime_error("no plena adapter");
  return *a;
}

// The first candidate mined from `kernel` (at most 10 kept), as an overlay: CD0, or
// `prefix` + 0.
inline nlohmann::json mined_overlay(const std::string& kernel, const std::string& prefix = "CD") {
  const auto found = mine(plena(), {{"hand/C1", "hand.asm", kernel, kHardware}}, {10});
  if (found.empty()) throw std::runtime_error("nothing mined");
  return candidates_document(plena(), "plena", found, prefix)["candidates"][0]["overlay"];
}

}  // namespace tlmcraft::agent::codesign::test_plena
