# coral-rtl: 22
# measured: coral-rtl csr_after_vse_ext.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# an m8 vse8.v of 128 bytes to external memory, then csrr: the csrr waits for the store's retirement-buffer entry, which completes on its first register (dispatched 1 cycle after the first csrr, then 2 to the LSU + 17 for the register + 2 to write it back), not for the 8 registers (about 140 cycles; a load behind it in the LSU waits for them all)
  .globl main
main:
  li a2, 0x20000000
  li t1, 128
  vsetvli t2, t1, e8, m8, ta, mu
  vmv.v.i v8, 1
  csrr s0, mcycle
  vse8.v v8, (a2)
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
