// The hart's memory map, the decoded-instruction cache and the step loop.
#include "isa/riscv/hart.h"

#include "isa/riscv/custom_ext.h"

#include <cstdio>

namespace tlmcraft::isa::riscv {

namespace {
std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}
}  // namespace

const char* to_string(TrapCause c) {
  switch (c) {
    case TrapCause::IllegalInstruction: return "illegal instruction";
    case TrapCause::InstructionAccessFault: return "instruction access fault";
    case TrapCause::LoadMisaligned: return "load address misaligned";
    case TrapCause::StoreMisaligned: return "store address misaligned";
    case TrapCause::LoadAccessFault: return "load access fault";
    case TrapCause::StoreAccessFault: return "store access fault";
    case TrapCause::Breakpoint: return "breakpoint";
    case TrapCause::EnvironmentCall: return "environment call";
  }
  return "unknown trap";
}

const char* to_string(OpClass c) {
  switch (c) {
    case OpClass::Alu: return "alu";
    case OpClass::Branch: return "branch";
    case OpClass::Jump: return "jump";
    case OpClass::Mul: return "mul";
    case OpClass::Div: return "div";
    case OpClass::Load: return "load";
    case OpClass::Store: return "store";
    case OpClass::Csr: return "csr";
    case OpClass::System: return "system";
    case OpClass::Fence: return "fence";
    case OpClass::FpAdd: return "fp_add";
    case OpClass::FpMul: return "fp_mul";
    case OpClass::FpFma: return "fp_fma";
    case OpClass::FpDiv: return "fp_div";
    case OpClass::FpSqrt: return "fp_sqrt";
    case OpClass::FpCvt: return "fp_cvt";
    case OpClass::FpCmp: return "fp_cmp";
    case OpClass::FpMove: return "fp_move";
    case OpClass::FpLoad: return "fp_load";
    case OpClass::FpStore: return "fp_store";
    case OpClass::VecConfig: return "vec_config";
    case OpClass::VecAlu: return "vec_alu";
    case OpClass::VecMul: return "vec_mul";
    case OpClass::VecDiv: return "vec_div";
    case OpClass::VecFixedPoint: return "vec_fixed_point";
    case OpClass::VecReduction: return "vec_reduction";
    case OpClass::VecPermute: return "vec_permute";
    case OpClass::VecMask: return "vec_mask";
    case OpClass::VecLoad: return "vec_load";
    case OpClass::VecStore: return "vec_store";
    case OpClass::VecToScalar: return "vec_to_scalar";
    case OpClass::Halt: return "halt";
  }
  return "unknown";
}

// One cache per executable region: DecodedInsn slots indexed by (pc - base) / 4, filled
// on first execution (exec == nullptr marks an undecoded slot).
struct Hart::DecodeCache {
  struct Block {
    uint32_t base = 0;
    uint32_t words = 0;           // size / 4
    const uint8_t* data = nullptr;
    std::vector<DecodedInsn> insns;
  };
  std::vector<Block> blocks;
  Block* last = nullptr;          // the block the pc was last found in

  // The step loop's fast path: the decoded slot for `pc` in the last block, or nullptr
  // (other block, misaligned, not decoded yet) to take the slow path through decoded().
  DecodedInsn* lookup(uint32_t pc) {
    Block* b = last;
    if (b == nullptr) return nullptr;
    const uint32_t offset = pc - b->base;
    if (offset >= b->words * 4u || (pc & 3)) return nullptr;
    DecodedInsn* d = &b->insns[offset >> 2];
    return d->exec ? d : nullptr;
  }

  Block* find(uint32_t addr) {
    for (Block& b : blocks)
      if (addr - b.base < b.words * 4u) return &b;
    return nullptr;
  }
};

Hart::Hart() : cache_(std::make_unique<DecodeCache>()) {}
Hart::~Hart() = default;

void Hart::share_regions(const Hart& other) {
  regions_ = other.regions_;
  last_region_ = nullptr;
  cache_->blocks.clear();  // it executes no code from them: decoded steps run directly
  cache_->last = nullptr;
}

