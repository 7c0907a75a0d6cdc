# coral-rtl: 38
# measured: coral-rtl vwadd_wv_chain.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
  .globl main
main:
  la t0, vsrc
  li t3, 0x10000
  li t1, 32
  vsetvli t2, t1, e32, m8, ta, ma
  vmv.v.i v0, 0
  vsetvli t2, t1, e16, m4, ta, ma
  csrr s0, mcycle
  vwadd.wv v0, v0, v16
  vwadd.wv v0, v0, v16
  vwadd.wv v0, v0, v16
  vwadd.wv v0, v0, v16
  vwadd.wv v0, v0, v16
  vwadd.wv v0, v0, v16
  vwadd.wv v0, v0, v16
  vwadd.wv v0, v0, v16
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
  .data
  .balign 16
vsrc:
  .fill 512, 1, 3
