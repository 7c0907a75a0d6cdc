# coral-rtl: 620
# measured: coral-rtl gemv_rows_address.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# (exact since the merge of the vector base-address rule with the reorder-buffer rules 15-17 (docs/FIDELITY.md): model 628 with the first alone: the vwmul.vv's retirement-buffer entry, 3 cycles after the DTCM load's on the RTL, was 5 in the model)
# (the agent's gemv C1 v20 beats v14 on the RTL because its add of the A row address falls in a fetch line already buffered: without the address rule the model put v14's load a cycle early and ranked the two the other way)
  .globl main
main:
  li a1, 0x20000000
  li a3, 0x10000
  li a4, 0x10400
  li a2, 64
  vsetivli zero, 1, e32, m1, ta, ma
  vmv.s.x v8, zero
  csrr s0, mcycle
  addi t0, a1, 0
  vmv1r.v v9, v8
  vsetvli t1, a2, e8, m4, ta, mu
  add t2, t0, zero
  vle8.v v12, (t2)
  add t2, a3, zero
  vle8.v v16, (t2)
  vwmul.vv v24, v12, v16
  vsetvli zero, t1, e16, m8, ta, ma
  vwredsum.vs v9, v24, v9
  vsetivli zero, 1, e32, m1, ta, ma
  vse32.v v9, (a4)
  addi a4, a4, 4
  addi t0, a1, 64
  vmv1r.v v9, v8
  vsetvli t1, a2, e8, m4, ta, mu
  add t2, t0, zero
  vle8.v v12, (t2)
  add t2, a3, zero
  vle8.v v16, (t2)
  vwmul.vv v24, v12, v16
  vsetvli zero, t1, e16, m8, ta, ma
  vwredsum.vs v9, v24, v9
  vsetivli zero, 1, e32, m1, ta, ma
  vse32.v v9, (a4)
  addi a4, a4, 4
  addi t0, a1, 128
  vmv1r.v v9, v8
  vsetvli t1, a2, e8, m4, ta, mu
  add t2, t0, zero
  vle8.v v12, (t2)
  add t2, a3, zero
  vle8.v v16, (t2)
  vwmul.vv v24, v12, v16
  vsetvli zero, t1, e16, m8, ta, ma
  vwredsum.vs v9, v24, v9
  vsetivli zero, 1, e32, m1, ta, ma
  vse32.v v9, (a4)
  addi a4, a4, 4
  addi t0, a1, 192
  vmv1r.v v9, v8
  vsetvli t1, a2, e8, m4, ta, mu
  add t2, t0, zero
  vle8.v v12, (t2)
  add t2, a3, zero
  vle8.v v16, (t2)
  vwmul.vv v24, v12, v16
  vsetvli zero, t1, e16, m8, ta, ma
  vwredsum.vs v9, v24, v9
  vsetivli zero, 1, e32, m1, ta, ma
  vse32.v v9, (a4)
  addi a4, a4, 4
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