void Hart::add_region(const MemoryRegion& region) {
  regions_.push_back(region);
  last_region_ = nullptr;
  cache_->blocks.clear();
  cache_->last = nullptr;
  for (const MemoryRegion& r : regions_) {
    if (!r.executable) continue;
    DecodeCache::Block b;
    b.base = r.base;
    b.words = r.size / 4;
    b.data = r.data;
    b.insns.resize(b.words);
    cache_->blocks.push_back(std::move(b));
  }
}

MemoryRegion* Hart::find_region(uint32_t addr, uint32_t n) {
  if (last_region_ && uint64_t(addr - last_region_->base) + n <= last_region_->size) return last_region_;
  for (MemoryRegion& r : regions_) {
    if (uint64_t(addr - r.base) + n <= r.size) {
      last_region_ = &r;
      return &r;
    }
  }
  return nullptr;
}

MemoryRegion* Hart::region_or_fault(uint32_t addr, uint32_t n, TrapCause fault) {
  if (MemoryRegion* r = find_region(addr, n)) return r;
  const char* what = fault == TrapCause::StoreAccessFault ? "store to" : "load from";
  throw Trap{fault, addr, std::string(what) + " unmapped address " + hex32(addr) + " (" + std::to_string(n) + " bytes)"};
}

void Hart::misaligned(TrapCause cause, uint32_t addr, unsigned n) const {
  const char* what = cause == TrapCause::StoreMisaligned ? "store" : "load";
  throw Trap{cause, addr, std::string("misaligned ") + std::to_string(n) + "-byte " + what + " at " + hex32(addr)};
}

void Hart::read_only_store(const MemoryRegion& region, uint32_t addr) const {
  throw Trap{TrapCause::StoreAccessFault, addr, "store to " + region.name + " at " + hex32(addr) + " (read-only at run time)"};
}

void Hart::invalidate_decoded(uint32_t addr, uint32_t n) {
  for (uint32_t a = addr & ~3u; a < addr + n; a += 4) {
    if (DecodeCache::Block* b = cache_->find(a)) b->insns[(a - b->base) >> 2].exec = nullptr;
  }
}

void Hart::read_bytes(uint32_t addr, void* dst, uint32_t n, TrapCause fault) {
  if (n == 0) return;
  MemoryRegion* r = region_or_fault(addr, n, fault);
  std::memcpy(dst, r->data + (addr - r->base), n);
}

void Hart::write_bytes(uint32_t addr, const void* src, uint32_t n) {
  if (n == 0) return;
  MemoryRegion* r = region_or_fault(addr, n, TrapCause::StoreAccessFault);
  if (!r->writable) read_only_store(*r, addr);
  std::memcpy(r->data + (addr - r->base), src, n);
  if (r->executable) invalidate_decoded(addr, n);
}

const DecodedInsn& Hart::decoded(uint32_t addr) {
  DecodeCache::Block* b = cache_->last;
  if (b == nullptr || addr - b->base >= b->words * 4u) {
    b = cache_->find(addr);
    if (b == nullptr)
      throw Trap{TrapCause::InstructionAccessFault, addr, "instruction fetch from non-executable address " + hex32(addr)};
    cache_->last = b;
  }
  if (addr & 3)
    throw Trap{TrapCause::InstructionAccessFault, addr, "instruction fetch from misaligned address " + hex32(addr)};
  DecodedInsn& d = b->insns[(addr - b->base) >> 2];
  if (d.exec == nullptr) {
    uint32_t raw;
    std::memcpy(&raw, b->data + (addr - b->base), 4);
    d = custom ? decode(raw, custom) : decode(raw);
  }
  return d;
}

void Hart::flush_decode_cache() {
  for (DecodeCache::Block& b : cache_->blocks)
    for (DecodedInsn& d : b.insns) d.exec = nullptr;
}

void Hart::step() {
  const DecodedInsn* fast = cache_->lookup(pc);
  const DecodedInsn& d = fast ? *fast : decoded(pc);
  info = StepInfo{};
  info.pc = pc;
  info.insn = &d;
  d.exec(*this, d);
  x[0] = 0;  // handlers write x[rd] unconditionally; x0 stays zero
  if (!info.taken) pc += 4;
  ++minstret;
}

uint64_t Hart::run(uint64_t max_steps) {
  uint64_t n = 0;
  while (n < max_steps && !halted) {
    step();
    ++n;
  }
  return n;
}

}  // namespace tlmcraft::isa::riscv
