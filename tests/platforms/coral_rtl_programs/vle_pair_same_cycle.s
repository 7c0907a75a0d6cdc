# coral-rtl: 46
# measured: coral-rtl vle_pair_same_cycle.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# DTCM vle8.v into v1, v2 alternately: the RTL dispatches v1 and v2 in one cycle (two lanes), the next v1 waits a cycle (its bits 11:7 equal a pending field), then every other cycle (the frontend's configuration state)
  .globl main
main:
  li t3, 0x10000
  li t1, 16
  vsetvli t2, t1, e8, m1, ta, ma
  csrr s0, mcycle
  vle8.v v1, (t3)
  vle8.v v2, (t3)
  vle8.v v1, (t3)
  vle8.v v2, (t3)
  vle8.v v1, (t3)
  vle8.v v2, (t3)
  vle8.v v1, (t3)
  vle8.v v2, (t3)
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
