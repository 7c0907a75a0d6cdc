// The AIE-ML tile array behind the generic Platform interface: splits a kernel file into
// per-tile core programs and its data-movement section, assembles each core program with
// the ISA's assembler, elaborates a fresh array per load, runs it, and exposes DDR (and,
// for tests and debugging, every tile memory) by name.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "platforms/aie_ml/aie_array.h"
#include "platforms/aie_ml/aie_config.h"
#include "platforms/platform_base.h"

namespace tlmcraft::aie_ml {

// Splits, assembles and parses a whole kernel file. `default_movement` is used when the
// file has no `.movement` section (its diagnostics are reported against `<default movement>`).
// With `wall_seconds` > 0 (scaled by TLMCRAFT_WALL_CLOCK_SCALE like a run's limit), the
// assembler checks the host clock between phases and tile programs and stops with an
// error naming the limit once it is exceeded.
bool assemble_kernel(const AieConfig& cfg, const std::string& source, const std::string& file,
                     const std::string& default_movement, AieKernel& out, std::vector<isa::Diagnostic>& diags,
                     double wall_seconds = 0);

class AiePlatform : public PlatformBase {
 public:
  explicit AiePlatform(AieConfig cfg);
  ~AiePlatform() override;

  const AieConfig& aie_config() const { return cfg_; }
  AieArray& array() { return *array_; }

 protected:
  // The whole kernel file: per-tile core programs and data movement (the context's task
  // defaults are the `.movement` used when the file has none), carried by the program's
  // extension; out.code holds one entry per bundle (all tiles) for generic static counts.
  bool build_program(const std::string& source, const std::string& file_name, const KernelContext& context,
                     isa::Program& out, std::vector<isa::Diagnostic>& diags) const override;
  // Elaborates a fresh array (empty memories) and installs the assembled kernel.
  void install_program(const isa::Program& program) override;
  // "ddr" (sparse), "memC" (memory tile C), "tile_C_R" (compute tile data memory); bytes.
  MemoryMap memory_map() const override;
  RunResult run_program(const RunLimits& limits, traces::TraceRecorder* recorder) override;

 private:
  void elaborate();

  AieConfig cfg_;
  std::shared_ptr<const AieKernel> kernel_;
  std::unique_ptr<AieArray> array_;
};

}  // namespace tlmcraft::aie_ml
