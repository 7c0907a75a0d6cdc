// PLENA behind the generic Platform interface: owns the ISA description, the SystemC
// module tree (one fresh simulation context per loaded program) and the traces.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "isa/isa_spec.h"
#include "platforms/platform.h"
#include "platforms/plena/plena_config.h"
#include "platforms/plena/plena_top.h"

namespace tlmcraft::plena {

// Per-PC unit, latency, II and register roles from the ISA YAML and the platform config.
LoadedProgram prepare_program(const isa::IsaSpec& spec, const isa::Program& program, const PlenaConfig& cfg);

class PlenaPlatform : public Platform {
 public:
  explicit PlenaPlatform(PlenaConfig cfg);
  ~PlenaPlatform() override;

  std::string name() const override { return "plena"; }
  bool assemble(const std::string& source, const std::string& file_name, isa::Program& out,
                std::vector<isa::Diagnostic>& diags) const override;
  // Elaborates a fresh platform (empty memories) and loads the program.
  void load(const isa::Program& program) override;
  std::vector<std::string> memories() const override;
  // hbm: bytes; msram, vram, fp_mem: bf16 elements (2 bytes each, addr counts elements);
  // int_mem: u32 words (addr counts words). Lengths are in bytes.
  void write_memory(const std::string& memory, uint64_t addr, const std::vector<uint8_t>& bytes) override;
  std::vector<uint8_t> read_memory(const std::string& memory, uint64_t addr, uint64_t len) const override;
  std::vector<MemoryExtents> memory_extents() const override;
  RunResult run(const RunLimits& limits, const TraceOptions& traces) override;
  nlohmann::json config() const override;

  const PlenaConfig& plena_config() const { return cfg_; }
  const isa::IsaSpec& isa() const { return *spec_; }

 private:
  void elaborate();

  PlenaConfig cfg_;
  std::shared_ptr<const isa::IsaSpec> spec_;
  std::unique_ptr<PlenaTop> top_;
  LoadedProgram loaded_;
  bool ran_ = false;
};

}  // namespace tlmcraft::plena
