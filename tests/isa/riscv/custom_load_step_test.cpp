// Load steps in a composition (isa/riscv/load_step.h): a custom instruction that loads
// through the hart and computes on the loaded value. The loaded values and results, the
// same trap as the plain load for a misaligned or unmapped address, the overlay errors
// (stores, a second load, an address that is no input), the decoded address register, and
// the peephole's memory-order rule (no store, fence or CSR access, no write of the address
// register between the load and the place of the instruction).
#include <gtest/gtest.h>

#include <cstring>
#include <utility>

#include "isa/riscv/custom_ext.h"
#include "isa/riscv/load_step.h"
#include "isa/riscv/peephole.h"
#include "scalar_support.h"
#include "vector_test_support.h"

namespace tlmcraft::isa::riscv {
namespace {

using test::Machine;

// One custom-1 R-format entry with x operands rd (written), rs1 and rs2 (read): `steps` is
// the inside of the steps list, `timing` an optional last line. The steps are the entry's
// ninth line, at column 15 (what OverlayErrors' positions count on).
std::string load_step_scalar_entry(const std::string& mnemonic, int funct3, const std::string& temps,
                                   const std::string& steps, const std::string& timing = "") {
  return "  - mnemonic: " + mnemonic +
         "\n    encoding: {opcode: custom-1, format: r, funct3: " + std::to_string(funct3) +
         ", funct7: 0}\n"
         "    operands:\n"
         "      - {name: rd, field: rd, role: write, value: x}\n"
         "      - {name: rs1, field: rs1, role: read, value: x}\n"
         "      - {name: rs2, field: rs2, role: read, value: x}\n"
         "    compose:\n"
         "      temps: " +
         temps + "\n      steps: [" + steps + "]\n" + timing;
}

const char* const kLoadStepOverlayHead = "isa: riscv\ninstructions:\n";

// clwadd (custom-1 funct3 0): rd = mem32[rs1 + 8] + rs2. clhmul (funct3 1): rd =
// sext(mem16[rs1 - 2]) * rs2. clbadd (funct3 2): rd = sext(mem8[rs1]) + rs2. claddr (funct3
// 3): the address in rs2, rd = mem32[rs2] + rs1. cvladd (custom-0 funct3 1, vector): vd =
// vle32(rs1) + vs2.
const std::string kLoads = kLoadStepOverlayHead +
                           load_step_scalar_entry("clwadd", 0, "[t0]", "\"lw t0, 8(rs1)\", \"add rd, t0, rs2\"") +
                           load_step_scalar_entry("clhmul", 1, "[t0]", "\"lh t0, -2(rs1)\", \"mul rd, t0, rs2\"",
                                                  "    timing: {unit: mul}\n") +
                           load_step_scalar_entry("clbadd", 2, "[t0]", "\"lb t0, 0(rs1)\", \"add rd, t0, rs2\"") +
                           load_step_scalar_entry("claddr", 3, "[t0]", "\"lw t0, 0(rs2)\", \"add rd, t0, rs1\"") +
                           R"yaml(  - mnemonic: cvladd
    encoding: {opcode: custom-0, format: r, funct3: 1, funct7: 0}
    operands:
      - {name: vd, field: rd, role: write, value: v}
      - {name: rs1, field: rs1, role: read, value: x}
      - {name: vs2, field: rs2, role: read, value: v}
    compose:
      temps: [t0]
      steps: ["vle32.v t0, (rs1)", "vadd.vv vd, t0, vs2"]
)yaml";

std::shared_ptr<const CustomExtensions> loads_overlay(const std::string& text = kLoads) {
  auto ext = std::make_shared<CustomExtensions>();
  parse_custom_overlay(text, "loads.yaml", *ext);
  return ext;
}

std::string load_error(const std::string& text) {
  try {
    loads_overlay(text);
  } catch (const CustomExtError& e) {
    return e.what();
  }
  return "(no error)";
}

uint32_t r_word(uint32_t opcode, uint32_t f3, uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opcode;
}

void put32(Machine& m, uint32_t addr, uint32_t v) { std::memcpy(m.dtcm.data() + (addr - Machine::kDtcm), &v, 4); }

TEST(CustomLoadStep, ScalarLoadsFeedTheArithmetic) {
  const auto ext = loads_overlay();
  Machine m;
  m.hart.custom = ext.get();
  // mem32[0x10008] = 1000; a1 = 0x10000, a2 = 234: clwadd a0, a1, a2 = 1000 + 234 = 1234.
  put32(m, 0x10008, 1000);
  m.run({test::lui(11, 0x10), test::addi(12, 0, 234), r_word(0x2b, 0, 10, 11, 12)});
  EXPECT_EQ(m.hart.x[10], 1234u);
  // mem16[0x10010] = 0xfff9 (-7); a1 = 0x10012 (offset -2), a2 = 6: clhmul = -7 * 6 = -42.
  put32(m, 0x10010, 0x0000fff9u);
  m.run({test::lui(11, 0x10), test::addi(11, 11, 0x12), test::addi(12, 0, 6), r_word(0x2b, 1, 10, 11, 12)});
  EXPECT_EQ(int32_t(m.hart.x[10]), -42);
  // mem8[0x10020] = 0x80 (-128), a2 = 1: clbadd = -127. The temp t0 (hidden) leaves x5 alone.
  put32(m, 0x10020, 0x80u);
  m.run({test::lui(11, 0x10), test::addi(11, 11, 0x20), test::addi(12, 0, 1), test::addi(5, 0, 55),
         r_word(0x2b, 2, 10, 11, 12)});
  EXPECT_EQ(int32_t(m.hart.x[10]), -127);
  EXPECT_EQ(m.hart.x[5], 55u);
  // The address in rs2: claddr a0, a2, a1 with a1 = 0x10008 (1000 there), a2 = 5: 1005.
  m.run({test::lui(11, 0x10), test::addi(11, 11, 8), test::addi(12, 0, 5), r_word(0x2b, 3, 10, 12, 11)});
  EXPECT_EQ(m.hart.x[10], 1005u);
  // rd = the address register: clwadd a1, a1, a2 reads a1 before writing it: 1000 + 234.
  m.run({test::lui(11, 0x10), test::addi(12, 0, 234), r_word(0x2b, 0, 11, 11, 12)});
  EXPECT_EQ(m.hart.x[11], 1234u);
}

TEST(CustomLoadStep, ReportsTheAccessForTiming) {
  const auto ext = loads_overlay();
  Machine m;
  m.hart.custom = ext.get();
  m.load({test::lui(11, 0x10), r_word(0x2b, 0, 10, 11, 12)});
  m.hart.step();
  m.hart.step();
  // The address rs1 + 8 and 4 bytes, as the plain lw reports them.
  EXPECT_EQ(m.hart.info.mem_addr, 0x10008u);
  EXPECT_EQ(m.hart.info.mem_bytes, 4u);
  EXPECT_EQ(m.hart.info.load_group, 0u);
}

// The trap a word raises after `setup` (the machine's run_expect_trap).
Trap trap_of(const std::shared_ptr<const CustomExtensions>& ext, const std::vector<uint32_t>& words) {
  Machine m;
  m.hart.custom = ext.get();
  return m.run_expect_trap(words);
}

// The traps of `clwadd a0, a1, a2` and of the plain `lw a0, 8(a1)`, each after `setup`.
std::pair<Trap, Trap> clwadd_and_lw_traps(const std::shared_ptr<const CustomExtensions>& ext,
                                          const std::vector<uint32_t>& setup) {
  std::vector<uint32_t> fused = setup, plain = setup;
  fused.push_back(r_word(0x2b, 0, 10, 11, 12));
  plain.push_back(test::lw(10, 11, 8));
  return {trap_of(ext, fused), trap_of(ext, plain)};
}

TEST(CustomLoadStep, MisalignedOrUnmappedAddressTrapsAsThePlainLoad) {
  const auto ext = loads_overlay();
  // a1 = 0x10001: lw at 0x10009 is misaligned, as `lw a0, 8(a1)` is: same cause and address.
  const auto [a, b] = clwadd_and_lw_traps(ext, {test::lui(11, 0x10), test::addi(11, 11, 1)});
  EXPECT_EQ(a.cause, TrapCause::LoadMisaligned);
  EXPECT_EQ(b.cause, TrapCause::LoadMisaligned);
  EXPECT_EQ(a.tval, 0x10009u);
  EXPECT_EQ(b.tval, 0x10009u);
  EXPECT_EQ(a.detail, "clwadd: " + b.detail);
  // a1 = 0x50000: nothing is mapped there (DTCM ends at 0x18000), an access fault at 0x50008.
  const auto [c, d] = clwadd_and_lw_traps(ext, {test::lui(11, 0x50)});
  EXPECT_EQ(c.cause, TrapCause::LoadAccessFault);
  EXPECT_EQ(d.cause, TrapCause::LoadAccessFault);
  EXPECT_EQ(c.tval, 0x50008u);
  EXPECT_EQ(d.tval, 0x50008u);
}

TEST(CustomLoadStep, VectorLoadFeedsTheVectorStep) {
  const auto ext = loads_overlay();
  Machine m;
  m.hart.custom = ext.get();
  // e32, m1, vl = 4: mem32[0x10040..] = 1, 2, 3, 4; v2 = 10, 20, 30, 40: v1 = 11, 22, 33, 44.
  for (uint32_t i = 0; i < 4; ++i) put32(m, 0x10040 + 4 * i, i + 1);
  m.load({r_word(0x0b, 1, 1, 11, 2)});
  for (uint32_t i = 0; i < 4; ++i) m.hart.vset<uint32_t>(2, i, 10 * (i + 1));
  m.hart.vtype = vtest::vtypei(32, 0);
  m.hart.vl = 4;
  m.hart.x[11] = 0x10040;
  m.hart.step();
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(m.hart.vget<uint32_t>(1, i), 11 * (i + 1)) << i;
  // The LSU's share for timing: 16 bytes from 0x10040, one register of 4-byte elements.
  EXPECT_EQ(m.hart.info.mem_addr, 0x10040u);
  EXPECT_EQ(m.hart.info.mem_bytes, 16u);
  EXPECT_EQ(m.hart.info.load_group, 1u);
  EXPECT_EQ(m.hart.info.load_sew_bytes, 4u);
  // At e8, m4 the load's EMUL would be 16 registers (32 / 8 x 4): the load step is illegal,
  // as the plain vle32.v is.
  m.load({r_word(0x0b, 1, 4, 11, 8)});
  m.hart.vtype = vtest::vtypei(8, 2);
  m.hart.vl = 8;
  m.hart.x[11] = 0x10040;
  try {
    m.hart.step();
    FAIL() << "no trap";
  } catch (const Trap& t) {
    EXPECT_EQ(t.cause, TrapCause::IllegalInstruction);
    EXPECT_EQ(t.detail,
              "illegal instruction 0x0085920b (cvladd): step 'vle32.v t0, (rs1)': vle32.v v8,(ra): EMUL = (EEW / SEW) "
              "* LMUL is outside 1/8..8");
  }
}

TEST(CustomLoadStep, VectorLoadAtAnotherEewIsThePlainSequence) {
  // e16, m1, vl = 8: vle32.v loads 8 words into a group of EMUL 2, vadd.vv at e16 adds its
  // first register's halves to v2. The plain `vle32.v v4, (a1); vadd.vv v1, v4, v2` gives
  // the same v1.
  const auto ext = loads_overlay();
  Machine fused, plain;
  fused.hart.custom = ext.get();
  for (Machine* m : {&fused, &plain}) {
    for (uint32_t i = 0; i < 8; ++i) put32(*m, 0x10040 + 4 * i, 0x00010001u * (i + 1) + 0x00300000u);
    m->load(m == &fused ? std::vector<uint32_t>{r_word(0x0b, 1, 1, 11, 2)}
                        : std::vector<uint32_t>{vtest::vle(32, 4, 11), vtest::opv(0x00, vtest::IVV, 1, 4, 2)});
    m->hart.vtype = vtest::vtypei(16, 0);
    m->hart.vl = 8;
    m->hart.x[11] = 0x10040;
    for (uint32_t i = 0; i < 8; ++i) m->hart.vset<uint16_t>(2, i, uint16_t(100 * i));
  }
  fused.hart.step();
  plain.hart.step();
  plain.hart.step();
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(fused.hart.vget<uint16_t>(1, i), plain.hart.vget<uint16_t>(1, i)) << i;
  // Element 1 is the high half of word 0 (0x0031) + 100.
  EXPECT_EQ(fused.hart.vget<uint16_t>(1, 1), 0x0031 + 100);
  EXPECT_EQ(fused.hart.info.load_group, 2u);
  EXPECT_EQ(fused.hart.info.load_sew_bytes, 4u);
}

TEST(CustomLoadStep, DecodesTheAddressRegisterFirst) {
  const auto ext = loads_overlay();
  // claddr a0, a2, a1: the address is rs2 (a1 = 11), then rs1 (a2 = 12).
  const DecodedInsn d = decode(r_word(0x2b, 3, 10, 12, 11), ext.get());
  EXPECT_EQ(d.src[0], 11);
  EXPECT_EQ(d.src[1], 12);
  EXPECT_EQ(d.dst[0], 10);
}

TEST(CustomLoadStep, AreaPricesTheLoadPath) {
  const auto ext = loads_overlay();
  // clwadd: its add (32-bit adder 137 um2), its temp t0 (32 x (DFF 4.522 + MUX2 1.862)) and
  // the load path: address adder 137 + (32 address + 32 data bits) x 1.862 = 256.168.
  EXPECT_NEAR(custom_area_mm2(ext->instructions()[0]), (137 + 32 * (4.522 + 1.862) + 137 + 64 * 1.862) * 1e-6, 1e-12);
  // cvladd: a 4-lane adder (4 x 137), its 128-bit temp and the load path with 128 data bits.
  EXPECT_NEAR(custom_area_mm2(ext->instructions()[4]),
              (4 * 137 + 128 * (4.522 + 1.862) + 137 + (32 + 128) * 1.862) * 1e-6, 1e-12);
}

// One instruction cbad with `steps`: its steps on line 11 of the overlay.
std::string overlay_with_steps(const std::string& steps, const std::string& temps = "[t0]") {
  return kLoadStepOverlayHead + load_step_scalar_entry("cbad", 0, temps, steps);
}

TEST(CustomLoadStep, OverlayErrors) {
  // Line 11 holds the steps; the first quoted step starts at column 15, its text at 16.
  EXPECT_EQ(load_error(overlay_with_steps("\"sw rs2, 0(rs1)\", \"add rd, rs1, rs2\"", "[]")),
            "loads.yaml:11:16: 'sw' is not a register-to-register RV32IMF/Zve32x instruction nor a load (compose "
            "steps may not store or branch; loads as 'lw rd, 8(rs1)' or 'vle8.v rd, (rs1)'; vtype changes as "
            "'vsetvli zero, zero, <sew>, <lmul>, <ta|tu>, <ma|mu>')");
  // Two loads: the ISA's one memory port for an added instruction (custom_memory_ports).
  EXPECT_EQ(custom_memory_ports().loads, 1);
  EXPECT_EQ(custom_memory_ports().stores, 0);
  EXPECT_EQ(load_error(overlay_with_steps("\"lw t0, 0(rs1)\", \"lw t1, 0(rs2)\", \"add rd, t0, t1\"", "[t0, t1]")),
            "loads.yaml:11:33: 'lw': an added instruction holds at most 1 load (the one LSU port it may use)");
  // The address must be an input: a temp computed by an earlier step is refused.
  EXPECT_EQ(load_error(overlay_with_steps("\"add t0, rs1, rs2\", \"lw rd, 4(t0)\"")),
            "loads.yaml:11:45: the address of 'lw' must be an x input operand of the instruction, not 't0' (the load "
            "issues first, from the register file)");
  // A vector load takes no offset; a malformed memory operand is named.
  EXPECT_EQ(load_error(overlay_with_steps("\"vle8.v t0, 4(rs1)\", \"add rd, rs1, rs2\"")),
            "loads.yaml:11:27: 'vle8.v' takes no offset: '(name)'");
  EXPECT_EQ(load_error(overlay_with_steps("\"lw t0, rs1\", \"add rd, t0, rs2\"")),
            "loads.yaml:11:16: 'lw' takes a destination and a memory operand: 'lw rd, 0(rs1)'");
}

std::string peep(const std::string& s) { return apply_composed_peephole(s, *loads_overlay()).assembly; }

TEST(CustomLoadStepPeephole, LoadFeedingAnAddIsReplaced) {
  // lw a4, 8(a1); an independent addi; add a0, a4, a2 (a4 dead: reloaded after): rs1 = a1,
  // rs2 = a2, placed at the add.
  const std::string in = "\tlw\ta4, 8(a1)\n\taddi\ta3, a3, 1\n\tadd\ta0, a4, a2\n\tli\ta4, 0\n\tret\n";
  EXPECT_EQ(peep(in), "\taddi\ta3, a3, 1\n\t.insn r 0x2b, 0, 0, a0, a1, a2\t# clwadd\n\tli\ta4, 0\n\tret\n");
  // Another offset is another instruction: `lw a4, 4(a1)` does not match clwadd's 8.
  const std::string other = "\tlw\ta4, 4(a1)\n\tadd\ta0, a4, a2\n\tli\ta4, 0\n\tret\n";
  EXPECT_EQ(peep(other), other);
}

TEST(CustomLoadStepPeephole, MemoryOrderRefusesStoresFencesCsrsAndAddressWrites) {
  // A store between the load and the add: the fused load would read after it.
  const std::string store = "\tlw\ta4, 8(a1)\n\tsw\ta5, 0(a6)\n\tadd\ta0, a4, a2\n\tli\ta4, 0\n\tret\n";
  EXPECT_EQ(peep(store), store);
  const std::string fence = "\tlw\ta4, 8(a1)\n\tfence\n\tadd\ta0, a4, a2\n\tli\ta4, 0\n\tret\n";
  EXPECT_EQ(peep(fence), fence);
  const std::string csr = "\tlw\ta4, 8(a1)\n\tcsrw\tmscratch, a5\n\tadd\ta0, a4, a2\n\tli\ta4, 0\n\tret\n";
  EXPECT_EQ(peep(csr), csr);
  // The address register rewritten in between: at the add, a1 no longer holds the address.
  const std::string addr = "\tlw\ta4, 8(a1)\n\taddi\ta1, a1, 4\n\tadd\ta0, a4, a2\n\tli\ta4, 0\n\tret\n";
  EXPECT_EQ(peep(addr), addr);
  // A store before the load or after the add is no obstacle.
  EXPECT_EQ(peep("\tsw\ta5, 0(a6)\n\tlw\ta4, 8(a1)\n\tadd\ta0, a4, a2\n\tsw\ta0, 0(a6)\n\tli\ta4, 0\n\tret\n"),
            "\tsw\ta5, 0(a6)\n\t.insn r 0x2b, 0, 0, a0, a1, a2\t# clwadd\n\tsw\ta0, 0(a6)\n\tli\ta4, 0\n\tret\n");
}

TEST(CustomLoadStepPeephole, VectorLoadPlacedWhereItsEmulIsLegal) {
  // e32 m1: vle32.v v4, (a0); vadd.vv v8, v4, v12 -> cvladd v8, a0, v12 (v4 dead after).
  const std::string e32 =
      "\tvsetvli\tzero, a2, e32, m1, ta, ma\n\tvle32.v\tv4, (a0)\n\tvadd.vv\tv8, v4, v12\n"
      "\tvmv.v.i\tv4, 0\n\tret\n";
  EXPECT_EQ(peep(e32),
            "\tvsetvli\tzero, a2, e32, m1, ta, ma\n\t.insn r 0xb, 1, 0, v8, a0, v12\t# cvladd\n"
            "\tvmv.v.i\tv4, 0\n\tret\n");
  // At e16 m1 the load's EMUL is 2: placed as well (its temp gets a group of 2).
  const std::string e16 =
      "\tvsetvli\tzero, a2, e16, m1, ta, ma\n\tvle32.v\tv4, (a0)\n\tvadd.vv\tv8, v4, v12\n"
      "\tvmv.v.i\tv4, 0\n\tret\n";
  EXPECT_EQ(peep(e16),
            "\tvsetvli\tzero, a2, e16, m1, ta, ma\n\t.insn r 0xb, 1, 0, v8, a0, v12\t# cvladd\n"
            "\tvmv.v.i\tv4, 0\n\tret\n");
  // At e8 m4 it would be 16 registers: not placed. Nor where the vtype is unknown.
  const std::string e8 =
      "\tvsetvli\tzero, a2, e8, m4, ta, ma\n\tvle32.v\tv4, (a0)\n\tvadd.vv\tv8, v4, v12\n"
      "\tvmv.v.i\tv4, 0\n\tret\n";
  EXPECT_EQ(peep(e8), e8);
  const std::string unknown = "\tvle32.v\tv4, (a0)\n\tvadd.vv\tv8, v4, v12\n\tvmv.v.i\tv4, 0\n\tret\n";
  EXPECT_EQ(peep(unknown), unknown);
}

}  // namespace
}  // namespace tlmcraft::isa::riscv
