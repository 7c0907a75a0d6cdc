# coral-rtl: 145
# measured: coral-rtl vslideup_m4.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# model: 146 (the rate, 7 cycles per m4 slide, is the RTL's; the first slide starts a cycle later in the model)
  .globl main
main:
  li t0, 0x20000000
  li t3, 0x10000
  vsetvli t2, zero, e8, m4, ta, ma
  csrr s0, mcycle
  vslideup.vi v8, v16, 1
  vslideup.vi v0, v16, 1
  vslideup.vi v8, v16, 1
  vslideup.vi v0, v16, 1
  vslideup.vi v8, v16, 1
  vslideup.vi v0, v16, 1
  vslideup.vi v8, v16, 1
  vslideup.vi v0, v16, 1
  vslideup.vi v8, v16, 1
  vslideup.vi v0, v16, 1
  vslideup.vi v8, v16, 1
  vslideup.vi v0, v16, 1
  vslideup.vi v8, v16, 1
  vslideup.vi v0, v16, 1
  vslideup.vi v8, v16, 1
  vslideup.vi v0, v16, 1
  vslideup.vi v8, v16, 1
  vslideup.vi v0, v16, 1
  vslideup.vi v8, v16, 1
  vslideup.vi v0, v16, 1
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
