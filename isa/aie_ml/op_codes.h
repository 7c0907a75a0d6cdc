// The semantic operation behind each mnemonic of isa/aie_ml/aie_ml.yaml. Every op listed
// here must be in the YAML (AieIsa::get() refuses a description that lacks one); a YAML op
// not listed here is an op added by data and needs `compose:` or `semantics:`
// (Code::Extension, extension_ops.h).
#pragma once
#include <cstdint>
#include <string>

namespace tlmcraft::isa::aie_ml {

#define TLM_AIE_OPS(X)                                                                      \
  X(VLDA, "VLDA") X(VLDB, "VLDB") X(VLDA_UPS_S32_S8, "VLDA.UPS.S32.S8")                     \
  X(VLDA_CONV_FP32_BF16, "VLDA.CONV.FP32.BF16") X(LDA, "LDA") X(LDA_S16, "LDA.S16")         \
  X(LDA_U16, "LDA.U16") X(LDA_S8, "LDA.S8") X(LDA_U8, "LDA.U8") X(PADDA, "PADDA")           \
  X(PADDB, "PADDB") X(VST, "VST") X(VST_SRS_S8_S32, "VST.SRS.S8.S32")                       \
  X(VST_SRS_S16_S32, "VST.SRS.S16.S32") X(VST_CONV_BF16_FP32, "VST.CONV.BF16.FP32")         \
  X(ST, "ST") X(ST_S16, "ST.S16") X(ST_S8, "ST.S8") X(PADDS, "PADDS")                       \
  X(ADD, "ADD") X(SUB, "SUB") X(MUL, "MUL") X(AND, "AND") X(OR, "OR") X(XOR, "XOR")         \
  X(LSHL, "LSHL") X(ASHL, "ASHL") X(LT, "LT") X(LTU, "LTU") X(GE, "GE") X(GEU, "GEU")       \
  X(EQ, "EQ") X(NE, "NE") X(SEL_EQZ, "SEL.EQZ") X(SEL_NEZ, "SEL.NEZ") X(J, "J") X(JL, "JL") \
  X(JZ, "JZ") X(JNZ, "JNZ") X(JNZD, "JNZD") X(RET, "RET") X(ACQ, "ACQ") X(ACQ_EQ, "ACQ.EQ")  \
  X(REL, "REL") X(DONE, "DONE") X(MOV, "MOV") X(MOVX, "MOVX") X(MOVXM, "MOVXM")             \
  X(VMOV, "VMOV") X(VMUL_I8, "VMUL.I8") X(VMAC_I8, "VMAC.I8") X(VMSC_I8, "VMSC.I8")         \
  X(VMUL_I16, "VMUL.I16") X(VMAC_I16, "VMAC.I16") X(VMUL_BF16, "VMUL.BF16")                 \
  X(VMAC_BF16, "VMAC.BF16") X(VMSC_BF16, "VMSC.BF16") X(VMUL_E_S8, "VMUL.E.S8")             \
  X(VMAC_E_S8, "VMAC.E.S8") X(VMUL_E_S16, "VMUL.E.S16") X(VMAC_E_S16, "VMAC.E.S16")         \
  X(VMUL_E_BF16, "VMUL.E.BF16") X(VMAC_E_BF16, "VMAC.E.BF16") X(VADD_ACC32, "VADD.ACC32")   \
  X(VSUB_ACC32, "VSUB.ACC32") X(VADD_ACC64, "VADD.ACC64") X(VADD_F, "VADD.F")               \
  X(VSUB_F, "VSUB.F") X(VADD_8, "VADD.8") X(VADD_16, "VADD.16") X(VADD_32, "VADD.32")       \
  X(VSUB_8, "VSUB.8") X(VSUB_16, "VSUB.16") X(VSUB_32, "VSUB.32") X(VMAX_S8, "VMAX.S8")     \
  X(VMAX_S16, "VMAX.S16") X(VMAX_S32, "VMAX.S32") X(VMAX_BF16, "VMAX.BF16")                 \
  X(VMIN_S8, "VMIN.S8") X(VMIN_S16, "VMIN.S16") X(VMIN_S32, "VMIN.S32")                     \
  X(VMIN_BF16, "VMIN.BF16") X(VLT_S8, "VLT.S8") X(VLT_S16, "VLT.S16") X(VLT_S32, "VLT.S32") \
  X(VLT_BF16, "VLT.BF16") X(VGE_S16, "VGE.S16") X(VGE_BF16, "VGE.BF16") X(VEQ_16, "VEQ.16") \
  X(VSEL_8, "VSEL.8") X(VSEL_16, "VSEL.16") X(VSEL_32, "VSEL.32") X(VBCST_8, "VBCST.8")     \
  X(VBCST_16, "VBCST.16") X(VBCST_32, "VBCST.32") X(VCLR, "VCLR")                           \
  X(VEXTRACT_S8, "VEXTRACT.S8") X(VEXTRACT_S16, "VEXTRACT.S16")                             \
  X(VEXTRACT_U16, "VEXTRACT.U16") X(VEXTRACT_S32, "VEXTRACT.S32") X(VINSERT_8, "VINSERT.8") \
  X(VINSERT_16, "VINSERT.16") X(VINSERT_32, "VINSERT.32") X(VSHIFT, "VSHIFT")               \
  X(VSHUFFLE, "VSHUFFLE") X(VSRS_S8_S32, "VSRS.S8.S32") X(VSRS_S16_S32, "VSRS.S16.S32")     \
  X(VSRS_S16_S64, "VSRS.S16.S64") X(VSRS_S32_S64, "VSRS.S32.S64")                           \
  X(VSRS_U8_S32, "VSRS.U8.S32") X(VUPS_S32_S8, "VUPS.S32.S8") X(VUPS_S32_S16, "VUPS.S32.S16") \
  X(VUPS_S64_S16, "VUPS.S64.S16") X(VUPS_S64_S32, "VUPS.S64.S32")                           \
  X(VCONV_FP32_BF16, "VCONV.FP32.BF16") X(VCONV_BF16_FP32, "VCONV.BF16.FP32")               \
  X(VCONV_FP32_S32, "VCONV.FP32.S32") X(VCONV_S32_FP32, "VCONV.S32.FP32") X(NOP, "NOP")

enum class Code : uint16_t {
#define TLM_AIE_ENUM(id, name) id,
  TLM_AIE_OPS(TLM_AIE_ENUM)
#undef TLM_AIE_ENUM
  Count,
  Extension = Count  // an op added by data (extension_ops.h): compose or semantics
};

// Code for a YAML mnemonic (exact, upper case); false if there are no semantics for it.
bool code_of(const std::string& mnemonic, Code& out);
const char* code_name(Code c);

}  // namespace tlmcraft::isa::aie_ml
