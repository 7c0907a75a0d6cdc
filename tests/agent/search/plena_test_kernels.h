// Helpers of the PLENA search-transformation tests: kernel text to a tree (a failed parse
// fails the test), and one unit's busy cycles from an evaluation report.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "platforms/plena/pack/agent/plena_kernel.h"

namespace tlmcraft::agent::search::plena {

inline Kernel parse(const std::string& text) {
  Kernel k;
  std::string error;
  EXPECT_TRUE(parse_kernel(text, k, error)) << error;
  return k;
}

inline int64_t busy(const nlohmann::json& report, const std::string& unit) {
  for (const auto& u : report["units"])
    if (u["name"] == unit) return u["busy_cycles"].get<int64_t>();
  ADD_FAILURE() << "no unit " << unit;
  return 0;
}

}  // namespace tlmcraft::agent::search::plena
