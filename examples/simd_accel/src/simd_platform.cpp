#include "simd_platform.h"

#include <map>
#include <mutex>

#include "isa/assembler.h"
#include "isa/isa_variant.h"
#include "models/sim_context.h"

namespace simd_accel {

using tlmcraft::InputError;

std::string isa_dir() { return data_dir() + "/isa"; }

std::string isa_path() { return tlmcraft::isa::isa_yaml_path("simd", isa_dir()); }

// The ISA of the variant in force (--isa-dir, --isa-ext; tlmcraft's isa/isa_variant.h),
// parsed once per distinct description.
std::shared_ptr<const tlmcraft::isa::IsaSpec> load_isa() {
  try {
    return tlmcraft::isa::cached_isa_spec("simd", isa_dir());
  } catch (const tlmcraft::isa::IsaSpecError& e) {
    throw InputError(e.what());
  }
}

namespace {

// The effective config as reported: the file's tree plus the figures the model derives.
nlohmann::json reported_config(const SimdConfig& cfg) {
  nlohmann::json j = cfg.raw;
  j["lanes"] = kLanes;
  j["spad_bytes"] = cfg.spad_bytes;  // resolved (the file may write 512KiB)
  return j;
}

}  // namespace

SimdPlatform::SimdPlatform(SimdConfig cfg)
    : PlatformBase(kPlatformName, "simd", reported_config(cfg), cfg.name, double(cfg.clock_ns)),
      cfg_(std::move(cfg)),
      spec_(load_isa()) {
  TimingModel check(*spec_, cfg_);  // every latency class has cycles
  elaborate();
}

SimdPlatform::~SimdPlatform() = default;

void SimdPlatform::elaborate() {
  top_.reset();
  tlmcraft::models::fresh_sim_context();
  top_ = std::make_unique<SimdTop>("simd_accel", cfg_);
  context_ = sc_core::sc_get_curr_simcontext();
}

bool SimdPlatform::build_program(const std::string& source, const std::string& file_name, const tlmcraft::KernelContext&,
                                 tlmcraft::isa::Program& out, std::vector<tlmcraft::isa::Diagnostic>& diags) const {
  return tlmcraft::isa::assemble(*spec_, source, file_name, out, diags);
}

void SimdPlatform::install_program(const tlmcraft::isa::Program& program) {
  loaded_ = prepare_program(spec_, program, TimingModel(*spec_, cfg_));
  elaborate();
}

tlmcraft::MemoryMap SimdPlatform::memory_map() const {
  tlmcraft::MemoryRegion dram{"dram", cfg_.dram.size_bytes, 1, "byte", true, true, nullptr, &top_->dram};
  tlmcraft::MemoryRegion spad{"spad", cfg_.spad_bytes, 1, "byte", true, true, top_->spad.data(), nullptr};
  return tlmcraft::MemoryMap(kPlatformName, {dram, spad});
}

tlmcraft::RunResult SimdPlatform::run_program(const tlmcraft::RunLimits& limits, tlmcraft::traces::TraceRecorder* recorder) {
  top_->core.prepare(&loaded_, limits, recorder);
  // Another platform loaded since made its own context current: run in ours.
  sc_core::sc_curr_simcontext = context_;
  sc_core::sc_default_global_context = context_;
  sc_core::sc_start();
  return top_->core.result();
}

}  // namespace simd_accel
