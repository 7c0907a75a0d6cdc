# coral-rtl: 902
# measured: coral-rtl vrem_load_chain.elf --ext-latency 23 --ext-wlatency 11 --res (res[0], the mcycle difference this program stores at 0x17F00)
# model: 871 (known gap (856 before the LSU micro-op rules of 2026-11-29, docs/FIDELITY.md sixth pass, mechanisms 15-17): layernorm's output loop reduced to a chain vrem -> vadd.vv -> external vle8 -> vsext into the next strip's vadd.vv; with vsext writing another register, RTL 725. The model was 644 before vector loads issued in order. The full loop, layernorm_output_loop.s, agrees within 2.1%)
  .globl main
main:
  li a5, 0x20000000
  li t4, 1024
  li t5, 12345
  li t6, 1103515245
  mv t3, a5
1:
  mul t5, t5, t6
  addi t5, t5, 1013
  srli a0, t5, 16
  sb a0, 0(t3)
  addi t3, t3, 1
  addi t4, t4, -1
  bnez t4, 1b
  addi a6, a5, 256
  addi t0, a5, 512
  addi t1, a5, 768
  li a4, 256
  li a2, 0
  li a0, 3
  li a1, 1234
  li a3, 2468
  li a7, 32
  csrr s0, mcycle
.Lloop:
	sub	t2, a4, a2
	vsetvli	t2, t2, e8, m1, ta, mu
	vsetvli	zero, t2, e32, m4, ta, ma
	vrem.vx	v8, v8, a3
	vadd.vv	v8, v12, v8
	add	t3, a2, t0
	vle8.v	v16, (t3)
	vsext.vf4	v12, v16
	vsetvli	zero, zero, e8, m1, ta, ma
	add	a2, t2, a2
  bltu a2, a4, .Lloop
  csrr s1, mcycle
  sub a0, s1, s0
  li t4, 0x17F00
  sw a0, 0(t4)
  ret
