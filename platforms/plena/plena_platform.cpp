#include "platforms/plena/plena_platform.h"

#include <cstring>
#include <map>
#include <mutex>

#include "isa/assembler.h"
#include "isa/isa_variant.h"
#include "models/sim_context.h"
#include "platforms/plena/plena_isa_tools.h"

namespace tlmcraft::plena {

namespace {

// `tlmcraft asm/isa` find PLENA's tools here (this file is linked with every PLENA user).
const bool kIsaToolsRegistered = isa::register_isa_tools(plena_isa_tools());

// The ISA of the variant in force (isa/isa_variant.h: --isa-dir, --isa-ext), parsed once
// per distinct description, so a process can run platforms of different variants.
std::shared_ptr<const isa::IsaSpec> plena_isa() { return isa::cached_isa_spec("plena"); }

}  // namespace

PlenaPlatform::PlenaPlatform(PlenaConfig cfg, std::string name)
    : PlatformBase(std::move(name), "plena", cfg.raw, cfg.name, cfg.clock_ns), cfg_(std::move(cfg)), spec_(plena_isa()) {
  elaborate();
}

PlenaPlatform::~PlenaPlatform() = default;

void PlenaPlatform::elaborate() {
  top_.reset();
  models::fresh_sim_context();
  top_ = std::make_unique<PlenaTop>("plena", cfg_);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // end of elaboration; the controller waits for a run
}

bool PlenaPlatform::build_program(const std::string& source, const std::string& file_name, const KernelContext&,
                                  isa::Program& out, std::vector<isa::Diagnostic>& diags) const {
  return isa::assemble(*spec_, source, file_name, out, diags);
}

void PlenaPlatform::install_program(const isa::Program& program) {
  loaded_ = prepare_program(*spec_, program, cfg_);
  elaborate();
}

MemoryMap PlenaPlatform::memory_map() const {
  PlenaTop& t = *top_;
  const auto dense = [](const char* name, models::Scratchpad& s, uint64_t unit, const char* unit_name) {
    MemoryRegion r;
    r.name = name;
    r.bytes = s.size();
    r.unit = unit;
    r.unit_name = unit_name;
    r.data = s.data();
    return r;
  };
  MemoryRegion hbm;
  hbm.name = "hbm";
  hbm.bytes = t.hbm.config().capacity_bytes;
  hbm.dram = &t.hbm;
  return MemoryMap("plena", {hbm, dense("msram", t.msram, 2, "bf16 element"), dense("vram", t.vram, 2, "bf16 element"),
                             dense("fp_mem", t.fp_mem, 2, "bf16 element"), dense("int_mem", t.int_mem, 4, "u32 word")});
}

RunResult PlenaPlatform::run_program(const RunLimits& limits, traces::TraceRecorder* recorder) {
  return top_->run(loaded_, limits, recorder);
}

}  // namespace tlmcraft::plena
