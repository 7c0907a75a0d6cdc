# coral-rtl: 159
# measured: coral-rtl vle_vwadd_loop.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# two DTCM vle8.v m2 and a vwadd.wv accumulating into an e32 m8 group, 8 times: 19 cycles a step on the
# RTL once the reorder buffer is full, 18 LSU cycles and one more because a load's micro-op, leaving the
# queue as the oldest entry retires, reaches the LSU the cycle after. The model was 177 before the
# LSU micro-op rules of 2026-11-29, 152 with entries freeing at the hand-over alone
  .globl main
main:
  li a4, 0x10000
  addi a5, a4, 1024
  li t1, 32
  vsetvli t2, t1, e32, m8, ta, ma
  vmv.v.i v8, 0
  vmv.v.i v24, 0
  vsetvli zero, t1, e16, m4, ta, ma
  vmv.v.i v20, 0
  vsetvli zero, t1, e16, m4, ta, ma
  nop
  csrr s0, mcycle
  .rept 8
  vle8.v v16, (a4)
  vle8.v v18, (a5)
  vwadd.wv v8, v8, v20
  .endr
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
