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
#include "platforms/platform.h"

namespace tlmcraft::aie_ml {

// Splits, assembles and parses a whole kernel file. `default_movement` is used when the
// file has no `.movement` section (its diagnostics are reported against `<default movement>`).
bool assemble_kernel(const AieConfig& cfg, const std::string& source, const std::string& file,
                     const std::string& default_movement, AieKernel& out, std::vector<isa::Diagnostic>& diags);

class AiePlatform : public Platform {
 public:
  explicit AiePlatform(AieConfig cfg);
  ~AiePlatform() override;

  std::string name() const override { return "aie_ml"; }
  bool assemble(const std::string& source, const std::string& file_name, isa::Program& out,
                std::vector<isa::Diagnostic>& diags) const override;
  // Elaborates a fresh array (empty memories) and loads the program.
  void load(const isa::Program& program) override;
  // "ddr" (byte offsets); "memC" (memory tile C) and "tile_C_R" (compute tile data memory).
  std::vector<std::string> memories() const override;
  void write_memory(const std::string& memory, uint64_t addr, const std::vector<uint8_t>& bytes) override;
  std::vector<uint8_t> read_memory(const std::string& memory, uint64_t addr, uint64_t len) const override;
  std::vector<MemoryExtents> memory_extents() const override;
  RunResult run(const RunLimits& limits, const TraceOptions& traces) override;
  nlohmann::json config() const override;

  // The data movement used by kernels without a `.movement` section (the task's default).
  void set_default_movement(const std::string& yaml) { default_movement_ = yaml; }
  void set_task_defaults(const std::string& kernel_defaults) override { set_default_movement(kernel_defaults); }
  const AieConfig& aie_config() const { return cfg_; }
  AieArray& array() { return *array_; }

 private:
  void elaborate();

  AieConfig cfg_;
  std::string default_movement_;
  std::unique_ptr<AieKernel> kernel_;
  std::unique_ptr<AieArray> array_;
  bool ran_ = false;
};

}  // namespace tlmcraft::aie_ml
