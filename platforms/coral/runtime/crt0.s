# Coral NPU kernel start-up (linked first into ITCM by coral.ld): set the stack pointer
# to the top of DTCM, call the kernel's global function `main` (ilp32 ABI), then halt
# with mpause. Also provides weak memcpy/memset/memmove, which compilers may call even
# in freestanding code (struct copies, zero-initialised arrays).
  .section .text.crt0,"ax",@progbits
  .globl _start
  .type _start, @function
_start:
  la sp, __stack_top
  call main
  mpause
1:
  j 1b
  .size _start, .-_start

  .text
  .weak memcpy
  .type memcpy, @function
memcpy:                     # a0 = dst, a1 = src, a2 = n; returns dst
  mv t0, a0
  beqz a2, 2f
1:
  lbu t1, 0(a1)
  sb t1, 0(t0)
  addi a1, a1, 1
  addi t0, t0, 1
  addi a2, a2, -1
  bnez a2, 1b
2:
  ret
  .size memcpy, .-memcpy

  .weak memmove
  .type memmove, @function
memmove:                    # copies backwards when dst overlaps the source's tail
  bgeu a1, a0, memcpy
  add t0, a0, a2
  add a1, a1, a2
  beqz a2, 2f
1:
  addi a1, a1, -1
  addi t0, t0, -1
  lbu t1, 0(a1)
  sb t1, 0(t0)
  addi a2, a2, -1
  bnez a2, 1b
2:
  ret
  .size memmove, .-memmove

  .weak memset
  .type memset, @function
memset:                     # a0 = dst, a1 = byte, a2 = n; returns dst
  mv t0, a0
  beqz a2, 2f
1:
  sb a1, 0(t0)
  addi t0, t0, 1
  addi a2, a2, -1
  bnez a2, 1b
2:
  ret
  .size memset, .-memset
