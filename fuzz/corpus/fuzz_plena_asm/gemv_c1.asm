; GEMV y[64] = A[64,512] x[512]
S_ADDI_INT gp1, gp0, 0               ; a0 = A
C_SET_ADDR_REG a0, gp0, gp1
S_ADDI_INT gp1, gp0, 36864           ; a1 = x
C_SET_ADDR_REG a1, gp0, gp1
S_ADDI_INT gp1, gp0, 40960           ; a2 = y
C_SET_ADDR_REG a2, gp0, gp1
S_ADDI_INT gp1, gp0, 512             ; SCALE = elements of x
C_SET_SCALE_REG gp1
S_ADDI_INT gp1, gp0, 0               ; VRAM row
S_ADDI_INT gp2, gp0, 0               ; HBM element offset
C_LOOP_START gp15, 2                 ; 4 rows per transfer
  H_PREFETCH_V gp1, gp2, a1, 0, 0    ; 4 contiguous rows
  S_ADDI_INT gp1, gp1, 256
  S_ADDI_INT gp2, gp2, 256
C_LOOP_END gp15

S_ADDI_INT gp1, gp0, 32768           ; SCALE = elements of A
C_SET_SCALE_REG gp1
S_ADDI_INT gp1, gp0, 512             ; STRIDE = row length of A
C_SET_STRIDE_REG gp1
S_ADDI_INT gp4, gp0, 0               ; A offset of the current tile
S_ADDI_INT gp5, gp0, 704             ; VRAM row of the current outputs
C_LOOP_START gp10, 1                 ; blocks of MLEN outputs
  S_ADDI_INT gp3, gp0, 0             ; x row 0
  C_LOOP_START gp11, 8               ; tiles along N
    H_PREFETCH_M gp0, gp4, a0, 1, 0  ; A[m0 .. +MLEN, n0 .. +MLEN] -> MSRAM tile 0
    M_TMV 0, gp0, gp3                ; acc[c] += sum_k x[n0+k] * A[m0+c][n0+k]
    S_ADDI_INT gp3, gp3, 64          ; next x row
    S_ADDI_INT gp4, gp4, 64          ; next tile along N
  C_LOOP_END gp11
  M_MV_WO gp5, 0                     ; y[m0 .. +MLEN] = bf16(acc)
  S_ADDI_INT gp5, gp5, 64
  S_ADDI_INT gp1, gp0, 32256         ; the rest of MLEN rows of A (N already added)
  S_ADD_INT gp4, gp4, gp1            ; next MLEN rows of A
C_LOOP_END gp10

C_SET_STRIDE_REG gp0                 ; STRIDE = 0: one row per transfer for the last 1
S_ADDI_INT gp2, gp0, 704             ; row 0
S_ADDI_INT gp1, gp0, 768
V_ADD_VF gp1, gp2, f0, 0             ; copy 0 of the row
S_ADDI_INT gp1, gp0, 832
V_ADD_VF gp1, gp2, f0, 0             ; copy 1 of the row
S_ADDI_INT gp1, gp0, 896
V_ADD_VF gp1, gp2, f0, 0             ; copy 2 of the row
S_ADDI_INT gp1, gp0, 960
V_ADD_VF gp1, gp2, f0, 0             ; copy 3 of the row
S_ADDI_INT gp1, gp0, 768
S_ADDI_INT gp2, gp0, 0               ; its HBM offset
H_STORE_V gp1, gp2, a2, 1, 2         ; all 4 transfer rows write the same values
