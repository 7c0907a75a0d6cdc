# coral-rtl: 35
# measured: coral-rtl vwmaccu_chain.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
  .globl main
main:
  li t0, 0x20000000
  li t3, 0x10000
  vsetvli t2, zero, e8, m1, ta, ma
  csrr s0, mcycle
  vwmaccu.vv v8, v24, v28
  vwmaccu.vv v8, v24, v28
  vwmaccu.vv v8, v24, v28
  vwmaccu.vv v8, v24, v28
  vwmaccu.vv v8, v24, v28
  vwmaccu.vv v8, v24, v28
  vwmaccu.vv v8, v24, v28
  vwmaccu.vv v8, v24, v28
  vwmaccu.vv v8, v24, v28
  vwmaccu.vv v8, v24, v28
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
