# coral-rtl: 389
# measured: coral-rtl vredsum_indep_u4_after_loads.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# The loop of the probe reduction/vredsum_e16m1_full_indep_u4 (seed 4, +43% before): four single-micro-op reductions, addi, bnez over two fetch lines. The RTL's two-line fetch buffer lets all four reductions dispatch in one cycle after a stall, and the loop settles into 4 cycles per iteration; with a one-line buffer the model stayed at about 6 per iteration (the whole program, first dispatch to mpause: RTL 423, model 449 before, 427 now).
  .text
  .globl main
  .balign 4
main:
  la t5, vsrc
  vsetvli t6, zero, e16, m1, ta, ma
  vle16.v v8, (t5)
  addi t6, t5, 16
  vle16.v v16, (t6)
  addi t6, t5, 32
  vle16.v v24, (t6)
  vmv.s.x v1, zero
  vmv.s.x v2, zero
  vmv.s.x v7, zero
  vsetvli t6, zero, e16, m1, ta, ma
  li a7, 64
  csrr s0, mcycle
.Lp0:
  vredsum.vs v1, v8, v7
  vredsum.vs v2, v16, v7
  vredsum.vs v3, v24, v7
  vredsum.vs v4, v8, v7
  addi a7, a7, -1
  bnez a7, .Lp0
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret

  .data
  .balign 64
vsrc:
  .word 0x9f1720d1, 0xf0c6134e, 0x6cbde1e4, 0xdcc26d79, 0xfcf77e76, 0x1ad13428, 0xa8a154ec, 0x3cda68bf
  .word 0x6d80ade9, 0x138e7581, 0x409f059e, 0x78316d12, 0x88c91594, 0x540b2535, 0x984043ad, 0x4b3022cc
  .word 0xb03b7855, 0xa4c2fc8c, 0x2dbda730, 0xf9f03471, 0x29319590, 0x9c9f52ea, 0x5cffce79, 0xf230f4cf
  .word 0x3e655391, 0x18bad106, 0x1370a3e0, 0x8ad6e60e, 0x5b59abd5, 0xdce3005d, 0x44a60ec7, 0x510320c9
  .word 0xac7e61ca, 0xa4fede20, 0xc90eee09, 0xe53476dc, 0x904c685d, 0xad6d5baa, 0xddc1c985, 0xebd22977
  .word 0x27dffc29, 0x1e79d547, 0xd287d947, 0xf7efff2f, 0x70e85b38, 0x8cefa506, 0x8b24a5dc, 0x719e741b
  .word 0xb0e26825, 0xba0c3a5, 0x9e667616, 0x2be41240, 0x218fbd15, 0x24663616, 0xcaa74c75, 0xcb0b31d1
  .word 0x789bc46d, 0xca559315, 0x7c0e39d1, 0x8e4560f2, 0xe6b6fda7, 0x32148949, 0xe65d5098, 0x11b62fd7
