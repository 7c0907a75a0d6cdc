# coral-rtl: 984
# measured: coral-rtl vle_vse_staging.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# four external m8 loads, each copied to DTCM by a dependent m8 store, as the agents' staging loops do: the store starts on its first register once the slot is free, not a cycle after the load's last register
  .globl main
main:
  li t0, 0x20000000
  li t3, 0x10000
  li t1, 128
  vsetvli t2, t1, e8, m8, ta, ma
  nop
  nop
  csrr s0, mcycle
  vle8.v v8, (t0)
  vse8.v v8, (t3)
  addi t0, t0, 128
  addi t3, t3, 128
  vle8.v v8, (t0)
  vse8.v v8, (t3)
  addi t0, t0, 128
  addi t3, t3, 128
  vle8.v v8, (t0)
  vse8.v v8, (t3)
  addi t0, t0, 128
  addi t3, t3, 128
  vle8.v v8, (t0)
  vse8.v v8, (t3)
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
