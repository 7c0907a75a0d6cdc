# coral-rtl: 7
# measured: coral-rtl csr_after_jr.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# a jr (every jalr redirects the fetch) to a csrr: the csrr dispatches 5 cycles after the jr, a cycle after an addi would (the model's branch.mispredict_taken 4 + branch.csr_after_redirect 1)
  .globl main
main:
  la a2, 1f
  csrr s0, mcycle
  .balign 16
  addi t2, t2, 1
  jr a2
  addi t2, t2, 1
  addi t2, t2, 1
  .balign 16
  addi t2, t2, 1
1:
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
