// simd_accel behind tlmcraft's Platform interface: assemble with the YAML-driven
// assembler, load (a fresh SystemC context per program), memories "dram" and "spad"
// (byte addresses), run with limits, effective config.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "isa/isa_spec.h"
#include "platforms/platform.h"
#include "program_info.h"
#include "simd_config.h"
#include "simd_top.h"

namespace simd_accel {

constexpr const char* kPlatformName = "simd_accel";

// The folder of the plugin's own ISA descriptions: isa/ in its data folder
// (PlatformInfo::isa_dir and table_isa_tools' home_dir).
std::string isa_dir();
// The simd ISA description: $TLMCRAFT_ISA_DIR's simd/simd.yaml when it has one (a fused
// instruction added by YAML alone), else isa_dir()'s simd/simd.yaml (isa::isa_yaml_path).
std::string isa_path();
std::shared_ptr<const tlmcraft::isa::IsaSpec> load_isa();

class SimdPlatform : public tlmcraft::Platform {
 public:
  explicit SimdPlatform(SimdConfig cfg);
  ~SimdPlatform() override;

  std::string name() const override { return kPlatformName; }
  using tlmcraft::Platform::assemble;  // the overload without a task context
  // The simd ISA needs nothing from a task: the context is not used.
  bool assemble(const std::string& source, const std::string& file_name, const tlmcraft::KernelContext& context,
                tlmcraft::isa::Program& out, std::vector<tlmcraft::isa::Diagnostic>& diags) const override;
  void load(const tlmcraft::isa::Program& program) override;
  std::vector<std::string> memories() const override { return {"dram", "spad"}; }
  void write_memory(const std::string& memory, uint64_t addr, const std::vector<uint8_t>& bytes) override;
  std::vector<uint8_t> read_memory(const std::string& memory, uint64_t addr, uint64_t len) const override;
  std::vector<tlmcraft::MemoryExtents> memory_extents() const override;
  tlmcraft::RunResult run(const tlmcraft::RunLimits& limits, const tlmcraft::TraceOptions& traces) override;
  nlohmann::json config() const override;

 private:
  void elaborate();
  uint64_t memory_size(const std::string& memory) const;  // throws InputError for an unknown name

  SimdConfig cfg_;
  std::shared_ptr<const tlmcraft::isa::IsaSpec> spec_;
  std::unique_ptr<SimdTop> top_;
  sc_core::sc_simcontext* context_ = nullptr;  // the context top_ was elaborated in
  LoadedProgram loaded_;
  bool loaded_once_ = false, ran_ = false;
};

}  // namespace simd_accel
