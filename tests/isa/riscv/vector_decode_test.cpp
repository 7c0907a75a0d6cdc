// Decoding and disassembly: every word of a reference listing (assembled and disassembled
// by GNU binutils 2.40, riscv64-unknown-elf, -march=rv32imf_zve32x) decodes and prints
// exactly as objdump prints it; reserved encodings do not decode; operation classes and
// register dependencies; and vector instructions running through Hart::step().
#include "tests/isa/riscv/vector_test_support.h"

namespace tlmcraft::isa::riscv::vtest {
namespace {

struct Listing {
  uint32_t word;
  const char* text;
};

// Word and objdump text pairs from riscv64-unknown-elf-objdump -d.
const Listing kObjdump[] = {
    {0x0c0572d7, "vsetvli t0,a0,e8,m1,ta,ma"},
    {0xc0f272d7, "vsetivli t0,4,e16,mf2,tu,mu"},
    {0x80b572d7, "vsetvl t0,a0,a1"},
    {0x022180d7, "vadd.vv v1,v2,v3"},
    {0x002540d7, "vadd.vx v1,v2,a0,v0.t"},
    {0x022830d7, "vadd.vi v1,v2,-16"},
    {0x0a2180d7, "vsub.vv v1,v2,v3"},
    {0x0e22b0d7, "vrsub.vi v1,v2,5"},
    {0x122180d7, "vminu.vv v1,v2,v3"},
    {0x1e25c0d7, "vmax.vx v1,v2,a1"},
    {0x2627b0d7, "vand.vi v1,v2,15"},
    {0x2a2180d7, "vor.vv v1,v2,v3"},
    {0x2e2640d7, "vxor.vx v1,v2,a2"},
    {0x962fb0d7, "vsll.vi v1,v2,31"},
    {0xa22540d7, "vsrl.vx v1,v2,a0"},
    {0xa62180d7, "vsra.vv v1,v2,v3"},
    {0xb221b0d7, "vnsrl.wi v1,v2,3"},
    {0xb62540d7, "vnsra.wx v1,v2,a0"},
    {0xb02180d7, "vnsrl.wv v1,v2,v3,v0.t"},
    {0x622180d7, "vmseq.vv v1,v2,v3"},
    {0x662fb0d7, "vmsne.vi v1,v2,-1"},
    {0x6a2540d7, "vmsltu.vx v1,v2,a0"},
    {0x6e2180d7, "vmslt.vv v1,v2,v3"},
    {0x7223b0d7, "vmsleu.vi v1,v2,7"},
    {0x762180d7, "vmsle.vv v1,v2,v3"},
    {0x7a2540d7, "vmsgtu.vx v1,v2,a0"},
    {0x7e2eb0d7, "vmsgt.vi v1,v2,-3"},
    {0x402180d7, "vadc.vvm v1,v2,v3,v0"},
    {0x4021b0d7, "vadc.vim v1,v2,3,v0"},
    {0x442180d7, "vmadc.vvm v1,v2,v3,v0"},
    {0x462180d7, "vmadc.vv v1,v2,v3"},
    {0x4620b0d7, "vmadc.vi v1,v2,1"},
    {0x482540d7, "vsbc.vxm v1,v2,a0,v0"},
    {0x4e2180d7, "vmsbc.vv v1,v2,v3"},
    {0x5c2180d7, "vmerge.vvm v1,v2,v3,v0"},
    {0x5c2540d7, "vmerge.vxm v1,v2,a0,v0"},
    {0x5c2f30d7, "vmerge.vim v1,v2,-2,v0"},
    {0x5e0180d7, "vmv.v.v v1,v3"},
    {0x5e0540d7, "vmv.v.x v1,a0"},
    {0x5e02b0d7, "vmv.v.i v1,5"},
    {0xc242a157, "vwaddu.vv v2,v4,v5"},
    {0xc6456157, "vwadd.vx v2,v4,a0"},
    {0xda42a157, "vwsubu.wv v2,v4,v5"},
    {0xde456157, "vwsub.wx v2,v4,a0"},
    {0x4a2320d7, "vzext.vf2 v1,v2"},
    {0x4822a0d7, "vsext.vf4 v1,v2,v0.t"},
    {0x9621a0d7, "vmul.vv v1,v2,v3"},
    {0x9e2560d7, "vmulh.vx v1,v2,a0"},
    {0x9221a0d7, "vmulhu.vv v1,v2,v3"},
    {0x9a21a0d7, "vmulhsu.vv v1,v2,v3"},
    {0x8221a0d7, "vdivu.vv v1,v2,v3"},
    {0x862560d7, "vdiv.vx v1,v2,a0"},
    {0x8a21a0d7, "vremu.vv v1,v2,v3"},
    {0x8e21a0d7, "vrem.vv v1,v2,v3"},
    {0xee42a157, "vwmul.vv v2,v4,v5"},
    {0xe2456157, "vwmulu.vx v2,v4,a0"},
    {0xea42a157, "vwmulsu.vv v2,v4,v5"},
    {0xb63120d7, "vmacc.vv v1,v2,v3"},
    {0xb63560d7, "vmacc.vx v1,a0,v3"},
    {0xbe3120d7, "vnmsac.vv v1,v2,v3"},
    {0xa63560d7, "vmadd.vx v1,a0,v3"},
    {0xae3120d7, "vnmsub.vv v1,v2,v3"},
    {0xf2522157, "vwmaccu.vv v2,v4,v5"},
    {0xf6556157, "vwmacc.vx v2,a0,v5"},
    {0xfe522157, "vwmaccsu.vv v2,v4,v5"},
    {0xfa556157, "vwmaccus.vx v2,a0,v5"},
    {0x822fb0d7, "vsaddu.vi v1,v2,-1"},
    {0x862180d7, "vsadd.vv v1,v2,v3"},
    {0x8a2540d7, "vssubu.vx v1,v2,a0"},
    {0x8e2180d7, "vssub.vv v1,v2,v3"},
    {0x2221a0d7, "vaaddu.vv v1,v2,v3"},
    {0x262560d7, "vaadd.vx v1,v2,a0"},
    {0x2a21a0d7, "vasubu.vv v1,v2,v3"},
    {0x2e21a0d7, "vasub.vv v1,v2,v3"},
    {0x9e2180d7, "vsmul.vv v1,v2,v3"},
    {0xaa21b0d7, "vssrl.vi v1,v2,3"},
    {0xae2540d7, "vssra.vx v1,v2,a0"},
    {0xba2230d7, "vnclipu.wi v1,v2,4"},
    {0xbe2180d7, "vnclip.wv v1,v2,v3"},
    {0x0221a0d7, "vredsum.vs v1,v2,v3"},
    {0x1a21a0d7, "vredmaxu.vs v1,v2,v3"},
    {0x1c21a0d7, "vredmax.vs v1,v2,v3,v0.t"},
    {0x1221a0d7, "vredminu.vs v1,v2,v3"},
    {0x1621a0d7, "vredmin.vs v1,v2,v3"},
    {0x0621a0d7, "vredand.vs v1,v2,v3"},
    {0x0a21a0d7, "vredor.vs v1,v2,v3"},
    {0x0e21a0d7, "vredxor.vs v1,v2,v3"},
    {0xc22180d7, "vwredsumu.vs v1,v2,v3"},
    {0xc62180d7, "vwredsum.vs v1,v2,v3"},
    {0x6621a0d7, "vmand.mm v1,v2,v3"},
    {0x7621a0d7, "vmnand.mm v1,v2,v3"},
    {0x6221a0d7, "vmandn.mm v1,v2,v3"},
    {0x6e21a0d7, "vmxor.mm v1,v2,v3"},
    {0x6a21a0d7, "vmor.mm v1,v2,v3"},
    {0x7a21a0d7, "vmnor.mm v1,v2,v3"},
    {0x7221a0d7, "vmorn.mm v1,v2,v3"},
    {0x7e21a0d7, "vmxnor.mm v1,v2,v3"},
    {0x42282557, "vcpop.m a0,v2"},
    {0x4028a557, "vfirst.m a0,v2,v0.t"},
    {0x5220a0d7, "vmsbf.m v1,v2"},
    {0x5221a0d7, "vmsif.m v1,v2"},
    {0x502120d7, "vmsof.m v1,v2,v0.t"},
    {0x522820d7, "viota.m v1,v2"},
    {0x5208a0d7, "vid.v v1"},
    {0x42202557, "vmv.x.s a0,v2"},
    {0x420560d7, "vmv.s.x v1,a0"},
    {0x3a2540d7, "vslideup.vx v1,v2,a0"},
    {0x3a21b0d7, "vslideup.vi v1,v2,3"},
    {0x3e2540d7, "vslidedown.vx v1,v2,a0"},
    {0x3e2fb0d7, "vslidedown.vi v1,v2,31"},
    {0x3a2560d7, "vslide1up.vx v1,v2,a0"},
    {0x3e2560d7, "vslide1down.vx v1,v2,a0"},
    {0x322180d7, "vrgather.vv v1,v2,v3"},
    {0x322540d7, "vrgather.vx v1,v2,a0"},
    {0x3223b0d7, "vrgather.vi v1,v2,7"},
    {0x3a2200d7, "vrgatherei16.vv v1,v2,v4"},
    {0x5e21a0d7, "vcompress.vm v1,v2,v3"},
    {0x9e2030d7, "vmv1r.v v1,v2"},
    {0x9e40b157, "vmv2r.v v2,v4"},
    {0x9e81b257, "vmv4r.v v4,v8"},
    {0x9f03b457, "vmv8r.v v8,v16"},
    {0x02050207, "vle8.v v4,(a0)"},
    {0x00055207, "vle16.v v4,(a0),v0.t"},
    {0x02056207, "vle32.v v4,(a0)"},
    {0x02058227, "vse8.v v4,(a1)"},
    {0x0005e227, "vse32.v v4,(a1),v0.t"},
    {0x0ab55207, "vlse16.v v4,(a0),a1"},
    {0x0ab56227, "vsse32.v v4,(a0),a1"},
    {0x06850207, "vluxei8.v v4,(a0),v8"},
    {0x0c855207, "vloxei16.v v4,(a0),v8,v0.t"},
    {0x06856227, "vsuxei32.v v4,(a0),v8"},
    {0x0e850227, "vsoxei8.v v4,(a0),v8"},
    {0x22050207, "vlseg2e8.v v4,(a0)"},
    {0xe2055407, "vlseg8e16.v v8,(a0)"},
    {0x42056227, "vsseg3e32.v v4,(a0)"},
    {0x2ab50207, "vlsseg2e8.v v4,(a0),a1"},
    {0x6ab55227, "vssseg4e16.v v4,(a0),a1"},
    {0x26850207, "vluxseg2ei8.v v4,(a0),v8"},
    {0x4e855207, "vloxseg3ei16.v v4,(a0),v8"},
    {0x26856227, "vsuxseg2ei32.v v4,(a0),v8"},
    {0x2e850227, "vsoxseg2ei8.v v4,(a0),v8"},
    {0x03050207, "vle8ff.v v4,(a0)"},
    {0x01056207, "vle32ff.v v4,(a0),v0.t"},
    {0x23055207, "vlseg2e16ff.v v4,(a0)"},
    {0x02850207, "vl1r.v v4,(a0)"},
    {0x22855207, "vl2re16.v v4,(a0)"},
    {0x62856207, "vl4re32.v v4,(a0)"},
    {0xe2850407, "vl8r.v v8,(a0)"},
    {0x02850227, "vs1r.v v4,(a0)"},
    {0x22850227, "vs2r.v v4,(a0)"},
    {0x62850227, "vs4r.v v4,(a0)"},
    {0xe2850427, "vs8r.v v8,(a0)"},
    {0x02b50207, "vlm.v v4,(a0)"},
    {0x02b50227, "vsm.v v4,(a0)"},
};

TEST(VectorDecode, MatchesObjdumpListing) {
  for (const Listing& l : kObjdump) {
    DecodedInsn d;
    EXPECT_TRUE(decode_vector(l.word, d)) << l.text;
    EXPECT_NE(d.exec, nullptr) << l.text;
    EXPECT_EQ(disassemble_vector(l.word), l.text);
  }
}

TEST(VectorDecode, ReservedEncodingsDoNotDecode) {
  const uint32_t reserved[] = {
      opv(0x00, 1, 1, 2, 3),          // OPFVV vfadd.vv: no vector FP in Zve32x
      opv(0x00, 5, 1, 2, 3),          // OPFVF
      opv(0x10, IVV, 1, 2, 3),        // vadc with vm = 1
      opv(0x19, MVV, 1, 2, 3, true),  // vmand.mm masked
      opv(0x12, MVV, 1, 2, 0x02),     // vzext.vf8 (needs SEW 64)
      opv(0x17, IVV, 1, 2, 3),        // vmv.v.v with vs2 != 0
      opv(0x11, MVV, 1, 2, 3),        // unassigned funct6
      opv(0x03, IVV, 1, 2, 3),        // vrsub has no .vv form
      opv(0x27, IVI, 1, 2, 2),        // vmv3r.v
      opv(0x10, MVX, 1, 2, 10),       // vmv.s.x with vs2 != 0
      vmem(false, 3, kUnit, false, 0x08, 10, 8, 4),   // vl3re8.v
      vmem(true, 2, kUnit, false, 0x08, 10, 16, 4),   // vs2r.v with EEW 16
      vle(64, 4, 10),                                 // EEW 64
      vle(8, 4, 10) | 1u << 28,                       // mew = 1
      vmem(false, 1, kUnit, false, 0x05, 10, 8, 4),   // unassigned lumop
      vmem(true, 1, kUnit, false, 0x10, 10, 8, 4),    // no fault-only-first store
      vmem(false, 1, kUnit, true, 0x0b, 10, 8, 4),    // masked vlm.v
      0x82007057u,  // OPCFG with bits 31:25 = 1000001 (neither vsetvl nor vsetivli)
  };
  for (uint32_t raw : reserved) {
    DecodedInsn d;
    EXPECT_FALSE(decode_vector(raw, d)) << std::hex << raw << " " << disassemble_vector(raw);
  }
  EXPECT_EQ(disassemble_vector(0x00000013), "");  // addi x0, x0, 0
  EXPECT_EQ(disassemble_vector(0x00052007), "");  // flw
}

TEST(VectorDecode, ClassesAndDependencies) {
  DecodedInsn d;
  const struct { uint32_t raw; OpClass cls; } cases[] = {
      {opv(0x00, IVV, 1, 2, 3), OpClass::VecAlu},
      {opv(0x30, MVV, 2, 4, 5), OpClass::VecAlu},         // vwaddu
      {opv(0x25, MVV, 1, 2, 3), OpClass::VecMul},
      {opv(0x3d, MVX, 2, 4, 10), OpClass::VecMul},        // vwmacc
      {opv(0x21, MVV, 1, 2, 3), OpClass::VecDiv},
      {opv(0x20, IVV, 1, 2, 3), OpClass::VecFixedPoint},  // vsaddu
      {opv(0x2f, IVI, 1, 2, 3), OpClass::VecFixedPoint},  // vnclip
      {opv(0x00, MVV, 1, 2, 3), OpClass::VecReduction},
      {opv(0x30, IVV, 1, 2, 3), OpClass::VecReduction},   // vwredsumu
      {opv(0x19, MVV, 1, 2, 3), OpClass::VecMask},
      {opv(0x14, MVV, 1, 0, 0x11), OpClass::VecMask},     // vid
      {opv(0x10, MVV, 10, 2, 0x00), OpClass::VecToScalar},
      {opv(0x10, MVV, 10, 2, 0x10), OpClass::VecToScalar},
      {opv(0x10, MVV, 10, 2, 0x11), OpClass::VecToScalar},
      {opv(0x0c, IVV, 1, 2, 3), OpClass::VecPermute},
      {opv(0x0f, MVX, 1, 2, 10), OpClass::VecPermute},
      {opv(0x17, MVV, 1, 2, 3), OpClass::VecPermute},
      {vle(8, 1, 10), OpClass::VecLoad},
      {vse(8, 1, 10), OpClass::VecStore},
      {vsetvli(5, 10, 0), OpClass::VecConfig},
  };
  for (const auto& c : cases) {
    ASSERT_TRUE(decode_vector(c.raw, d)) << disassemble_vector(c.raw);
    EXPECT_EQ(d.cls, c.cls) << disassemble_vector(c.raw);
  }
  // vadd.vx v1, v2, a0, v0.t: writes v1, reads v2, a0, v0.
  ASSERT_TRUE(decode_vector(opv(0x00, IVX, 1, 2, 10, true), d));
  EXPECT_EQ(d.dst[0], kVecBase + 1);
  EXPECT_EQ(d.src[0], kVecBase + 2);
  EXPECT_EQ(d.src[1], 10);
  EXPECT_EQ(d.src[2], kVecBase + 0);
  EXPECT_EQ(d.src[3], kNoReg);
  // vmv.x.s a0, v2 writes x10; vcpop.m zero, v2 writes nothing.
  ASSERT_TRUE(decode_vector(opv(0x10, MVV, 10, 2, 0), d));
  EXPECT_EQ(d.dst[0], 10);
  ASSERT_TRUE(decode_vector(opv(0x10, MVV, 0, 2, 0x10), d));
  EXPECT_EQ(d.dst[0], kNoReg);
  // vmv.v.i reads nothing; vid.v reads nothing.
  ASSERT_TRUE(decode_vector(opv(0x17, IVI, 1, 0, 5), d));
  EXPECT_EQ(d.src[0], kNoReg);
  ASSERT_TRUE(decode_vector(opv(0x14, MVV, 1, 0, 0x11), d));
  EXPECT_EQ(d.src[0], kNoReg);
  // vsuxei8.v v4, (a0), v8, v0.t reads v4, a0, v8, v0.
  ASSERT_TRUE(decode_vector(vmem(true, 1, kIndexedUnordered, true, 8, 10, 8, 4), d));
  EXPECT_EQ(d.dst[0], kNoReg);
  EXPECT_EQ(d.src[0], kVecBase + 4);
  EXPECT_EQ(d.src[1], 10);
  EXPECT_EQ(d.src[2], kVecBase + 8);
  EXPECT_EQ(d.src[3], kVecBase + 0);
  // .vi immediates: sign-extended except shifts, slides and gathers.
  ASSERT_TRUE(decode_vector(opv(0x00, IVI, 1, 2, 0x1f), d));
  EXPECT_EQ(d.imm, -1);
  ASSERT_TRUE(decode_vector(opv(0x0f, IVI, 1, 2, 0x1f), d));
  EXPECT_EQ(d.imm, 31);
}

// A vector kernel executed through the hart's step loop (decode() -> decode_vector()):
// c[i] = a[i] + b[i] for 20 int16 elements, strip-mined with vsetvli.
TEST_F(VectorTest, StripMinedLoopThroughStep) {
  std::vector<uint8_t> itcm(0x100, 0);
  const uint32_t program[] = {
      vsetvli(5, 10, vtypei(16, 0)),  // loop: vsetvli t0, a0, e16, m1
      vle(16, 1, 11),                 // vle16.v v1, (a1)
      vle(16, 2, 12),                 // vle16.v v2, (a2)
      opv(0x00, IVV, 3, 1, 2),        // vadd.vv v3, v1, v2
      vse(16, 3, 13),                 // vse16.v v3, (a3)
      0x00129293,                     // slli t0, t0, 1
      0x005585b3,                     // add a1, a1, t0
      0x00560633,                     // add a2, a2, t0
      0x005686b3,                     // add a3, a3, t0
      0x0012d293,                     // srli t0, t0, 1
      0x40550533,                     // sub a0, a0, t0
      0xfc051ae3,                     // bnez a0, loop (-44)
      0x08000073,                     // mpause
  };
  std::memcpy(itcm.data(), program, sizeof program);
  MemoryRegion r;
  r.name = "itcm";
  r.base = 0;
  r.size = 0x100;
  r.data = itcm.data();
  r.writable = false;
  r.executable = true;
  h.add_region(r);
  for (unsigned i = 0; i < 20; ++i) {
    poke<uint16_t>(kBase + 2 * i, uint16_t(1000 * i));
    poke<uint16_t>(kBase + 0x100 + 2 * i, uint16_t(i + 7));
  }
  h.x[10] = 20;
  h.x[11] = kBase;
  h.x[12] = kBase + 0x100;
  h.x[13] = kBase + 0x200;
  h.pc = 0;
  h.run(1000);
  ASSERT_TRUE(h.halted);
  for (unsigned i = 0; i < 20; ++i) EXPECT_EQ(peek<uint16_t>(kBase + 0x200 + 2 * i), 1001 * i + 7) << i;
  // Three strips of 8, 8, 4 elements: 3 * 12 instructions + mpause.
  EXPECT_EQ(h.minstret, 37u);
  EXPECT_EQ(h.vl, 4u);
}

}  // namespace
}  // namespace tlmcraft::isa::riscv::vtest
