# coral-rtl: 28
# measured: coral-rtl vwadd_behind_loads.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# two DTCM vle8.v m2, then an independent vwadd.wv into an e32 m8 group: its 8 micro-ops wait for the
# loads' reorder-buffer entries, which free as the LSU hands each loaded register over, so the vwadd.wv
# completes 2 cycles after the second load (the addi 8 after it dispatches at 43 on the RTL). The model
# was 30 while a loaded register's entry freed with its write-back, 2 cycles after the hand-over
  .globl main
main:
  li a4, 0x10000
  addi a5, a4, 1024
  li t1, 32
  vsetvli t2, t1, e32, m8, ta, ma
  vmv.v.i v8, 0
  vsetvli zero, t1, e16, m4, ta, ma
  vmv.v.i v20, 0
  vsetvli zero, t1, e16, m4, ta, ma
  nop
  csrr s0, mcycle
  vle8.v v16, (a4)
  vle8.v v18, (a5)
  vwadd.wv v8, v8, v20
  addi t3, zero, 1
  addi t5, zero, 1
  addi t6, zero, 1
  addi a0, zero, 1
  addi a1, zero, 1
  addi a2, zero, 1
  addi a3, zero, 1
  addi a6, zero, 1
  addi a7, zero, 1
  addi s2, zero, 1
  addi s3, zero, 1
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
