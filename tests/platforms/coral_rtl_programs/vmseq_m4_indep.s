# coral-rtl: 39
# model: 38 (the closing csrr: the compares' last result a cycle earlier)
# measured: coral-rtl vmseq_m4_indep.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# Compares into a mask run on the permute/reduction unit, one micro-op per cycle, with one reorder-buffer entry (rvv_backend_decode_unit_ari.sv: uop_exe_unit CMP; rvv_backend_dispatch_ctrl.sv): 8 vmseq.vv at e8 m4, 32 micro-ops at one per cycle.
  .globl main
main:
  vsetvli t2, zero, e8, m4, ta, ma
  vmv.v.i v24, 1
  vmv.v.i v28, 2
  vmv.v.i v16, 3
  csrr s0, mcycle
  vmseq.vv v1, v24, v28
  vmseq.vv v2, v24, v28
  vmseq.vv v3, v24, v28
  vmseq.vv v4, v24, v28
  vmseq.vv v5, v24, v28
  vmseq.vv v6, v24, v28
  vmseq.vv v7, v24, v28
  vmseq.vv v8, v24, v28
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
