# ReLU on Coral: y = max(x, 0) for 512 int8 values (task relu, C1).
# x is at 0x20000000 and y at 0x20000200 in external memory (the task's layout).
        .text
        .globl  main
main:
        li      a0, 0x20000000          # x
        li      a1, 0x20000200          # y
        li      a2, 512                 # elements left
1:      vsetvli t0, a2, e8, m8, ta, ma  # 128 lanes per pass (VLEN 128 x LMUL 8)
        vle8.v  v8, (a0)
        vmax.vx v8, v8, zero
        vse8.v  v8, (a1)
        add     a0, a0, t0
        add     a1, a1, t0
        sub     a2, a2, t0
        bnez    a2, 1b
        li      a0, 0
        ret
