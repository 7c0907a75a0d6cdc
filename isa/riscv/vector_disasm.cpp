// disassemble_vector(): objdump-style text for Zve32x encodings ("vadd.vv v1,v2,v3",
// "vle8.v v4,(a0),v0.t", "vsetvli t0,a0,e8,m1,ta,ma"). Returns "" for words that are not
// vector instructions.
#include <string>

#include "isa/riscv/hart.h"

namespace tlmcraft::isa::riscv {
namespace {

const char* const kXNames[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
                                 "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
                                 "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
                                 "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

std::string vr(unsigned r) { return "v" + std::to_string(r); }
std::string xr(unsigned r) { return kXNames[r & 31]; }

// OPIVV/OPIVX/OPIVI and OPMVV/OPMVX mnemonics by funct6 (nullptr: no such instruction).
const char* opi_name(unsigned f6) {
  switch (f6) {
    case 0x00: return "vadd"; case 0x02: return "vsub"; case 0x03: return "vrsub";
    case 0x04: return "vminu"; case 0x05: return "vmin"; case 0x06: return "vmaxu";
    case 0x07: return "vmax"; case 0x09: return "vand"; case 0x0a: return "vor";
    case 0x0b: return "vxor"; case 0x0c: return "vrgather"; case 0x0e: return "vslideup";
    case 0x0f: return "vslidedown"; case 0x10: return "vadc"; case 0x11: return "vmadc";
    case 0x12: return "vsbc"; case 0x13: return "vmsbc"; case 0x17: return "vmerge";
    case 0x18: return "vmseq"; case 0x19: return "vmsne"; case 0x1a: return "vmsltu";
    case 0x1b: return "vmslt"; case 0x1c: return "vmsleu"; case 0x1d: return "vmsle";
    case 0x1e: return "vmsgtu"; case 0x1f: return "vmsgt"; case 0x20: return "vsaddu";
    case 0x21: return "vsadd"; case 0x22: return "vssubu"; case 0x23: return "vssub";
    case 0x25: return "vsll"; case 0x27: return "vsmul"; case 0x28: return "vsrl";
    case 0x29: return "vsra"; case 0x2a: return "vssrl"; case 0x2b: return "vssra";
    case 0x2c: return "vnsrl"; case 0x2d: return "vnsra"; case 0x2e: return "vnclipu";
    case 0x2f: return "vnclip"; case 0x30: return "vwredsumu"; case 0x31: return "vwredsum";
    default: return nullptr;
  }
}
const char* opm_name(unsigned f6) {
  switch (f6) {
    case 0x00: return "vredsum"; case 0x01: return "vredand"; case 0x02: return "vredor";
    case 0x03: return "vredxor"; case 0x04: return "vredminu"; case 0x05: return "vredmin";
    case 0x06: return "vredmaxu"; case 0x07: return "vredmax"; case 0x08: return "vaaddu";
    case 0x09: return "vaadd"; case 0x0a: return "vasubu"; case 0x0b: return "vasub";
    case 0x0e: return "vslide1up"; case 0x0f: return "vslide1down";
    case 0x17: return "vcompress"; case 0x18: return "vmandn"; case 0x19: return "vmand";
    case 0x1a: return "vmor"; case 0x1b: return "vmxor"; case 0x1c: return "vmorn";
    case 0x1d: return "vmnand"; case 0x1e: return "vmnor"; case 0x1f: return "vmxnor";
    case 0x20: return "vdivu"; case 0x21: return "vdiv"; case 0x22: return "vremu";
    case 0x23: return "vrem"; case 0x24: return "vmulhu"; case 0x25: return "vmul";
    case 0x26: return "vmulhsu"; case 0x27: return "vmulh"; case 0x29: return "vmadd";
    case 0x2b: return "vnmsub"; case 0x2d: return "vmacc"; case 0x2f: return "vnmsac";
    case 0x30: return "vwaddu"; case 0x31: return "vwadd"; case 0x32: return "vwsubu";
    case 0x33: return "vwsub"; case 0x34: return "vwaddu"; case 0x35: return "vwadd";
    case 0x36: return "vwsubu"; case 0x37: return "vwsub"; case 0x38: return "vwmulu";
    case 0x3a: return "vwmulsu"; case 0x3b: return "vwmul"; case 0x3c: return "vwmaccu";
    case 0x3d: return "vwmacc"; case 0x3e: return "vwmaccus"; case 0x3f: return "vwmaccsu";
    default: return nullptr;
  }
}

// "e8,m1,ta,ma"; the raw number when the value is not a valid vtype.
std::string vtype_text(uint32_t vtype) {
  const unsigned sew = (vtype >> 3) & 7, lmul = vtype & 7;
  if ((vtype >> 8) != 0 || sew > 3 || lmul == 4) return std::to_string(vtype);
  static const char* const kLmul[8] = {"m1", "m2", "m4", "m8", "", "mf8", "mf4", "mf2"};
  std::string s = "e" + std::to_string(8u << sew) + "," + kLmul[lmul];
  s += (vtype >> 6) & 1 ? ",ta" : ",tu";
  s += (vtype >> 7) & 1 ? ",ma" : ",mu";
  return s;
}

std::string config_text(uint32_t raw, unsigned rd, unsigned rs1, unsigned rs2) {
  if ((raw >> 31) == 0)
    return "vsetvli " + xr(rd) + "," + xr(rs1) + "," + vtype_text((raw >> 20) & 0x7ff);
  if ((raw >> 30) == 3)
    return "vsetivli " + xr(rd) + "," + std::to_string(rs1) + "," +
           vtype_text((raw >> 20) & 0x3ff);
  if ((raw >> 25) == 0x40) return "vsetvl " + xr(rd) + "," + xr(rs1) + "," + xr(rs2);
  return "";
}

std::string arith_text(uint32_t raw, unsigned rd, unsigned rs1, unsigned rs2) {
  const unsigned f3 = (raw >> 12) & 7, f6 = raw >> 26;
  const bool vm = (raw >> 25) & 1;
  const std::string mask = vm ? "" : ",v0.t";
  const bool opm = f3 == 2 || f3 == 6;
  const bool vform = f3 == 0 || f3 == 2, xform = f3 == 4 || f3 == 6;
  const std::string op1 = vform ? vr(rs1)
                          : xform ? xr(rs1)
                          : std::to_string(f6 == 0x0c || f6 == 0x0e || f6 == 0x0f || f6 == 0x25 ||
                                                   (f6 >= 0x28 && f6 <= 0x2f)
                                               ? int32_t(rs1)
                                               : int32_t(rs1 << 27) >> 27);
  const char kind = vform ? 'v' : xform ? 'x' : 'i';

  if (f3 == 2) {  // OPMVV unary groups and vcompress
    if (f6 == 0x10) {
      if (rs1 == 0x00) return "vmv.x.s " + xr(rd) + "," + vr(rs2);
      if (rs1 == 0x10) return "vcpop.m " + xr(rd) + "," + vr(rs2) + mask;
      if (rs1 == 0x11) return "vfirst.m " + xr(rd) + "," + vr(rs2) + mask;
      return "";
    }
    if (f6 == 0x12) {
      static const char* const kExt[8] = {nullptr, nullptr, "vzext.vf8", "vsext.vf8",
                                          "vzext.vf4", "vsext.vf4", "vzext.vf2", "vsext.vf2"};
      if (rs1 >= 8 || kExt[rs1] == nullptr) return "";
      return std::string(kExt[rs1]) + " " + vr(rd) + "," + vr(rs2) + mask;
    }
    if (f6 == 0x14) {
      switch (rs1) {
        case 0x01: return "vmsbf.m " + vr(rd) + "," + vr(rs2) + mask;
        case 0x02: return "vmsof.m " + vr(rd) + "," + vr(rs2) + mask;
        case 0x03: return "vmsif.m " + vr(rd) + "," + vr(rs2) + mask;
        case 0x10: return "viota.m " + vr(rd) + "," + vr(rs2) + mask;
        case 0x11: return "vid.v " + vr(rd) + mask;
        default: return "";
      }
    }
    if (f6 == 0x17) return "vcompress.vm " + vr(rd) + "," + vr(rs2) + "," + vr(rs1);
  }
  if (f3 == 6 && f6 == 0x10) return "vmv.s.x " + vr(rd) + "," + xr(rs1);
  if (f3 == 3 && f6 == 0x27) return "vmv" + std::to_string(rs1 + 1) + "r.v " + vr(rd) + "," + vr(rs2);

  const char* name = opm ? opm_name(f6) : opi_name(f6);
  if (name == nullptr) return "";
  std::string n = name;
  if (!opm && f6 == 0x0e && vform) n = "vrgatherei16";
  const std::string vd = vr(rd), vs2 = vr(rs2);

  if (!opm && f6 == 0x17) {  // vmerge / vmv.v.*
    if (vm) return std::string("vmv.v.") + kind + " " + vd + "," + op1;
    return "vmerge.v" + std::string(1, kind) + "m " + vd + "," + vs2 + "," + op1 + ",v0";
  }
  if (!opm && (f6 == 0x10 || f6 == 0x12))  // vadc / vsbc always take v0
    return n + ".v" + kind + "m " + vd + "," + vs2 + "," + op1 + ",v0";
  if (!opm && (f6 == 0x11 || f6 == 0x13)) {  // vmadc / vmsbc
    if (vm) return n + ".v" + kind + " " + vd + "," + vs2 + "," + op1;
    return n + ".v" + kind + "m " + vd + "," + vs2 + "," + op1 + ",v0";
  }
  std::string suffix = std::string(".v") + kind;
  if ((opm && f6 <= 0x07) || (!opm && (f6 == 0x30 || f6 == 0x31))) suffix = ".vs";
  else if (opm && f6 >= 0x18 && f6 <= 0x1f) suffix = ".mm";
  else if ((!opm && f6 >= 0x2c && f6 <= 0x2f) || (opm && f6 >= 0x34 && f6 <= 0x37))
    suffix = std::string(".w") + kind;
  const bool multiply_add = opm && (f6 == 0x29 || f6 == 0x2b || f6 == 0x2d || f6 == 0x2f ||
                                    f6 >= 0x3c);
  if (multiply_add) return n + suffix + " " + vd + "," + op1 + "," + vs2 + mask;
  return n + suffix + " " + vd + "," + vs2 + "," + op1 + mask;
}

std::string memory_text(uint32_t raw, unsigned rd, unsigned rs1, unsigned rs2) {
  const bool store = (raw & 0x7f) == 0x27;
  const unsigned width = (raw >> 12) & 7;
  unsigned eew;
  switch (width) {
    case 0: eew = 8; break;
    case 5: eew = 16; break;
    case 6: eew = 32; break;
    case 7: eew = 64; break;
    default: return "";
  }
  const unsigned mop = (raw >> 26) & 3, nf = (raw >> 29) + 1, lumop = rs2;
  const bool vm = (raw >> 25) & 1;
  const std::string mask = vm ? "" : ",v0.t";
  const std::string e = std::to_string(eew);
  const std::string seg = nf > 1 ? "seg" + std::to_string(nf) : "";
  const std::string addr = "(" + xr(rs1) + ")";
  const std::string ls = store ? "vs" : "vl";
  std::string name;
  std::string extra;
  switch (mop) {
    case 0:
      if (lumop == 0x00) name = ls + seg + "e" + e + ".v";
      else if (lumop == 0x10 && !store) name = ls + seg + "e" + e + "ff.v";
      else if (lumop == 0x08)
        // objdump prints the EEW-8 whole-register load as its alias vl<n>r.v.
        name = store || eew == 8 ? ls + std::to_string(nf) + "r.v"
                                 : "vl" + std::to_string(nf) + "re" + e + ".v";
      else if (lumop == 0x0b) name = store ? "vsm.v" : "vlm.v";
      else return "";
      break;
    case 2: name = ls + "s" + seg + "e" + e + ".v"; extra = "," + xr(rs2); break;
    default:
      name = ls + (mop == 1 ? "ux" : "ox") + seg + "ei" + e + ".v";
      extra = "," + vr(rs2);
      break;
  }
  return name + " " + vr(rd) + "," + addr + extra + mask;
}

}  // namespace

std::string disassemble_vector(uint32_t raw) {
  const unsigned opcode = raw & 0x7f;
  const unsigned rd = (raw >> 7) & 31, rs1 = (raw >> 15) & 31, rs2 = (raw >> 20) & 31;
  if (opcode == 0x57) {
    const unsigned f3 = (raw >> 12) & 7;
    if (f3 == 7) return config_text(raw, rd, rs1, rs2);
    if (f3 == 1 || f3 == 5) return "";  // vector floating point: not in Zve32x
    return arith_text(raw, rd, rs1, rs2);
  }
  if (opcode == 0x07 || opcode == 0x27) return memory_text(raw, rd, rs1, rs2);
  return "";
}

}  // namespace tlmcraft::isa::riscv
