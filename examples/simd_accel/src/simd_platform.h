// simd_accel on tlmcraft's platform base (platforms/platform_base.h), which owns the life
// cycle, the checked memory accesses, traces and the effective config: this class only
// assembles with the YAML-driven assembler, elaborates a fresh model per program (a fresh
// SystemC context), declares memories "dram" and "spad" (byte addresses) and runs.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "isa/isa_spec.h"
#include "platforms/platform_base.h"
#include "program_info.h"
#include "simd_config.h"
#include "simd_top.h"

namespace simd_accel {

// The simd ISA description: $TLMCRAFT_ISA_DIR's simd/simd.yaml when it has one (a fused
// instruction added by YAML alone), else isa/simd/simd.yaml in the platform's data folder.
std::string isa_path();
std::shared_ptr<const tlmcraft::isa::IsaSpec> load_isa();

class SimdPlatform : public tlmcraft::PlatformBase {
 public:
  explicit SimdPlatform(SimdConfig cfg);
  ~SimdPlatform() override;

 protected:
  // The simd ISA needs nothing from a task: the context is not used.
  bool build_program(const std::string& source, const std::string& file_name, const tlmcraft::KernelContext& context,
                     tlmcraft::isa::Program& out, std::vector<tlmcraft::isa::Diagnostic>& diags) const override;
  void install_program(const tlmcraft::isa::Program& program) override;
  tlmcraft::MemoryMap memory_map() const override;
  tlmcraft::RunResult run_program(const tlmcraft::RunLimits& limits, tlmcraft::traces::TraceRecorder* recorder) override;

 private:
  void elaborate();

  SimdConfig cfg_;
  std::shared_ptr<const tlmcraft::isa::IsaSpec> spec_;
  std::unique_ptr<SimdTop> top_;
  sc_core::sc_simcontext* context_ = nullptr;  // the context top_ was elaborated in
  LoadedProgram loaded_;
};

}  // namespace simd_accel
