// Zicsr and the system instructions: the CSRs Coral NPU software uses (counters, FP and
// vector status, machine identification), fence, ecall/ebreak traps, mpause.
#include <cstdio>

#include "isa/riscv/scalar_ops.h"

namespace tlmcraft::isa::riscv::ops {

namespace {
// Machine-mode-only hart with FP and vector state always on: SD, FS = dirty (3),
// VS = dirty (3), MPP hardwired to M (3). Writes are ignored (the fields are WARL).
constexpr uint32_t kMstatus = 0x80000000u | (3u << 13) | (3u << 11) | (3u << 9);
// MXL = 1 (RV32), extensions I, M, F. Zve32x is a subset of V, so misa.V stays clear.
constexpr uint32_t kMisa = (1u << 30) | (1u << ('I' - 'A')) | (1u << ('M' - 'A')) | (1u << ('F' - 'A'));

enum Csr : uint32_t {
  kFflags = 0x001, kFrm = 0x002, kFcsr = 0x003,
  kVstart = 0x008, kVxsat = 0x009, kVxrm = 0x00A, kVcsr = 0x00F,
  kMstatus_ = 0x300, kMisa_ = 0x301,
  kMcycle = 0xB00, kMinstret = 0xB02, kMcycleh = 0xB80, kMinstreth = 0xB82,
  kVl = 0xC20, kVtype = 0xC21, kVlenb = 0xC22,
  kMhartid = 0xF14,
};

std::string csr_hex(uint32_t csr) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%03x", csr);
  return buf;
}

uint64_t mcycle(const Hart& h) {
  uint64_t raw = h.hooks ? h.hooks->read_mcycle() : h.minstret;
  return raw + h.mcycle_offset;
}

// Reads a CSR; unknown addresses are illegal instructions.
uint32_t csr_read(Hart& h, const DecodedInsn& d, uint32_t csr) {
  switch (csr) {
    case kFflags: return h.fflags;
    case kFrm: return h.frm;
    case kFcsr: return (h.frm << 5) | h.fflags;
    case kVstart: return h.vstart;
    case kVxsat: return h.vxsat;
    case kVxrm: return h.vxrm;
    case kVcsr: return (h.vxrm << 1) | h.vxsat;
    case kMstatus_: return kMstatus;
    case kMisa_: return kMisa;
    case kMcycle: return static_cast<uint32_t>(mcycle(h));
    case kMcycleh: return static_cast<uint32_t>(mcycle(h) >> 32);
    case kMinstret: return static_cast<uint32_t>(h.minstret);
    case kMinstreth: return static_cast<uint32_t>(h.minstret >> 32);
    case kVl: return h.vl;
    case kVtype: return h.vtype;
    case kVlenb: return kVlenBytes;
    case kMhartid: return 0;
  }
  throw_illegal(d, "unknown CSR " + csr_hex(csr));
}

// Checks that `csr` may be written (before any state changes).
void check_writable(const DecodedInsn& d, uint32_t csr) {
  if ((csr >> 10) == 3) throw_illegal(d, "write to read-only CSR " + csr_hex(csr));
}

void csr_write(Hart& h, uint32_t csr, uint32_t v) {
  switch (csr) {
    case kFflags: h.fflags = v & 0x1f; break;
    case kFrm: h.frm = v & 7; break;
    case kFcsr: h.fflags = v & 0x1f; h.frm = (v >> 5) & 7; break;
    case kVstart: h.vstart = v & 0x7f; break;  // enough bits for VLMAX - 1 = 127 (e8, m8)
    case kVxsat: h.vxsat = v & 1; break;
    case kVxrm: h.vxrm = v & 3; break;
    case kVcsr: h.vxsat = v & 1; h.vxrm = (v >> 1) & 3; break;
    case kMstatus_: case kMisa_: break;  // WARL, nothing writable
    case kMcycle: case kMcycleh: {
      uint64_t now = mcycle(h);
      uint64_t wanted = csr == kMcycle ? ((now & ~0xffffffffull) | v) : ((now & 0xffffffffull) | (uint64_t(v) << 32));
      h.mcycle_offset += wanted - now;
      break;
    }
    // The writing instruction's own retirement must not count: the step loop adds one.
    case kMinstret: h.minstret = ((h.minstret & ~0xffffffffull) | v) - 1; break;
    case kMinstreth: h.minstret = ((h.minstret & 0xffffffffull) | (uint64_t(v) << 32)) - 1; break;
  }
}

// The six CSR instructions differ in the source operand and whether they write.
template <typename Combine>
void csr_op(Hart& h, const DecodedInsn& d, uint32_t operand, bool writes, bool reads, Combine combine) {
  uint32_t csr = d.aux;
  uint32_t old = 0;
  if (reads) old = csr_read(h, d, csr);
  else (void)csr_read(h, d, csr);  // existence check only (csrrw with rd = x0)
  if (writes) {
    check_writable(d, csr);
    csr_write(h, csr, combine(old, operand));
  }
  h.x[d.rd] = old;
}
}  // namespace

void throw_illegal(const DecodedInsn& d, const std::string& reason) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%08x", d.raw);
  throw Trap{TrapCause::IllegalInstruction, d.raw, "illegal instruction " + std::string(buf) + ": " + reason};
}

void illegal(Hart&, const DecodedInsn& d) { throw_illegal(d, "not an RV32IMF_Zve32x instruction"); }

void fence(Hart&, const DecodedInsn&) {}  // one in-order hart, no caches: nothing to order
void ecall(Hart&, const DecodedInsn& d) { throw Trap{TrapCause::EnvironmentCall, 0, "ecall in machine mode"}; }
void ebreak(Hart& h, const DecodedInsn&) { throw Trap{TrapCause::Breakpoint, h.pc, "ebreak"}; }
void mpause(Hart& h, const DecodedInsn&) { h.halted = true; }

void csrrw(Hart& h, const DecodedInsn& d) {
  csr_op(h, d, h.x[d.rs1], true, d.rd != 0, [](uint32_t, uint32_t v) { return v; });
}
void csrrs(Hart& h, const DecodedInsn& d) {
  csr_op(h, d, h.x[d.rs1], d.rs1 != 0, true, [](uint32_t o, uint32_t v) { return o | v; });
}
void csrrc(Hart& h, const DecodedInsn& d) {
  csr_op(h, d, h.x[d.rs1], d.rs1 != 0, true, [](uint32_t o, uint32_t v) { return o & ~v; });
}
// Immediate forms: the 5-bit uimm sits in the rs1 field.
void csrrwi(Hart& h, const DecodedInsn& d) {
  csr_op(h, d, d.rs1, true, d.rd != 0, [](uint32_t, uint32_t v) { return v; });
}
void csrrsi(Hart& h, const DecodedInsn& d) {
  csr_op(h, d, d.rs1, d.rs1 != 0, true, [](uint32_t o, uint32_t v) { return o | v; });
}
void csrrci(Hart& h, const DecodedInsn& d) {
  csr_op(h, d, d.rs1, d.rs1 != 0, true, [](uint32_t o, uint32_t v) { return o & ~v; });
}

}  // namespace tlmcraft::isa::riscv::ops
