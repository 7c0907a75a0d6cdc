// Coral NPU behind the generic Platform interface: kernels in RISC-V assembly or C built
// by the real toolchain (toolchain.h), a fresh SystemC platform per loaded program
// (coral_top.h), memories "itcm", "dtcm" and "ext" addressed by byte offset.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "platforms/coral/coral_config.h"
#include "platforms/coral/coral_top.h"
#include "platforms/platform.h"

namespace tlmcraft::coral {

class CoralPlatform : public Platform {
 public:
  explicit CoralPlatform(CoralConfig cfg);
  ~CoralPlatform() override;

  std::string name() const override { return "coral"; }
  // Assembly (GNU as) or C (clang-16) by the file name's extension (".c" = C).
  bool assemble(const std::string& source, const std::string& file_name, isa::Program& out,
                std::vector<isa::Diagnostic>& diags) const override;
  // Elaborates a fresh platform (zeroed memories) and loads the program's segments.
  void load(const isa::Program& program) override;
  std::vector<std::string> memories() const override { return {"itcm", "dtcm", "ext"}; }
  // Addresses are byte offsets inside the memory (ext offset 0 = address 0x20000000).
  void write_memory(const std::string& memory, uint64_t addr, const std::vector<uint8_t>& bytes) override;
  std::vector<uint8_t> read_memory(const std::string& memory, uint64_t addr, uint64_t len) const override;
  std::vector<MemoryExtents> memory_extents() const override;
  RunResult run(const RunLimits& limits, const TraceOptions& traces) override;
  nlohmann::json config() const override;
  // C kernels are compiled after these lines (the task layout's #defines: X_ADDR, DIM_N, ...).
  void set_task_defaults(const std::string& c_defines) override { c_prelude_ = c_defines; }

  const CoralConfig& coral_config() const { return cfg_; }
  CoralTop& top() { return *top_; }

 private:
  void elaborate();

  CoralConfig cfg_;
  std::string c_prelude_;
  std::unique_ptr<CoralTop> top_;
  isa::Program program_;
  bool loaded_ = false, ran_ = false;
};

}  // namespace tlmcraft::coral
