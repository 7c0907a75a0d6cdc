; GELU (tanh form) over n = 256: blocks of 4 rows of 64
S_ADDI_INT gp1, gp0, 0               ; a0 = x
C_SET_ADDR_REG a0, gp0, gp1
S_ADDI_INT gp1, gp0, 4096            ; a1 = y
C_SET_ADDR_REG a1, gp0, gp1
S_ADDI_INT gp1, gp0, 256             ; SCALE = elements of x
C_SET_SCALE_REG gp1
S_LD_FP f1, gp0, 1                   ; 1.0
S_LD_FP f2, gp0, 2                   ; c1 = 0.044715
S_LD_FP f3, gp0, 3                   ; c2 = -2 sqrt(2/pi)
S_ADDI_INT gp5, gp0, 0               ; VRAM block
S_ADDI_INT gp4, gp0, 256             ; VRAM scratch row
S_ADDI_INT gp3, gp0, 0               ; element offset of the block
C_LOOP_START gp10, 1                 ; blocks
  H_PREFETCH_V gp5, gp3, a0, 0, 0    ; x block -> VRAM
  S_ADD_INT gp2, gp5, gp0            ; first row
  C_LOOP_START gp11, 4               ; rows of the block
    V_MUL_VV gp4, gp2, gp2, 0        ; x2 = x * x
    V_MUL_VV gp4, gp4, gp2, 0        ; x3 = x2 * x
    V_MUL_VF gp4, gp4, f2, 0         ; t = c1 * x3
    V_ADD_VV gp4, gp2, gp4, 0        ; u = x + t
    V_MUL_VF gp4, gp4, f3, 0         ; v = c2 * u
    V_EXP_V gp4, gp4, 0              ; e = exp(v)
    V_ADD_VF gp4, gp4, f1, 0         ; d = 1 + e
    V_RECI_V gp4, gp4, 0             ; r = 1 / d
    V_MUL_VV gp2, gp2, gp4, 0        ; y = x * r
    S_ADDI_INT gp2, gp2, 64
  C_LOOP_END gp11
  H_STORE_V gp5, gp3, a1, 0, 2       ; y block -> HBM (BF16)
  S_ADDI_INT gp3, gp3, 256
C_LOOP_END gp10
