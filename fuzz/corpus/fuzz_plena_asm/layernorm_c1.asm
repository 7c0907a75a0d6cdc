; LayerNorm over n = 256 (4 rows staged in VRAM)
S_ADDI_INT gp1, gp0, 0               ; a0 = x
C_SET_ADDR_REG a0, gp0, gp1
S_ADDI_INT gp1, gp0, 4096            ; a1 = gamma
C_SET_ADDR_REG a1, gp0, gp1
S_ADDI_INT gp1, gp0, 8192            ; a2 = beta
C_SET_ADDR_REG a2, gp0, gp1
S_ADDI_INT gp1, gp0, 12288           ; a3 = y
C_SET_ADDR_REG a3, gp0, gp1
S_ADDI_INT gp1, gp0, 256             ; SCALE = elements of x (and of each weight vector)
C_SET_SCALE_REG gp1
S_ADDI_INT gp1, gp0, 0               ; VRAM row
S_ADDI_INT gp2, gp0, 0               ; HBM element offset
H_PREFETCH_V gp1, gp2, a0, 0, 0      ; 4 contiguous rows
S_ADDI_INT gp1, gp0, 256             ; VRAM row
S_ADDI_INT gp2, gp0, 0               ; HBM element offset
H_PREFETCH_V gp1, gp2, a1, 0, 0      ; 4 contiguous rows
S_ADDI_INT gp1, gp0, 512             ; VRAM row
S_ADDI_INT gp2, gp0, 0               ; HBM element offset
H_PREFETCH_V gp1, gp2, a2, 0, 0      ; 4 contiguous rows
; a tile of ones in MSRAM 0: sums accumulate in the matrix unit (FP32, rounded once)
S_LD_FP f1, gp0, 1                   ; f1 = 1.0
S_ADDI_INT gp4, gp0, 768             ; scratch row 0
S_MAP_V_FP gp4, gp0, 0               ; FP_MEM[0..VLEN) (finite constants)
V_MUL_VF gp4, gp4, f0, 0             ; 0
V_ADD_VF gp4, gp4, f1, 0             ; 1
S_ADDI_INT gp4, gp0, 832             ; scratch row 1
S_MAP_V_FP gp4, gp0, 0               ; FP_MEM[0..VLEN) (finite constants)
V_MUL_VF gp4, gp4, f0, 0             ; 0
V_ADD_VF gp4, gp4, f1, 0             ; 1
S_ADDI_INT gp4, gp0, 896             ; scratch row 2
S_MAP_V_FP gp4, gp0, 0               ; FP_MEM[0..VLEN) (finite constants)
V_MUL_VF gp4, gp4, f0, 0             ; 0
V_ADD_VF gp4, gp4, f1, 0             ; 1
S_ADDI_INT gp4, gp0, 960             ; scratch row 3
S_MAP_V_FP gp4, gp0, 0               ; FP_MEM[0..VLEN) (finite constants)
V_MUL_VF gp4, gp4, f0, 0             ; 0
V_ADD_VF gp4, gp4, f1, 0             ; 1
S_ADDI_INT gp1, gp0, 16384           ; a7 = HBM scratch row
C_SET_ADDR_REG a7, gp0, gp1
C_SET_STRIDE_REG gp0                 ; STRIDE = 0: every row of a transfer is the same HBM row
S_ADDI_INT gp4, gp0, 768
H_STORE_V gp4, gp0, a7, 1, 2         ; HBM scratch = one BF16 row of ones
H_PREFETCH_M gp0, gp0, a7, 1, 2      ; MSRAM tile 0 = ones
S_LD_FP f2, gp0, 2                   ; 1/n
S_LD_FP f3, gp0, 3                   ; eps

S_ADDI_INT gp3, gp0, 0               ; row 0
C_LOOP_START gp10, 4                 ; ACC += sum(x)
  M_MV 0, gp0, gp3                   ; ACC += sum(row)
  S_ADDI_INT gp3, gp3, 64
C_LOOP_END gp10
S_RECI_FP f4, f0                     ; +inf
S_SUB_FP f4, f0, f4                  ; -inf (s1 may be negative)
S_ADDI_INT gp5, gp0, 832             ; sum row
M_MV_WO gp5, 0                       ; every lane = bf16(FP32 sum)
S_ADD_FP f4, f4, f0                  ; f4 = f4
V_RED_MAX f4, gp5, 0                 ; f4 = the sum
S_MUL_FP f4, f4, f2                  ; mean = s1 * (1/n)
S_ADDI_INT gp4, gp0, 768             ; scratch row for c^2
S_ADDI_INT gp3, gp0, 0               ; row 0
C_LOOP_START gp10, 4                 ; c = x - mean in place; ACC += sum(c^2)
  V_SUB_VF gp3, gp3, f4, 0, 0        ; c = x - mean
  V_MUL_VV gp4, gp3, gp3, 0          ; q = c * c
  M_MV 0, gp0, gp4                   ; ACC += sum(q)
  S_ADDI_INT gp3, gp3, 64
C_LOOP_END gp10
S_ADDI_INT gp5, gp0, 832             ; sum row
M_MV_WO gp5, 0                       ; every lane = bf16(FP32 sum)
S_ADD_FP f5, f0, f0                  ; f5 = f0
V_RED_MAX f5, gp5, 0                 ; f5 = the sum
S_MUL_FP f5, f5, f2                  ; mean square = s * (1/n)
S_ADD_FP f5, f5, f3                  ; ve = + eps
S_SQRT_FP f5, f5                     ; sd = sqrt(ve)
S_RECI_FP f5, f5                     ; rs = 1 / sd
S_ADDI_INT gp4, gp0, 256             ; gamma row
S_ADDI_INT gp5, gp0, 512             ; beta row
S_ADDI_INT gp3, gp0, 0               ; row 0
C_LOOP_START gp10, 4                 ; y = c * rs * gamma + beta
  V_MUL_VF gp3, gp3, f5, 0           ; z = c * rs
  V_MUL_VV gp3, gp3, gp4, 0          ; g = z * gamma
  V_ADD_VV gp3, gp3, gp5, 0          ; y = g + beta
  S_ADDI_INT gp4, gp4, 64
  S_ADDI_INT gp5, gp5, 64
  S_ADDI_INT gp3, gp3, 64
C_LOOP_END gp10

S_ADDI_INT gp1, gp0, 0               ; VRAM row
S_ADDI_INT gp2, gp0, 0               ; HBM element offset
H_STORE_V gp1, gp2, a3, 0, 2         ; 4 contiguous rows
