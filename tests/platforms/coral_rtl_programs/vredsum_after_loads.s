# coral-rtl: 528
# measured: coral-rtl vredsum_after_loads.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# (was 530 with the configuration-state rule; exact since the LSU micro-op rules of 2026-11-29, docs/FIDELITY.md sixth pass, mechanisms 15-17)
# (external m4 load, DTCM m4 load, an independent vredsum at m8, 4 times: the reduction's 8 micro-ops take one reorder-buffer entry, so the next load does not wait for them; the model was 537 when each took one)
  .globl main
main:
  li t0, 0x20000000
  li t3, 0x10000
  li t1, 64
  vsetvli t2, t1, e8, m4, ta, ma
  vmv.s.x v9, zero
  csrr s0, mcycle
  vsetvli zero, t1, e8, m4, ta, mu
  vle8.v v12, (t0)
  vle8.v v16, (t3)
  vsetvli zero, t1, e16, m8, ta, ma
  vredsum.vs v9, v24, v9
  vsetvli zero, t1, e8, m4, ta, mu
  vle8.v v12, (t0)
  vle8.v v16, (t3)
  vsetvli zero, t1, e16, m8, ta, ma
  vredsum.vs v9, v24, v9
  vsetvli zero, t1, e8, m4, ta, mu
  vle8.v v12, (t0)
  vle8.v v16, (t3)
  vsetvli zero, t1, e16, m8, ta, ma
  vredsum.vs v9, v24, v9
  vsetvli zero, t1, e8, m4, ta, mu
  vle8.v v12, (t0)
  vle8.v v16, (t3)
  vsetvli zero, t1, e16, m8, ta, ma
  vredsum.vs v9, v24, v9
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
