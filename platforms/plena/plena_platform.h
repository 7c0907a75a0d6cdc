// PLENA behind the generic Platform interface: owns the ISA description, the SystemC
// module tree (one fresh simulation context per loaded program) and the traces.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "isa/isa_spec.h"
#include "platforms/platform_base.h"
#include "platforms/plena/plena_config.h"
#include "platforms/plena/plena_top.h"

namespace tlmcraft::plena {

// Per-PC unit, latency, II and register roles from the ISA YAML and the platform config.
LoadedProgram prepare_program(const isa::IsaSpec& spec, const isa::Program& program, const PlenaConfig& cfg);

class PlenaPlatform : public PlatformBase {
 public:
  // `name`: the name it is registered under (a plugin may register the model as another platform).
  explicit PlenaPlatform(PlenaConfig cfg, std::string name = "plena");
  ~PlenaPlatform() override;

  const PlenaConfig& plena_config() const { return cfg_; }
  const isa::IsaSpec& isa() const { return *spec_; }

 protected:
  bool build_program(const std::string& source, const std::string& file_name, const KernelContext& context,
                     isa::Program& out, std::vector<isa::Diagnostic>& diags) const override;
  void install_program(const isa::Program& program) override;
  // hbm: bytes; msram, vram, fp_mem: bf16 elements (an address counts 2-byte elements, as
  // kernels do); int_mem: u32 words. Lengths are in bytes.
  MemoryMap memory_map() const override;
  RunResult run_program(const RunLimits& limits, traces::TraceRecorder* recorder) override;

 private:
  void elaborate();

  PlenaConfig cfg_;
  std::shared_ptr<const isa::IsaSpec> spec_;
  std::unique_ptr<PlenaTop> top_;
  LoadedProgram loaded_;
};

}  // namespace tlmcraft::plena
