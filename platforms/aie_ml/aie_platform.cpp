#include "platforms/aie_ml/aie_platform.h"

#include <cstring>
#include <sstream>

#include "models/sim_context.h"
#include "platforms/aie_ml/aie_ml_isa_tools.h"
#include "platforms/aie_ml/kernel_file.h"
#include "platforms/run_control.h"

#include "isa/input_limits.h"

namespace tlmcraft::aie_ml {

namespace {

// `tlmcraft asm/isa` find AIE-ML's tools here (this file is linked with every AIE-ML user).
const bool kIsaToolsRegistered = isa::register_isa_tools(aie_ml_isa_tools());

// The wall-clock limit of one assembly: once past it, one error at the line not yet read.
struct AssemblyClock {
  RunLimiter limiter;
  bool expired = false;
  bool out_of_time(const std::string& file, uint32_t line, std::vector<isa::Diagnostic>& diags) {
    if (expired) return true;
    if (limiter.limits().wall_seconds <= 0 || limiter.host_seconds() <= limiter.limits().wall_seconds) return false;
    isa::Diagnostic e;
    e.file = file;
    e.line = std::max<uint32_t>(line, 1);
    e.col = 1;
    e.message = limit_message(StopReason::WallTimeout, limiter.limits(), "assembling, before line " + std::to_string(e.line));
    e.hint = "raise the limit with --timeout, or make the kernel file smaller";
    diags.push_back(e);
    return expired = true;
  }
};

// One phase: its core programs (each within program memory) and its data movement.
bool assemble_phase(const AieConfig& cfg, const PhaseText& text, const std::string& file,
                    const std::string& default_movement, AssemblyClock& clock, AieKernel::Phase& out,
                    std::vector<isa::Diagnostic>& diags) {
  out.name = text.name;
  out.line = text.line;
  KernelParts parts;
  bool ok = split_kernel(text.source, file, cfg.columns, cfg.rows, parts, diags, text.first_line);
  for (const auto& t : parts.tiles) {
    if (isa::diagnostics_full(diags)) return false;
    if (clock.out_of_time(file, t.first_line, diags)) return false;
    std::vector<isa::Diagnostic> d;
    AieKernel::Core core;
    core.column = t.column;
    core.row = t.row;
    core.program = isa::aie_ml::assemble_core(t.text, file, t.first_line, d);
    const bool has_error = std::any_of(d.begin(), d.end(), [](const isa::Diagnostic& x) { return x.severity == isa::Severity::Error; });
    diags.insert(diags.end(), d.begin(), d.end());
    if (has_error) {
      ok = false;
      continue;
    }
    if (core.program.bundles.size() > cfg.max_bundles()) {
      isa::Diagnostic e;
      e.file = file;
      e.line = t.directive_line ? t.directive_line : (core.program.bundles.empty() ? 1 : core.program.bundles.front().line);
      e.col = 1;
      e.message = "the program of " + TileRef{TileKind::Compute, t.column, t.row}.name() + " has " +
                  std::to_string(core.program.bundles.size()) + " bundles; program memory holds " +
                  std::to_string(cfg.max_bundles()) + " (" + std::to_string(cfg.program_memory_bytes) + " bytes, " +
                  std::to_string(cfg.bundle_bytes) + " per bundle)";
      e.hint = "use hardware loops instead of unrolling, split the work over more tiles, or into phases";
      diags.push_back(e);
      ok = false;
      continue;
    }
    // An empty program (only comments) runs nothing: the tile is not a core of this kernel.
    if (!core.program.bundles.empty()) out.cores.push_back(std::move(core));
  }
  if (parts.has_movement) {
    if (!parse_movement(parts.movement, file, parts.movement_first_line, cfg, out.movement, diags)) ok = false;
  } else if (!default_movement.empty()) {
    if (!parse_movement(default_movement, "<default movement>", 1, cfg, out.movement, diags)) ok = false;
  }
  return ok;
}

}  // namespace

bool assemble_kernel(const AieConfig& cfg, const std::string& source, const std::string& file,
                     const std::string& default_movement, AieKernel& out, std::vector<isa::Diagnostic>& diags,
                     double wall_seconds) {
  RunLimits limits;
  limits.wall_seconds = wall_seconds;
  AssemblyClock clock{RunLimiter(limits)};
  out = AieKernel{};
  out.source_lines = kernel_lines(source);
  std::vector<PhaseText> phases;
  bool ok = split_phases(source, file, phases, diags);
  for (const PhaseText& p : phases) {
    if (isa::diagnostics_full(diags)) break;
    if (clock.out_of_time(file, p.first_line, diags)) return false;
    out.phases.emplace_back();
    if (!assemble_phase(cfg, p, file, default_movement, clock, out.phases.back(), diags)) ok = false;
    if (clock.expired) return false;
  }
  // A producer that stopped at the cap: keep the first ones and say there were more.
  if (isa::diagnostics_full(diags)) {
    isa::cap_diagnostics(diags, isa::max_diagnostics(), false);
    return false;
  }
  return ok;
}

AiePlatform::AiePlatform(AieConfig cfg)
    : PlatformBase("aie_ml", "aie_ml", cfg.raw, cfg.name, cfg.clock_ns), cfg_(std::move(cfg)) {
  elaborate();
}

AiePlatform::~AiePlatform() = default;

void AiePlatform::elaborate() {
  array_.reset();
  models::fresh_sim_context();
  array_ = std::make_unique<AieArray>("aie_ml", cfg_);
}

bool AiePlatform::build_program(const std::string& source, const std::string& file_name, const KernelContext& context,
                                isa::Program& out, std::vector<isa::Diagnostic>& diags) const {
  auto k = std::make_shared<AieKernel>();
  if (!assemble_kernel(cfg_, source, file_name, context.task_defaults, *k, diags, context.wall_seconds)) return false;
  k->source_name = file_name;
  out = isa::Program{};
  out.isa = "aie_ml";
  out.source_name = file_name;
  out.source_lines = k->source_lines;
  for (const auto& phase : k->phases)
    for (const auto& core : phase.cores)
      for (const auto& b : core.program.bundles) {
        isa::Instruction in;
        in.line = b.line;
        in.col = 1;
        out.code.push_back(in);
      }
  out.extension = std::move(k);
  return true;
}

void AiePlatform::install_program(const isa::Program& program) {
  auto kernel = std::dynamic_pointer_cast<const AieKernel>(program.extension);
  if (!kernel)
    throw InputError("aie_ml: the program '" + program.source_name +
                     "' has no tile programs: assemble it with the aie_ml platform");
  elaborate();
  kernel_ = std::move(kernel);
  array_->load(*kernel_);
}

MemoryMap AiePlatform::memory_map() const {
  std::vector<MemoryRegion> regions;
  MemoryRegion ddr;
  ddr.name = "ddr";
  ddr.bytes = cfg_.ddr.capacity_bytes;
  ddr.dram = &array_->ddr();
  regions.push_back(ddr);
  const auto dense = [](std::string name, TileMemory& m) {
    MemoryRegion r;
    r.name = std::move(name);
    r.bytes = m.size();
    r.data = m.data();
    return r;
  };
  for (uint32_t c = 0; c < cfg_.columns; ++c) regions.push_back(dense("mem" + std::to_string(c), array_->mem_tile_memory(c)));
  for (uint32_t c = 0; c < cfg_.columns; ++c)
    for (uint32_t r = 0; r < cfg_.rows; ++r)
      regions.push_back(dense("tile_" + std::to_string(c) + "_" + std::to_string(r), array_->compute_memory(c, r)));
  return MemoryMap("aie_ml", std::move(regions));
}

RunResult AiePlatform::run_program(const RunLimits& limits, traces::TraceRecorder* recorder) {
  return array_->run(limits, recorder);
}

}  // namespace tlmcraft::aie_ml
