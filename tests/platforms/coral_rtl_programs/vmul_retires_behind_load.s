# coral-rtl: 82
# measured: coral-rtl vmul_retires_behind_load.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# a DTCM vle8.v m1, an independent vmul.vv at e32 m4 and 6 addi, 8 times: the vmul's 4 micro-ops are done
# before the load and retire behind it, at most 4 micro-ops a cycle (NUM_RT_UOP), so the vmul leaves the
# retirement buffer a cycle after the load and the addi 8 after it waits a cycle. 81 with
# vector.retire_per_cycle 16
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
  vsetvli zero, t1, e32, m4, ta, ma
  nop
  csrr s0, mcycle
  .rept 8
  vle8.v v16, (a4)
  vmul.vv v8, v4, v4
  addi t3, zero, 1
  addi t5, zero, 1
  addi t6, zero, 1
  addi a0, zero, 1
  addi a1, zero, 1
  addi a2, zero, 1
  .endr
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
