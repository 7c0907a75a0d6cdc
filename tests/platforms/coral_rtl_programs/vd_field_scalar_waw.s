# coral-rtl: 95
# measured: coral-rtl vd_field_scalar_waw.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# (vle8.v m1, lb s0, vadd.vv v8, v9, v24, 8 times, DTCM: the scalar scoreboard checks a vector instruction's bits 11:7 as an x register, so the vadd (vd = 8) waits for the lb's write of x8 = s0; with vd = v1 it does not (RTL 83 cycles first-to-mpause against 102 here). The model was 76 before it did so)
  .globl main
main:
  li t6, 0x10000
  li t5, 0x10800
  li t1, 32
  vsetvli zero, t1, e8, m1, ta, ma
  csrr s2, mcycle
  vle8.v v16, (t6)
  lb s0, 1(t5)
  vadd.vv v8, v9, v24
  vle8.v v16, (t6)
  lb s0, 1(t5)
  vadd.vv v8, v9, v24
  vle8.v v16, (t6)
  lb s0, 1(t5)
  vadd.vv v8, v9, v24
  vle8.v v16, (t6)
  lb s0, 1(t5)
  vadd.vv v8, v9, v24
  vle8.v v16, (t6)
  lb s0, 1(t5)
  vadd.vv v8, v9, v24
  vle8.v v16, (t6)
  lb s0, 1(t5)
  vadd.vv v8, v9, v24
  vle8.v v16, (t6)
  lb s0, 1(t5)
  vadd.vv v8, v9, v24
  vle8.v v16, (t6)
  lb s0, 1(t5)
  vadd.vv v8, v9, v24
  csrr s1, mcycle
  sub a0, s1, s2
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
