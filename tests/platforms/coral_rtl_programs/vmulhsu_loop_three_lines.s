# coral-rtl: 148
# model: 148 (= RTL since the fetch buffer holds two lines and follows the predicted-taken branch; 166 with one line: 0xb0 waited 2 cycles after 0xac each iteration; docs/FIDELITY.md, mechanism 12)
# measured: coral-rtl vmulhsu_loop_three_lines.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# six vmulhsu.vv v8 (one per cycle: the same bits 11:7) and the loop branch, 20 times, over three 16-byte fetch lines (seed-5 probe vmulhsu_e32m1_full_indep1_u6_n316_001's shape)
  .globl main
main:
  li t1, 4
  vsetvli t2, t1, e32, m1, ta, ma
  li a7, 20
  csrr s0, mcycle
  .balign 16
  nop
  nop
  nop
.Lp:
  vmulhsu.vv v8, v24, v28
  vmulhsu.vv v8, v24, v28
  vmulhsu.vv v8, v24, v28
  vmulhsu.vv v8, v24, v28
  vmulhsu.vv v8, v24, v28
  vmulhsu.vv v8, v24, v28
  addi a7, a7, -1
  bnez a7, .Lp
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
