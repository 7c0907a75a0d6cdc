#include "platforms/platform_base.h"

#include "platforms/run_traces.h"

namespace tlmcraft {

PlatformBase::PlatformBase(std::string name, std::string isa, nlohmann::json config, std::string config_name,
                           double clock_ns)
    : name_(std::move(name)), isa_(std::move(isa)), config_(std::move(config)), clock_ns_(clock_ns) {
  config_["name"] = std::move(config_name);
}

bool PlatformBase::assemble(const std::string& source, const std::string& file_name, const KernelContext& context,
                            isa::Program& out, std::vector<isa::Diagnostic>& diags) const {
  return build_program(source, file_name, context, out, diags);
}

void PlatformBase::load(const isa::Program& program) {
  if (program.isa != isa_)
    throw InputError(name_ + ": the program was assembled for ISA '" + program.isa + "', not " + isa_);
  loaded_ = false;  // a load that fails leaves nothing to run
  install_program(program);
  loaded_ = true;
  ran_ = false;
}

std::vector<std::string> PlatformBase::memories() const { return memory_map().names(); }

void PlatformBase::write_memory(const std::string& memory, uint64_t addr, const std::vector<uint8_t>& bytes) {
  memory_map().write(memory, addr, bytes);
}

std::vector<uint8_t> PlatformBase::read_memory(const std::string& memory, uint64_t addr, uint64_t len) const {
  return memory_map().read(memory, addr, len);
}

std::vector<MemoryExtents> PlatformBase::memory_extents() const { return memory_map().extents(); }

RunResult PlatformBase::run(const RunLimits& limits, const TraceOptions& traces) {
  if (!loaded_) throw InputError(name_ + ": run() without a program: load() one first");
  if (ran_) throw InputError(name_ + ": run() twice: load() the program again before another run (memories start empty)");
  ran_ = true;
  const auto rec = make_trace_recorder(traces, clock_ns_);
  RunResult r = run_program(limits, rec.get());
  write_trace_files(rec.get(), traces);
  return r;
}

nlohmann::json PlatformBase::config() const { return config_; }

}  // namespace tlmcraft
