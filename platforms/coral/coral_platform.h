// Coral NPU behind the generic Platform interface: kernels in RISC-V assembly or C built
// by the real toolchain (toolchain.h), a fresh SystemC platform per loaded program
// (coral_top.h), memories "itcm", "dtcm" and "ext" addressed by byte offset.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "platforms/coral/coral_config.h"
#include "platforms/coral/coral_top.h"
#include "platforms/platform_base.h"

namespace tlmcraft::coral {

class CoralPlatform : public PlatformBase {
 public:
  explicit CoralPlatform(CoralConfig cfg);
  ~CoralPlatform() override;

  // The effective config plus the kernel contract a kernel author must know.
  nlohmann::json config() const override;
  const CoralConfig& coral_config() const { return cfg_; }
  CoralTop& top() { return *top_; }
  // Every later run records per-PC execution counts (CoralTop::executions_by_word).
  void record_executions(bool on) {
    record_executions_ = on;
    top_->record_executions(on);
  }

 protected:
  // Assembly (GNU as) or C (clang-16) by the file name's extension (".c" = C); a C kernel
  // is compiled after the context's task defaults (the layout's #defines: X_ADDR, DIM_N, ...).
  bool build_program(const std::string& source, const std::string& file_name, const KernelContext& context,
                     isa::Program& out, std::vector<isa::Diagnostic>& diags) const override;
  // Elaborates a fresh platform (zeroed memories) and places the program's segments.
  void install_program(const isa::Program& program) override;
  // itcm, dtcm, ext: byte offsets inside the memory (ext offset 0 = core address ext_base).
  MemoryMap memory_map() const override;
  RunResult run_program(const RunLimits& limits, traces::TraceRecorder* recorder) override;

 private:
  void elaborate();

  CoralConfig cfg_;
  std::unique_ptr<CoralTop> top_;
  isa::Program program_;
  bool record_executions_ = false;
};

}  // namespace tlmcraft::coral
