// Test helpers: a flat 64 KB data memory, a counting lock port, and a runner that
// assembles a core program and executes it bundle by bundle.
#pragma once
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "isa/aie_ml/aie_core.h"

namespace aie_test {

using namespace tlmcraft::isa::aie_ml;

struct FlatMemory : DataMemoryPort {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(65536, 0);
  bool read(uint32_t addr, void* dst, uint32_t n) override {
    if (uint64_t(addr) + n > bytes.size()) return false;
    std::memcpy(dst, bytes.data() + addr, n);
    return true;
  }
  bool write(uint32_t addr, const void* src, uint32_t n) override {
    if (uint64_t(addr) + n > bytes.size()) return false;
    std::memcpy(bytes.data() + addr, src, n);
    return true;
  }
  template <typename T>
  void put(uint32_t addr, const std::vector<T>& v) {
    std::memcpy(bytes.data() + addr, v.data(), v.size() * sizeof(T));
  }
  template <typename T>
  T get(uint32_t addr) const {
    T v;
    std::memcpy(&v, bytes.data() + addr, sizeof(T));
    return v;
  }
};

struct Locks : LockPort {
  std::map<uint32_t, int32_t> value;
  bool try_acquire(const LockRequest& r) override {
    const int32_t v = value[r.id];
    if (r.kind == LockRequest::Kind::AcquireEQ) return v == r.value;
    if (v < r.value) return false;
    value[r.id] = v - r.value;
    return true;
  }
  void release(const LockRequest& r) override { value[r.id] += r.value; }
};

inline AieProgram assemble_ok(const std::string& text) {
  std::vector<tlmcraft::isa::Diagnostic> diags;
  AieProgram p = assemble_core(text, "test.s", 1, diags);
  std::string all;
  for (const auto& d : diags) all += d.format() + "\n";
  EXPECT_TRUE(diags.empty()) << all;
  return p;
}

inline std::vector<tlmcraft::isa::Diagnostic> assemble_errors(const std::string& text) {
  std::vector<tlmcraft::isa::Diagnostic> diags;
  AieProgram p = assemble_core(text, "k.s", 1, diags);
  EXPECT_TRUE(p.bundles.empty());
  EXPECT_FALSE(diags.empty());
  return diags;
}

// Runs until DONE (or a fault / max bundles); returns the number of bundles executed.
inline size_t run(const AieProgram& p, CoreState& s, DataMemoryPort& m, LockPort* locks = nullptr, size_t max = 100000) {
  size_t n = 0;
  while (!s.halted && n < max) {
    BundleResult r = step(s, m, p, locks);
    EXPECT_FALSE(r.fault) << r.fault_message;
    if (r.fault) break;
    ++n;
  }
  return n;
}

inline AieProgram run_text(const std::string& text, CoreState& s, DataMemoryPort& m) {
  AieProgram p = assemble_ok(text);
  run(p, s, m);
  return p;
}

}  // namespace aie_test
