# coral-rtl: 17
# measured: coral-rtl loop_exit_then_addi.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# a loop of three iterations in one fetch line, then a dependent addi chain: the backward branch predicted taken falls through at the loop exit and the next instruction dispatches 4 cycles after it (as after a forward branch that is taken), not 5
  .globl main
main:
  li a7, 3
  csrr s0, mcycle
  .balign 16
.Lp:
  addi t2, t2, 1
  addi a7, a7, -1
  bnez a7, .Lp
  addi t6, t6, 1
  addi t6, t6, 1
  addi t6, t6, 1
  addi t6, t6, 1
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
