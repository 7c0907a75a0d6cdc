#include "simd_platform.h"

#include <cstring>
#include <map>
#include <mutex>

#include "isa/assembler.h"
#include "models/sim_context.h"

namespace simd_accel {

using tlmcraft::InputError;

std::string isa_dir() { return data_dir() + "/isa"; }

std::string isa_path() { return tlmcraft::isa::isa_yaml_path("simd", isa_dir()); }

// One parsed ISA per path, so a process may switch TLMCRAFT_ISA_DIR between platforms.
std::shared_ptr<const tlmcraft::isa::IsaSpec> load_isa() {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const tlmcraft::isa::IsaSpec>> by_path;
  const std::string path = isa_path();
  std::lock_guard<std::mutex> lock(mu);
  auto& spec = by_path[path];
  if (!spec) {
    try {
      spec = std::make_shared<const tlmcraft::isa::IsaSpec>(tlmcraft::isa::IsaSpec::load(path));
    } catch (const tlmcraft::isa::IsaSpecError& e) {
      throw InputError(e.what());
    }
  }
  return spec;
}

SimdPlatform::SimdPlatform(SimdConfig cfg) : cfg_(std::move(cfg)), spec_(load_isa()) {
  TimingModel check(*spec_, cfg_);  // every latency class has cycles
  elaborate();
}

SimdPlatform::~SimdPlatform() = default;

void SimdPlatform::elaborate() {
  top_.reset();
  tlmcraft::models::fresh_sim_context();
  top_ = std::make_unique<SimdTop>("simd_accel", cfg_);
  context_ = sc_core::sc_get_curr_simcontext();
  ran_ = false;
}

bool SimdPlatform::assemble(const std::string& source, const std::string& file_name, const tlmcraft::KernelContext&,
                            tlmcraft::isa::Program& out, std::vector<tlmcraft::isa::Diagnostic>& diags) const {
  return tlmcraft::isa::assemble(*spec_, source, file_name, out, diags);
}

void SimdPlatform::load(const tlmcraft::isa::Program& program) {
  loaded_ = prepare_program(spec_, program, TimingModel(*spec_, cfg_));
  loaded_once_ = true;
  elaborate();
}

uint64_t SimdPlatform::memory_size(const std::string& memory) const {
  if (memory == "dram") return cfg_.dram.size_bytes;
  if (memory == "spad") return cfg_.spad_bytes;
  throw InputError("simd_accel: unknown memory '" + memory + "' (dram, spad)");
}

namespace {

void check_range(const std::string& memory, uint64_t size, uint64_t addr, uint64_t len) {
  if (addr > size || len > size - addr)
    throw InputError("simd_accel: " + memory + " bytes [" + std::to_string(addr) + ", +" + std::to_string(len) +
                     ") are outside the memory (" + std::to_string(size) + " bytes)");
}

}  // namespace

void SimdPlatform::write_memory(const std::string& memory, uint64_t addr, const std::vector<uint8_t>& bytes) {
  check_range(memory, memory_size(memory), addr, bytes.size());
  if (memory == "spad") std::memcpy(top_->spad.data() + addr, bytes.data(), bytes.size());
  else top_->dram.write_bytes(addr, bytes.data(), bytes.size());
}

std::vector<uint8_t> SimdPlatform::read_memory(const std::string& memory, uint64_t addr, uint64_t len) const {
  check_range(memory, memory_size(memory), addr, len);
  std::vector<uint8_t> out(len);
  if (memory == "spad") std::memcpy(out.data(), top_->spad.data() + addr, len);
  else top_->dram.read_bytes(addr, out.data(), len);
  return out;
}

std::vector<tlmcraft::MemoryExtents> SimdPlatform::memory_extents() const {
  tlmcraft::MemoryExtents dram{"dram", 1, cfg_.dram.size_bytes, {}};
  const uint64_t page = top_->dram.config().page_bytes;
  for (uint64_t off : top_->dram.allocated_page_offsets())
    dram.ranges.emplace_back(off, std::min(page, cfg_.dram.size_bytes - off));
  tlmcraft::MemoryExtents spad{"spad", 1, cfg_.spad_bytes, {{0, cfg_.spad_bytes}}};
  return {dram, spad};
}

tlmcraft::RunResult SimdPlatform::run(const tlmcraft::RunLimits& limits, const tlmcraft::TraceOptions& traces) {
  if (!loaded_once_) throw InputError("simd_accel: run() before load(): load a program first");
  if (ran_) throw InputError("simd_accel: load() the program again before another run (memories start empty)");
  if (!traces.vcd_path.empty() || !traces.perfetto_path.empty())
    throw InputError("simd_accel: VCD and Perfetto traces are not implemented for this example platform");
  ran_ = true;
  top_->core.prepare(&loaded_, limits);
  // Another platform loaded since made its own context current: run in ours.
  sc_core::sc_curr_simcontext = context_;
  sc_core::sc_default_global_context = context_;
  sc_core::sc_start();
  return top_->core.result();
}

nlohmann::json SimdPlatform::config() const {
  nlohmann::json j = cfg_.raw;
  j["name"] = cfg_.name;
  j["lanes"] = kLanes;
  j["spad_bytes"] = cfg_.spad_bytes;  // resolved (the file may write 512KiB)
  return j;
}

}  // namespace simd_accel
