# coral-rtl: 12
# measured: coral-rtl csr_after_loop_exit.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# the loop of loop_exit_then_addi.s, then csrr as the first instruction after the loop exit: 5 cycles after the branch, a cycle later than an addi there (and after a jr: addi 4, csrr 5)
  .globl main
main:
  li a7, 3
  csrr s0, mcycle
  .balign 16
.Lp:
  addi t2, t2, 1
  addi a7, a7, -1
  bnez a7, .Lp
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
