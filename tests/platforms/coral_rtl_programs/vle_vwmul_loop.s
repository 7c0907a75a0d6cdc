# coral-rtl: 160
# measured: coral-rtl vle_vwmul_loop.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# two DTCM vle8.v m2 and a vwmul.vv of the two into m4, 8 times: the vwmul's micro-ops read each loaded
# register as the LSU hands it over (a cycle earlier than its write-back), so the next loads, queued
# behind them, start a cycle earlier each step. 168 with loaded registers readable a cycle after the
# hand-over
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
  vsetvli zero, zero, e8, m2, ta, ma
  vwmul.vv v20, v16, v18
  vsetvli zero, zero, e16, m4, ta, ma
  .endr
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
