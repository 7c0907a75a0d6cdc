# coral-rtl: 106
# measured: coral-rtl vle_address_after_alu.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# (mv s0, vle8.v (s0), lb s0, vadd.vv, 8 times, all DTCM: a vector access reads its base address register without forwarding, as scalar loads do, so the load dispatches 2 cycles after the mv; the model was 98 before it applied that to vector accesses)
  .globl main
main:
  li t6, 0x10000
  li t5, 0x10800
  li t1, 16
  vsetvli zero, t1, e8, m1, ta, ma
  csrr s2, mcycle
  addi s0, t6, 0
  vle8.v v16, (s0)
  lb s0, 0(t5)
  vadd.vv v4, v8, v12
  addi s0, t6, 0
  vle8.v v16, (s0)
  lb s0, 0(t5)
  vadd.vv v4, v8, v12
  addi s0, t6, 0
  vle8.v v16, (s0)
  lb s0, 0(t5)
  vadd.vv v4, v8, v12
  addi s0, t6, 0
  vle8.v v16, (s0)
  lb s0, 0(t5)
  vadd.vv v4, v8, v12
  addi s0, t6, 0
  vle8.v v16, (s0)
  lb s0, 0(t5)
  vadd.vv v4, v8, v12
  addi s0, t6, 0
  vle8.v v16, (s0)
  lb s0, 0(t5)
  vadd.vv v4, v8, v12
  addi s0, t6, 0
  vle8.v v16, (s0)
  lb s0, 0(t5)
  vadd.vv v4, v8, v12
  addi s0, t6, 0
  vle8.v v16, (s0)
  lb s0, 0(t5)
  vadd.vv v4, v8, v12
  csrr s1, mcycle
  sub a0, s1, s2
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
