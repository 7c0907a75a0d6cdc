// Helpers for the Coral platform tests: build a kernel with the real toolchain, run it on
// a fresh platform, read results back.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "platforms/coral/coral_config.h"
#include "platforms/coral/coral_platform.h"

namespace tlmcraft::coral::testing {

inline CoralPlatform make_platform(const std::vector<std::string>& overrides = {}) {
  return CoralPlatform(load_coral_config("default", overrides));
}

// Builds `source`; fails the test (with the diagnostics) if it does not build.
inline isa::Program build(const CoralPlatform& p, const std::string& source, const std::string& name = "kernel.s") {
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  const bool ok = p.assemble(source, name, prog, diags);
  std::string text;
  for (const auto& d : diags) text += d.format() + "\n";
  EXPECT_TRUE(ok) << text;
  return prog;
}

inline uint64_t symbol(const isa::Program& prog, const std::string& name) {
  for (const auto& [n, a] : prog.symbols)
    if (n == name) return a;
  ADD_FAILURE() << "no symbol " << name;
  return 0;
}

inline uint32_t read_u32(const CoralPlatform& p, uint64_t core_addr) {
  const bool ext = core_addr >= p.coral_config().ext_base;
  const auto bytes = p.read_memory(ext ? "ext" : "dtcm", core_addr - (ext ? p.coral_config().ext_base : kDtcmBase), 4);
  uint32_t v;
  std::memcpy(&v, bytes.data(), 4);
  return v;
}

// Loads and runs; returns the result (expects a normal halt unless told otherwise).
inline RunResult run(CoralPlatform& p, const isa::Program& prog, RunLimits limits = {}) {
  p.load(prog);
  return p.run(limits, {});
}

}  // namespace tlmcraft::coral::testing
