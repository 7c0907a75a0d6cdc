// Helpers for the AIE-ML platform tests: a platform from the default config (with
// overrides), kernel text assembled and loaded, and memory access by name.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "platforms/aie_ml/aie_platform.h"

namespace tlmcraft::aie_ml::test {

inline std::unique_ptr<AiePlatform> make(const std::vector<std::string>& overrides = {}) {
  return std::make_unique<AiePlatform>(load_aie_config("default", overrides));
}

// Assembles and loads; fails the test with every diagnostic when the kernel is rejected.
// `task_defaults` is the task's default `.movement` (KernelContext).
inline void load(AiePlatform& p, const std::string& kernel, const std::string& task_defaults = "") {
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  const bool ok = p.assemble(kernel, "k.s", KernelContext{task_defaults}, prog, diags);
  std::string all;
  for (const auto& d : diags) all += d.format() + "\n";
  ASSERT_TRUE(ok) << all;
  p.load(prog);
}

// Diagnostics of a kernel that must be rejected.
inline std::vector<isa::Diagnostic> reject(AiePlatform& p, const std::string& kernel) {
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  EXPECT_FALSE(p.assemble(kernel, "k.s", prog, diags));
  return diags;
}

inline std::string joined(const std::vector<isa::Diagnostic>& diags) {
  std::string all;
  for (const auto& d : diags) all += d.format() + "\n";
  return all;
}

// The little-endian 32-bit word at the start of `b`.
inline uint32_t word(const std::vector<uint8_t>& b) {
  uint32_t v;
  std::memcpy(&v, b.data(), 4);
  return v;
}

inline std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + i * 7);
  return v;
}

inline RunResult run(AiePlatform& p, const std::string& perfetto = "") {
  TraceOptions t;
  t.perfetto_path = perfetto;
  return p.run(RunLimits{}, t);
}

inline const UnitStats* unit(const RunResult& r, const std::string& name) {
  for (const auto& u : r.units)
    if (u.name == name) return &u;
  return nullptr;
}

}  // namespace tlmcraft::aie_ml::test
