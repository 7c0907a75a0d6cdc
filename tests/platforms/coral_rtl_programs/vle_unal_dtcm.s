# coral-rtl: 68
# measured: coral-rtl vle_unal_dtcm.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# (the first load dispatches 2 cycles after the addi of its base address, read without forwarding; the model was 67 before it applied that to vector accesses)
  .globl main
main:
  li t0, 0x20000000
  li t3, 0x10000
  li t1, 16
  vsetvli t2, t1, e8, m1, ta, ma
  csrr s0, mcycle
  addi t3, t3, 4
  vle8.v v1, (t3)
  vle8.v v1, (t3)
  vle8.v v1, (t3)
  vle8.v v1, (t3)
  vle8.v v1, (t3)
  vle8.v v1, (t3)
  vle8.v v1, (t3)
  vle8.v v1, (t3)
  vle8.v v1, (t3)
  vle8.v v1, (t3)
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
