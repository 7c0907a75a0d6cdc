#include "platforms/aie_ml/aie_platform.h"

#include <cstring>
#include <sstream>

#include "models/sim_context.h"
#include "platforms/aie_ml/aie_ml_isa_tools.h"
#include "platforms/aie_ml/kernel_file.h"
#include "platforms/run_traces.h"

#include "isa/input_limits.h"

namespace tlmcraft::aie_ml {

namespace {

// `tlmcraft asm/isa` find AIE-ML's tools here (this file is linked with every AIE-ML user).
const bool kIsaToolsRegistered = isa::register_isa_tools(aie_ml_isa_tools());

// One phase: its core programs (each within program memory) and its data movement.
bool assemble_phase(const AieConfig& cfg, const PhaseText& text, const std::string& file,
                    const std::string& default_movement, AieKernel::Phase& out, std::vector<isa::Diagnostic>& diags) {
  out.name = text.name;
  out.line = text.line;
  KernelParts parts;
  bool ok = split_kernel(text.source, file, cfg.columns, cfg.rows, parts, diags);
  for (const auto& t : parts.tiles) {
    if (isa::diagnostics_full(diags)) return false;
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
                     const std::string& default_movement, AieKernel& out, std::vector<isa::Diagnostic>& diags) {
  out = AieKernel{};
  out.source_lines = kernel_lines(source);
  std::vector<PhaseText> phases;
  bool ok = split_phases(source, file, phases, diags);
  for (const PhaseText& p : phases) {
    if (isa::diagnostics_full(diags)) break;
    out.phases.emplace_back();
    if (!assemble_phase(cfg, p, file, default_movement, out.phases.back(), diags)) ok = false;
  }
  // A producer that stopped at the cap: keep the first ones and say there were more.
  if (isa::diagnostics_full(diags)) {
    isa::cap_diagnostics(diags, isa::max_diagnostics(), false);
    return false;
  }
  return ok;
}

AiePlatform::AiePlatform(AieConfig cfg) : cfg_(std::move(cfg)) { elaborate(); }

AiePlatform::~AiePlatform() = default;

void AiePlatform::elaborate() {
  array_.reset();
  models::fresh_sim_context();
  array_ = std::make_unique<AieArray>("aie_ml", cfg_);
  ran_ = false;
}

bool AiePlatform::assemble(const std::string& source, const std::string& file_name, isa::Program& out,
                           std::vector<isa::Diagnostic>& diags) const {
  AieKernel k;
  if (!assemble_kernel(cfg_, source, file_name, default_movement_, k, diags)) return false;
  out = isa::Program{};
  out.isa = "aie_ml";
  out.source_name = file_name;
  out.source_lines = k.source_lines;
  // One entry per bundle (all tiles) so generic tools count static instructions; the
  // bundles themselves are rebuilt from the source in load().
  for (const auto& phase : k.phases)
    for (const auto& core : phase.cores)
      for (const auto& b : core.program.bundles) {
        isa::Instruction in;
        in.line = b.line;
        in.col = 1;
        out.code.push_back(in);
      }
  return true;
}

void AiePlatform::load(const isa::Program& program) {
  if (program.isa != "aie_ml") throw InputError("program was assembled for ISA '" + program.isa + "', not aie_ml");
  // The Program carries the source; the per-tile programs are rebuilt here (assembly is
  // deterministic and cheap), so the generic Program needs no AIE-specific fields.
  std::string source;
  for (const auto& l : program.source_lines) source += l + "\n";
  auto k = std::make_unique<AieKernel>();
  std::vector<isa::Diagnostic> diags;
  if (!assemble_kernel(cfg_, source, program.source_name, default_movement_, *k, diags)) {
    std::string msg = "aie_ml: the program does not assemble";
    if (!diags.empty()) msg += ": " + diags.front().format();
    throw InputError(msg);
  }
  elaborate();
  kernel_ = std::move(k);
  array_->load(*kernel_);
}

std::vector<std::string> AiePlatform::memories() const {
  std::vector<std::string> m{"ddr"};
  for (uint32_t c = 0; c < cfg_.columns; ++c) m.push_back("mem" + std::to_string(c));
  for (uint32_t c = 0; c < cfg_.columns; ++c)
    for (uint32_t r = 0; r < cfg_.rows; ++r) m.push_back("tile_" + std::to_string(c) + "_" + std::to_string(r));
  return m;
}

namespace {

// Resolves a memory name to on-chip bytes (null for DDR) and its size.
uint8_t* on_chip(AieArray& a, const AieConfig& cfg, const std::string& m, uint64_t& size) {
  if (m == "ddr") {
    size = cfg.ddr.capacity_bytes;
    return nullptr;
  }
  unsigned c = 0, r = 0;
  char extra = 0;
  if (std::sscanf(m.c_str(), "mem%u%c", &c, &extra) == 1 && c < cfg.columns) {
    size = a.mem_tile_memory(c).size();
    return a.mem_tile_memory(c).data();
  }
  if (std::sscanf(m.c_str(), "tile_%u_%u%c", &c, &r, &extra) == 2 && c < cfg.columns && r < cfg.rows) {
    size = a.compute_memory(c, r).size();
    return a.compute_memory(c, r).data();
  }
  throw InputError("unknown memory '" + m + "' (ddr, memC, tile_C_R)");
}

void check(const std::string& m, uint64_t size, uint64_t addr, uint64_t len) {
  if (addr > size || len > size - addr)
    throw InputError(m + ": range [" + std::to_string(addr) + ", +" + std::to_string(len) +
                     " bytes) is outside the memory (" + std::to_string(size) + " bytes)");
}

}  // namespace

void AiePlatform::write_memory(const std::string& memory, uint64_t addr, const std::vector<uint8_t>& bytes) {
  uint64_t size = 0;
  uint8_t* p = on_chip(*array_, cfg_, memory, size);
  check(memory, size, addr, bytes.size());
  if (p) std::memcpy(p + addr, bytes.data(), bytes.size());
  else if (!bytes.empty()) array_->ddr().write_bytes(addr, bytes.data(), bytes.size());
}

std::vector<uint8_t> AiePlatform::read_memory(const std::string& memory, uint64_t addr, uint64_t len) const {
  uint64_t size = 0;
  uint8_t* p = on_chip(*array_, cfg_, memory, size);
  check(memory, size, addr, len);
  std::vector<uint8_t> out(len);
  if (p) std::memcpy(out.data(), p + addr, len);
  else if (len) array_->ddr().read_bytes(addr, out.data(), len);
  return out;
}

std::vector<MemoryExtents> AiePlatform::memory_extents() const {
  std::vector<MemoryExtents> out;
  for (const std::string& m : memories()) {
    uint64_t size = 0;
    const uint8_t* p = on_chip(*array_, cfg_, m, size);
    MemoryExtents e{m, 1, size, {}};
    if (p) {
      e.ranges.emplace_back(0, size);
    } else {
      const uint64_t page = array_->ddr().config().page_bytes;
      for (uint64_t off : array_->ddr().allocated_page_offsets()) e.ranges.emplace_back(off, std::min(page, size - off));
    }
    out.push_back(std::move(e));
  }
  return out;
}

RunResult AiePlatform::run(const RunLimits& limits, const TraceOptions& traces) {
  if (!kernel_) throw InputError("aie_ml: load() a program before run()");
  if (ran_) throw InputError("aie_ml: load() the program again before another run (memories start empty)");
  ran_ = true;
  const auto rec = make_trace_recorder(traces, cfg_.clock_ns);
  RunResult r = array_->run(limits, rec.get());
  write_trace_files(rec.get(), traces);
  return r;
}

nlohmann::json AiePlatform::config() const {
  nlohmann::json j = cfg_.raw;
  j["name"] = cfg_.name;
  return j;
}

}  // namespace tlmcraft::aie_ml
