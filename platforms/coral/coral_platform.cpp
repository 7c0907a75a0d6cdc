#include "platforms/coral/coral_platform.h"

#include <cstdio>
#include <cstring>

#include "models/sim_context.h"
#include "platforms/coral/riscv_isa_tools.h"
#include "platforms/coral/toolchain.h"

namespace tlmcraft::coral {

CoralPlatform::CoralPlatform(CoralConfig cfg)
    : PlatformBase("coral", "riscv", cfg.raw, cfg.name, cfg.clock_ns), cfg_(std::move(cfg)) {
  elaborate();
}

CoralPlatform::~CoralPlatform() = default;

void CoralPlatform::elaborate() {
  top_.reset();
  models::fresh_sim_context();
  top_ = std::make_unique<CoralTop>("coral", cfg_);
  top_->record_executions(record_executions_);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // end of elaboration; the core waits for a run
}

bool CoralPlatform::build_program(const std::string& source, const std::string& file_name, const KernelContext& context,
                                  isa::Program& out, std::vector<isa::Diagnostic>& diags) const {
  ToolchainOptions options;
  options.c_prelude = context.task_defaults;
  options.custom = cfg_.custom;
  return build_kernel(source, file_name.empty() ? "kernel.s" : file_name, out, diags, options);
}

namespace {

// `tlmcraft asm/isa` find RISC-V's tools here (this file is linked with every Coral user).
const bool kIsaToolsRegistered = isa::register_isa_tools(riscv_isa_tools());

struct MemoryRef {
  uint8_t* data;
  uint64_t size;
  uint64_t base;  // core address of offset 0
};

MemoryRef memory_ref(CoralTop& top, const CoralConfig& cfg, const std::string& m) {
  if (m == "itcm") return {top.itcm.data(), cfg.itcm_bytes, kItcmBase};
  if (m == "dtcm") return {top.dtcm.data(), cfg.dtcm_bytes, kDtcmBase};
  if (m == "ext") return {top.ext.data(), cfg.ext_bytes, cfg.ext_base};
  throw InputError("coral: unknown memory '" + m + "' (itcm, dtcm, ext)");
}

}  // namespace

void CoralPlatform::install_program(const isa::Program& program) {
  elaborate();
  // Place every loadable segment; each must lie inside one memory.
  for (const auto& s : program.segments) {
    bool placed = false;
    for (const char* m : {"itcm", "dtcm", "ext"}) {
      const MemoryRef r = memory_ref(*top_, cfg_, m);
      if (s.address < r.base || s.address - r.base > r.size || s.mem_size > r.size - (s.address - r.base)) continue;
      // A segment with no file bytes (.bss) has no data() to copy from (memcpy from null is UB).
      if (!s.bytes.empty()) std::memcpy(r.data + (s.address - r.base), s.bytes.data(), s.bytes.size());
      std::memset(r.data + (s.address - r.base) + s.bytes.size(), 0, s.mem_size - s.bytes.size());
      placed = true;
      break;
    }
    if (!placed)
      throw InputError("coral: program segment at 0x" + [&] {
        char b[16];
        std::snprintf(b, sizeof b, "%08llx", static_cast<unsigned long long>(s.address));
        return std::string(b);
      }() + " (" + std::to_string(s.mem_size) + " bytes) lies outside ITCM, DTCM and external memory");
  }
  program_ = program;
}

MemoryMap CoralPlatform::memory_map() const {
  std::vector<MemoryRegion> regions;
  for (const char* m : {"itcm", "dtcm", "ext"}) {
    const MemoryRef r = memory_ref(*top_, cfg_, m);
    MemoryRegion region;
    region.name = m;
    region.bytes = r.size;
    region.data = r.data;
    regions.push_back(region);
  }
  return MemoryMap("coral", std::move(regions));
}

RunResult CoralPlatform::run_program(const RunLimits& limits, traces::TraceRecorder* recorder) {
  return top_->run(program_, limits, recorder);
}

nlohmann::json CoralPlatform::config() const {
  nlohmann::json j = PlatformBase::config();
  // What a kernel author (human or agent) must know, next to the numbers.
  j["kernel_contract"] = nlohmann::json::array({
      "A kernel is RISC-V assembly (GNU as syntax, rv32imf_zve32x, ilp32) or C (file name ending in .c, "
      "clang-16 -O2 with RVV intrinsics from <riscv_vector.h>, __riscv_ prefix; no C library).",
      "It defines a global function `main` (ilp32 ABI). crt0 sets sp to the top of DTCM, calls main, then "
      "executes mpause (the halt instruction, 0x08000073); a kernel may also end with its own `mpause`.",
      "Memory map: ITCM 0x00000000 (" + std::to_string(cfg_.itcm_bytes / 1024) + " KB, code, read-only while "
      "running); DTCM 0x00010000 (" + std::to_string(cfg_.dtcm_bytes / 1024) + " KB: .data/.rodata/.bss and a 1 KB "
      "stack at its top); external memory 0x" + [&] {
        char b[16];
        std::snprintf(b, sizeof b, "%08x", cfg_.ext_base);
        return std::string(b);
      }() + " (" + std::to_string(cfg_.ext_bytes >> 20) + " MB, task tensors, behind the AXI port).",
      "Vectors: VLEN 128 bits, ELEN 32 (Zve32x, integer only), LMUL m1..m8, SEW e8/e16/e32.",
      "Faults end the run: misaligned or unmapped accesses, stores to ITCM, ebreak, ecall, illegal instructions.",
      "Cycle counter: csrr rd, mcycle (waits for older work); there is no cycle/time CSR."});
  if (cfg_.custom && !cfg_.custom->empty()) {  // the variant's custom instructions (ISA overlays)
    for (const auto& in : cfg_.custom->instructions()) {
      std::string ops;
      for (const auto& o : in.operands) ops += (ops.empty() ? " " : ", ") + o.name;
      j["kernel_contract"].push_back("Custom instruction " + in.mnemonic + ops + (in.doc.empty() ? "" : ": " + in.doc) +
                                     " (assembly: write the mnemonic; C: the generated header's " +
                                     [&] { std::string c = in.mnemonic; for (char& ch : c) if (ch == '.') ch = '_'; return c; }() +
                                     (in.is_vector() ? "_<type><lmul>(..., vl)" : "(...)") + ", declared before every C kernel that names it).");
    }
  }
  return j;
}

}  // namespace tlmcraft::coral
