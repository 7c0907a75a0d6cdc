# coral-rtl: 83
# measured: coral-rtl vdiv_same_operands.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# model: 81 (8 m4 divides of one 31-bit dividend: only the first micro-op iterates, the other 31 find their lanes holding the same operands and answer at once; before the lanes were modelled: 422. The 2 cycles short are common to the m4 divide probes)
  .globl main
main:
  li t3, 0x10000
  li a1, 7
  li a2, 1073741824
  vsetvli t2, zero, e32, m4, ta, ma
  vmv.v.x v8, a2
  vmv.v.i v12, 3
  csrr s0, mcycle
  vdiv.vx v12, v8, a1
  vdiv.vx v12, v8, a1
  vdiv.vx v12, v8, a1
  vdiv.vx v12, v8, a1
  vdiv.vx v12, v8, a1
  vdiv.vx v12, v8, a1
  vdiv.vx v12, v8, a1
  vdiv.vx v12, v8, a1
  vmv.x.s a3, v12
  add a3, a3, a3
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
