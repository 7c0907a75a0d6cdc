// Vector loads and stores: unit-stride (with segments and fault-only-first), mask
// (vlm.v/vsm.v), strided, indexed ordered/unordered (with segments) and whole-register.
//
// Every access is checked as a whole first: when all active elements are aligned and lie
// in one mapped region (writable for stores), the data moves with memcpy through the
// region's host pointer; otherwise element by element through Hart::read_bytes /
// write_bytes (misaligned elements trap as scalar accesses do on Coral), which raise the
// precise trap (vstart then names the faulting element; a
// fault-only-first load that faults after element 0 shortens vl instead).
#include <algorithm>
#include <cstdio>

#include "isa/riscv/vector_handlers.h"

namespace tlmcraft::isa::riscv::vec {
namespace {

enum class Mode : uint8_t { Unit, UnitFF, Strided, Indexed, Whole, Mask };

// aux layout (set by memory_impl): bits 0-1 log2(EEW bytes) from the width field,
// bits 4-7 nf (fields per segment, or registers for whole-register accesses).
inline unsigned aux_eew_log2(const DecodedInsn& d) { return d.aux & 3; }
inline unsigned aux_nf(const DecodedInsn& d) { return (d.aux >> 4) & 15; }

// The resolved shape of one execution.
struct Shape {
  unsigned data_bytes;   // bytes of one element in memory and in the register group
  unsigned index_bytes;  // indexed: bytes of one index element
  unsigned nf;           // fields per segment
  unsigned field_regs;   // registers per field group
  unsigned evl;          // elements (segments) in the body
  unsigned src_regs;     // index group size (indexed), else 0
};

int log2_regs(unsigned n) { return n >= 8 ? 3 : n >= 4 ? 2 : n >= 2 ? 1 : 0; }

// Legality against vtype and the shape of the access.
Shape resolve(const Hart& h, const DecodedInsn& d, Mode mode) {
  const unsigned eew_log2 = aux_eew_log2(d);
  const unsigned nf = aux_nf(d);
  Shape s{};
  s.nf = nf;
  if (mode == Mode::Whole) {
    s.data_bytes = 1u << eew_log2;
    s.nf = 1;
    s.field_regs = nf;
    s.evl = nf * kVlenBytes / s.data_bytes;
    require_aligned(d, "vd", d.rd, log2_regs(nf));
    return s;
  }
  const VType t = current_vtype(h, d);
  if (mode == Mode::Mask) {
    s.data_bytes = 1;
    s.nf = 1;
    s.field_regs = 1;
    s.evl = (h.vl + 7) / 8;
    return s;
  }
  // Data EMUL: (EEW / SEW) * LMUL for unit/strided, LMUL for indexed (data EEW = SEW).
  int data_emul = t.lmul_log2;
  s.data_bytes = t.sew_bytes;
  if (mode == Mode::Indexed) {
    const int index_emul = int(eew_log2) - int(t.sew_log2) + t.lmul_log2;
    if (index_emul < -3 || index_emul > 3) illegal(d, "index EMUL is outside 1/8..8");
    s.index_bytes = 1u << eew_log2;
    s.src_regs = group_regs(index_emul);
    require_aligned(d, "vs2", d.rs2, index_emul);
    const bool is_load = (d.raw & 0x7f) == 0x07;
    if (is_load) {
      if (nf > 1)
        require_disjoint(d, d.rd, nf * group_regs(data_emul), d.rs2, s.src_regs,
                         "segment destination overlaps the index register group");
      else
        require_legal_overlap(d, d.rd, t.sew_bytes * 8, data_emul, d.rs2, s.index_bytes * 8,
                              index_emul);
    }
  } else {
    data_emul = int(eew_log2) - int(t.sew_log2) + t.lmul_log2;
    if (data_emul < -3 || data_emul > 3) illegal(d, "EMUL = (EEW / SEW) * LMUL is outside 1/8..8");
    s.data_bytes = 1u << eew_log2;
  }
  s.field_regs = group_regs(data_emul);
  if (nf * s.field_regs > 8) illegal(d, "NFIELDS * EMUL exceeds 8");
  if (d.rd + nf * s.field_regs > 32) illegal(d, "the register groups run past v31");
  require_aligned(d, "vd", d.rd, data_emul);
  if ((d.raw & 0x7f) == 0x07) require_vd_not_v0(d);
  s.evl = h.vl;
  return s;
}

[[noreturn]] void misaligned(bool store, uint32_t addr, unsigned n) {
  char text[80];
  std::snprintf(text, sizeof text, "misaligned %u-byte vector %s at 0x%08x", n,
                store ? "store" : "load", addr);
  throw Trap{store ? TrapCause::StoreMisaligned : TrapCause::LoadMisaligned, addr, text};
}

// 16-byte block transactions (StepInfo::mem_blocks): per register of the data group, the
// distinct blocks its active elements touch; a store's elements that write the same bytes
// of a block go to separate transactions, each element to the first one whose bytes it
// does not overlap (measured on coral-rtl: four e32 stores to one address cost four
// transactions; to 0, 0, 4, 4 two; to 0, 16, 4, 20 two; to 0, 4, 8, 12 one; loads merge).
template <typename Address>
uint16_t count_blocks(const Hart& h, const Shape& s, bool masked, bool contiguous, bool store, unsigned first,
                      Address address) {
  uint16_t blocks = 0;
  if (contiguous) {  // each register's bytes are one run: the blocks they span
    // 64-bit: near the top of the address space `at + ...` wrapped in 32 bits and the loop
    // went back to 0 (a 4-billion-byte walk; fuzz_riscv_step timeout). The access faults later.
    const uint64_t lo = address(first), hi = uint64_t(address(s.evl - 1)) + s.data_bytes;
    for (uint64_t at = lo; at < hi;) {
      const uint64_t reg_end = std::min(hi, at + (kVlenBytes - (at - lo) % kVlenBytes));
      blocks += uint16_t(((reg_end - 1) >> 4) - (at >> 4) + 1);
      at = reg_end;
    }
    return blocks;
  }
  // Per register (field f, register r of the group): its blocks and, per block, the bytes
  // each of its transactions writes.
  const unsigned per_reg = kVlenBytes / s.data_bytes;
  const uint32_t element_bytes = (1u << std::min<unsigned>(s.data_bytes, 16)) - 1;
  for (unsigned f = 0; f < s.nf; ++f)
    for (unsigned r0 = first - first % per_reg; r0 < s.evl; r0 += per_reg) {
      uint32_t seen[kVlenBytes], layer_bytes[kVlenBytes][kVlenBytes];
      unsigned layers[kVlenBytes];
      unsigned n = 0;
      for (unsigned i = std::max(r0, first); i < std::min(s.evl, r0 + per_reg); ++i) {
        if (!active(h, masked, i)) continue;
        const uint32_t at = address(i) + f * s.data_bytes;
        const uint32_t bytes = (element_bytes << (at & 15)) & 0xFFFF;
        const unsigned k = unsigned(std::find(seen, seen + n, at >> 4) - seen);
        if (k == n) seen[n++] = at >> 4, layers[k] = 0;
        unsigned l = 0;
        while (l < layers[k] && store && (layer_bytes[k][l] & bytes)) ++l;
        if (l == layers[k]) layer_bytes[k][layers[k]++] = 0, ++blocks;
        layer_bytes[k][l] |= bytes;
      }
    }
  return blocks;
}

template <Mode kMode, bool kStore> void exec_memory(Hart& h, const DecodedInsn& d) {
  const Shape s = resolve(h, d, kMode);
  const bool masked = (kMode == Mode::Whole || kMode == Mode::Mask) ? false : is_masked(d);
  const uint32_t base = h.x[d.rs1];
  const int32_t stride = int32_t(h.x[d.rs2]);
  const uint32_t seg_bytes = s.nf * s.data_bytes;

  // Address of field 0 of element (segment) i.
  auto address = [&](unsigned i) -> uint32_t {
    if constexpr (kMode == Mode::Strided) return base + uint32_t(int64_t(stride) * i);
    else if constexpr (kMode == Mode::Indexed) {
      uint32_t offset;
      switch (s.index_bytes) {
        case 1: offset = h.vget<uint8_t>(d.rs2, i); break;
        case 2: offset = h.vget<uint16_t>(d.rs2, i); break;
        default: offset = h.vget<uint32_t>(d.rs2, i); break;
      }
      return base + offset;
    } else {
      return base + i * seg_bytes;
    }
  };
  uint8_t* regs = &h.v[0][0];
  auto reg_ptr = [&](unsigned i, unsigned f) {
    return regs + (d.rd + f * s.field_regs) * kVlenBytes + i * s.data_bytes;
  };

  // Pass 1: the span of the body and whether all elements are aligned. Unit-stride and
  // strided addresses are monotonic, so the span follows from the first and last body
  // element (masked-off elements included: at worst the slow path is taken; a span that
  // wraps around the address space fits no region); indexed accesses look at every
  // active element.
  uint64_t lo = ~uint64_t(0), hi = 0;
  bool aligned = true;
  const unsigned first = h.vstart;
  if (first < s.evl) {
    if constexpr (kMode == Mode::Indexed) {
      for (unsigned i = first; i < s.evl; ++i) {
        if (!active(h, masked, i)) continue;
        const uint32_t a = address(i);
        lo = std::min<uint64_t>(lo, a);
        hi = std::max<uint64_t>(hi, uint64_t(a) + seg_bytes);
        aligned = aligned && (a % s.data_bytes) == 0;
      }
    } else {
      const uint32_t a0 = address(first), a1 = address(s.evl - 1);
      lo = std::min(a0, a1);
      hi = uint64_t(std::max(a0, a1)) + seg_bytes;
      aligned = base % s.data_bytes == 0 &&
                (kMode != Mode::Strided || uint32_t(stride) % s.data_bytes == 0);
    }
  }
  h.info.mem_addr = hi > lo ? uint32_t(lo) : base;
  h.info.mem_bytes = hi > lo ? uint32_t(hi - lo) : 0;
  h.info.mem_strided = kMode == Mode::Strided || kMode == Mode::Indexed || s.nf > 1;
  const bool contiguous = !masked && s.nf == 1 && kMode != Mode::Strided && kMode != Mode::Indexed;
  if (first < s.evl) h.info.mem_blocks = count_blocks(h, s, masked, contiguous, kStore, first, address);
  unsigned end = s.evl;

  const MemoryRegion* region = nullptr;
  if (hi > lo && aligned) {
    for (const MemoryRegion& r : h.regions())
      // Stores into executable memory take the slow path: write_bytes() invalidates the
      // decoded instructions there.
      if (lo >= r.base && hi <= uint64_t(r.base) + r.size &&
          (!kStore || (r.writable && !r.executable)))
        region = &r;
  }
  if (region != nullptr) {
    uint8_t* host = region->data - region->base;  // host address of guest address 0
    if (contiguous) {
      const uint32_t n = (s.evl - first) * s.data_bytes;
      if (kStore) std::memcpy(host + uint32_t(lo), reg_ptr(first, 0), n);
      else std::memcpy(reg_ptr(first, 0), host + uint32_t(lo), n);
    } else {
      for (unsigned i = first; i < s.evl; ++i) {
        if (!active(h, masked, i)) continue;
        const uint32_t a = address(i);
        for (unsigned f = 0; f < s.nf; ++f) {
          uint8_t* mem = host + (a + f * s.data_bytes);
          if (kStore) std::memcpy(mem, reg_ptr(i, f), s.data_bytes);
          else std::memcpy(reg_ptr(i, f), mem, s.data_bytes);
        }
      }
    }
  } else if (hi > lo) {
    for (unsigned i = first; i < s.evl; ++i) {
      if (!active(h, masked, i)) continue;
      const uint32_t a = address(i);
      try {
        if (a % s.data_bytes != 0) misaligned(kStore, a, s.data_bytes);
        for (unsigned f = 0; f < s.nf; ++f) {
          if (kStore) h.write_bytes(a + f * s.data_bytes, reg_ptr(i, f), s.data_bytes);
          else h.read_bytes(a + f * s.data_bytes, reg_ptr(i, f), s.data_bytes,
                            TrapCause::LoadAccessFault);
        }
      } catch (const Trap&) {
        if (kMode == Mode::UnitFF && i > 0) {  // later elements: shorten vl, no trap
          h.vl = i;
          end = i;
          h.info.mem_bytes = a > h.info.mem_addr ? a - h.info.mem_addr : 0;
          break;
        }
        h.vstart = i;
        throw;
      }
    }
  }
  finish(h, first, end, s.data_bytes, kStore ? 0 : s.nf * s.field_regs,
         kStore ? s.nf * s.field_regs : s.src_regs);
  h.info.fields = uint8_t(s.nf);
  if constexpr (kMode == Mode::Indexed) h.info.index_bytes = uint8_t(s.index_bytes);
}

template <bool kStore> Handler handler_for(Mode mode) {
  switch (mode) {
    case Mode::Unit: return &exec_memory<Mode::Unit, kStore>;
    case Mode::UnitFF: return &exec_memory<Mode::UnitFF, false>;
    case Mode::Strided: return &exec_memory<Mode::Strided, kStore>;
    case Mode::Indexed: return &exec_memory<Mode::Indexed, kStore>;
    case Mode::Whole: return &exec_memory<Mode::Whole, kStore>;
    default: return &exec_memory<Mode::Mask, kStore>;
  }
}

}  // namespace

VecImpl memory_impl(uint32_t raw, DecodedInsn& out) {
  const unsigned opcode = raw & 0x7f;
  const bool store = opcode == 0x27;
  if (opcode != 0x07 && !store) return {};
  const unsigned width = (raw >> 12) & 7;
  unsigned eew_log2;
  switch (width) {
    case 0: eew_log2 = 0; break;
    case 5: eew_log2 = 1; break;
    case 6: eew_log2 = 2; break;
    default: return {};  // 7 = EEW 64 (> ELEN); others are scalar FP widths
  }
  if ((raw >> 28) & 1) return {};  // mew: EEW >= 128 is reserved
  const unsigned mop = (raw >> 26) & 3;
  const unsigned nf = (raw >> 29) + 1;
  const unsigned lumop = (raw >> 20) & 31;
  const bool vm = vm_bit(raw);
  Mode mode;
  switch (mop) {
    case 0:
      if (lumop == 0x00) mode = Mode::Unit;
      else if (lumop == 0x10 && !store) mode = Mode::UnitFF;
      else if (lumop == 0x08) {
        if (!vm || (nf != 1 && nf != 2 && nf != 4 && nf != 8)) return {};
        if (store && width != 0) return {};  // vs<nr>r.v is encoded with EEW 8 only
        mode = Mode::Whole;
      } else if (lumop == 0x0b) {
        if (!vm || nf != 1 || width != 0) return {};
        mode = Mode::Mask;
      } else {
        return {};
      }
      break;
    case 2: mode = Mode::Strided; break;
    default: mode = Mode::Indexed; break;  // 1 unordered, 3 ordered: executed in order
  }
  out.aux = eew_log2 | (nf << 4);
  return {store ? handler_for<true>(mode) : handler_for<false>(mode),
          store ? OpClass::VecStore : OpClass::VecLoad};
}

}  // namespace tlmcraft::isa::riscv::vec
