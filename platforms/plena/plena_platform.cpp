#include "platforms/plena/plena_platform.h"

#include <cstring>
#include <map>
#include <mutex>

#include "isa/assembler.h"
#include "models/sim_context.h"
#include "platforms/plena/plena_isa_tools.h"
#include "platforms/run_traces.h"

namespace tlmcraft::plena {

namespace {

// `tlmcraft asm/isa` find PLENA's tools here (this file is linked with every PLENA user).
const bool kIsaToolsRegistered = isa::register_isa_tools(plena_isa_tools());

// One parsed ISA per YAML path, so a process can run platforms with different ISA
// directories (TLMCRAFT_ISA_DIR set between them, as the fused-instruction test does).
std::shared_ptr<const isa::IsaSpec> plena_isa() {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const isa::IsaSpec>> by_path;
  const std::string path = isa::isa_yaml_path("plena");
  std::lock_guard<std::mutex> lock(mu);
  auto& spec = by_path[path];
  if (!spec) spec = std::make_shared<const isa::IsaSpec>(isa::IsaSpec::load(path));
  return spec;
}

}  // namespace

PlenaPlatform::PlenaPlatform(PlenaConfig cfg) : cfg_(std::move(cfg)), spec_(plena_isa()) { elaborate(); }

PlenaPlatform::~PlenaPlatform() = default;

void PlenaPlatform::elaborate() {
  top_.reset();
  models::fresh_sim_context();
  top_ = std::make_unique<PlenaTop>("plena", cfg_);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // end of elaboration; the controller waits for a run
  ran_ = false;
}

bool PlenaPlatform::assemble(const std::string& source, const std::string& file_name, isa::Program& out,
                             std::vector<isa::Diagnostic>& diags) const {
  return isa::assemble(*spec_, source, file_name, out, diags);
}

void PlenaPlatform::load(const isa::Program& program) {
  if (program.isa != "plena") throw InputError("program was assembled for ISA '" + program.isa + "', not plena");
  loaded_ = prepare_program(*spec_, program, cfg_);
  elaborate();
}

std::vector<std::string> PlenaPlatform::memories() const { return {"hbm", "msram", "vram", "fp_mem", "int_mem"}; }

namespace {

struct MemoryRef {
  uint8_t* data = nullptr;  // on-chip arrays; null for HBM
  uint64_t size = 0;        // bytes
  uint64_t unit = 1;        // bytes per address step
};

MemoryRef on_chip(PlenaTop& top, const std::string& m) {
  if (m == "msram") return {top.msram.data(), top.msram.size(), 2};
  if (m == "vram") return {top.vram.data(), top.vram.size(), 2};
  if (m == "fp_mem") return {top.fp_mem.data(), top.fp_mem.size(), 2};
  if (m == "int_mem") return {top.int_mem.data(), top.int_mem.size(), 4};
  if (m == "hbm") return {nullptr, top.hbm.config().capacity_bytes, 1};
  throw InputError("unknown memory '" + m + "' (hbm, msram, vram, fp_mem, int_mem)");
}

void check(const std::string& m, const MemoryRef& r, uint64_t addr, uint64_t len) {
  const uint64_t first = addr * r.unit;
  if (first > r.size || len > r.size - first)
    throw InputError(m + ": range [" + std::to_string(addr) + ", +" + std::to_string(len) + " bytes) is outside the memory (" +
                     std::to_string(r.size / r.unit) + (r.unit == 1 ? " bytes)" : " elements)"));
}

}  // namespace

void PlenaPlatform::write_memory(const std::string& memory, uint64_t addr, const std::vector<uint8_t>& bytes) {
  const MemoryRef r = on_chip(*top_, memory);
  check(memory, r, addr, bytes.size());
  if (r.data) std::memcpy(r.data + addr * r.unit, bytes.data(), bytes.size());
  else top_->hbm.write_bytes(addr, bytes.data(), bytes.size());
}

std::vector<uint8_t> PlenaPlatform::read_memory(const std::string& memory, uint64_t addr, uint64_t len) const {
  const MemoryRef r = on_chip(*top_, memory);
  check(memory, r, addr, len);
  std::vector<uint8_t> out(len);
  if (r.data) std::memcpy(out.data(), r.data + addr * r.unit, len);
  else top_->hbm.read_bytes(addr, out.data(), len);
  return out;
}

std::vector<MemoryExtents> PlenaPlatform::memory_extents() const {
  std::vector<MemoryExtents> out;
  for (const std::string& m : memories()) {
    const MemoryRef r = on_chip(*top_, m);
    MemoryExtents e{m, r.unit, r.size, {}};
    if (r.data) {
      e.ranges.emplace_back(0, r.size);
    } else {
      const uint64_t page = top_->hbm.config().page_bytes;
      for (uint64_t off : top_->hbm.allocated_page_offsets()) e.ranges.emplace_back(off, std::min(page, r.size - off));
    }
    out.push_back(std::move(e));
  }
  return out;
}

RunResult PlenaPlatform::run(const RunLimits& limits, const TraceOptions& traces) {
  if (ran_) throw InputError("plena: load() the program again before another run (memories start empty)");
  ran_ = true;
  const auto rec = make_trace_recorder(traces, cfg_.clock_ns);
  RunResult r = top_->run(loaded_, limits, rec.get());
  write_trace_files(rec.get(), traces);
  return r;
}

nlohmann::json PlenaPlatform::config() const {
  nlohmann::json j = cfg_.raw;
  j["name"] = cfg_.name;
  return j;
}

}  // namespace tlmcraft::plena
