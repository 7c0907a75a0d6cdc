// The base every platform derives from: it owns what all platforms repeat, so each one
// keeps only its own model and timing.
//  - life cycle: load() checks the ISA and installs the program on a fresh model; run()
//    refuses a platform with nothing loaded or already run, with the same words everywhere;
//  - the memory map (memory_map.h): memories(), memory_extents() and checked accesses;
//  - traces: the recorder a run() asks for and the files written after it;
//  - the effective config (config()).
// A platform implements the protected hooks below (docs/architecture.md, "Platform base").
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platforms/memory_map.h"
#include "platforms/platform.h"
#include "traces/trace_recorder.h"

namespace tlmcraft {

class PlatformBase : public Platform {
 public:
  // `name`: the platform's registry name; `isa`: the ISA load() accepts programs of;
  // `config`: the effective config tree (JSON), reported with "name": `config_name`.
  PlatformBase(std::string name, std::string isa, nlohmann::json config, std::string config_name, double clock_ns);

  std::string name() const final { return name_; }
  using Platform::assemble;
  bool assemble(const std::string& source, const std::string& file_name, const KernelContext& context,
                isa::Program& out, std::vector<isa::Diagnostic>& diags) const final;
  void load(const isa::Program& program) final;
  std::vector<std::string> memories() const final;
  void write_memory(const std::string& memory, uint64_t addr, const std::vector<uint8_t>& bytes) final;
  std::vector<uint8_t> read_memory(const std::string& memory, uint64_t addr, uint64_t len) const final;
  std::vector<MemoryExtents> memory_extents() const final;
  RunResult run(const RunLimits& limits, const TraceOptions& traces) final;
  nlohmann::json config() const override;

  bool loaded() const { return loaded_; }

 protected:
  // The platform's assembler (or toolchain) for one kernel file.
  virtual bool build_program(const std::string& source, const std::string& file_name, const KernelContext& context,
                             isa::Program& out, std::vector<isa::Diagnostic>& diags) const = 0;
  // Elaborates a fresh model (empty memories) and installs the program (ISA already checked).
  virtual void install_program(const isa::Program& program) = 0;
  // The named memories of the current model, in the order memories() lists them.
  virtual MemoryMap memory_map() const = 0;
  // Runs the installed program once; `recorder` is null when no trace was asked for.
  virtual RunResult run_program(const RunLimits& limits, traces::TraceRecorder* recorder) = 0;

 private:
  std::string name_, isa_;
  nlohmann::json config_;
  double clock_ns_;
  bool loaded_ = false, ran_ = false;
};

}  // namespace tlmcraft
