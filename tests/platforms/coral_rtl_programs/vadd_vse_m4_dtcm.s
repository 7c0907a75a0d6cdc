# coral-rtl: 171
# measured: coral-rtl vadd_vse_m4_dtcm.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# a store of an arithmetic result waits for the whole result group, unlike a store of loaded registers (vle_vse_staging.s): 8 times vadd.vx m4, vse8.v of it to DTCM, lw, add (163 when the store took the vadd's registers one by one)
  .globl main
main:
  li a4, 0x10000
  li a7, 66
  li t1, 64
  vsetvli t2, t1, e8, m4, ta, ma
  vmv.v.i v24, 1
  nop
  csrr s0, mcycle
  vadd.vx v8, v24, a7
  vse8.v v8, (a4)
  lw t0, 1024(a4)
  add a0, a0, t0
  vadd.vx v8, v24, a7
  vse8.v v8, (a4)
  lw t0, 1024(a4)
  add a0, a0, t0
  vadd.vx v8, v24, a7
  vse8.v v8, (a4)
  lw t0, 1024(a4)
  add a0, a0, t0
  vadd.vx v8, v24, a7
  vse8.v v8, (a4)
  lw t0, 1024(a4)
  add a0, a0, t0
  vadd.vx v8, v24, a7
  vse8.v v8, (a4)
  lw t0, 1024(a4)
  add a0, a0, t0
  vadd.vx v8, v24, a7
  vse8.v v8, (a4)
  lw t0, 1024(a4)
  add a0, a0, t0
  vadd.vx v8, v24, a7
  vse8.v v8, (a4)
  lw t0, 1024(a4)
  add a0, a0, t0
  vadd.vx v8, v24, a7
  vse8.v v8, (a4)
  lw t0, 1024(a4)
  add a0, a0, t0
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
