; ---- batch 0 of 2
; GEMM Y[4,64] = X[4,64] W[64,64]
S_ADDI_INT gp1, gp0, 0               ; a0 = X
C_SET_ADDR_REG a0, gp0, gp1
S_ADDI_INT gp1, gp0, 4096            ; a1 = W
C_SET_ADDR_REG a1, gp0, gp1
S_ADDI_INT gp1, gp0, 16384           ; a2 = Y
C_SET_ADDR_REG a2, gp0, gp1

; stage X in VRAM: k-tile kk, row block mb at (kk*M + mb*BLEN) rows
S_ADDI_INT gp1, gp0, 512             ; SCALE = elements of X
C_SET_SCALE_REG gp1
S_ADDI_INT gp1, gp0, 64              ; STRIDE = row length of X
C_SET_STRIDE_REG gp1
S_ADDI_INT gp1, gp0, 0               ; VRAM X k-tile 0
S_ADDI_INT gp12, gp0, 0              ; X columns 0..
C_LOOP_START gp10, 1
  H_PREFETCH_V gp1, gp12, a0, 1, 0   ; BLEN rows of X
  S_ADDI_INT gp1, gp1, 256
  S_ADDI_INT gp12, gp12, 256         ; next BLEN rows of X
C_LOOP_END gp10

S_ADDI_INT gp1, gp0, 8192            ; SCALE = elements of W
C_SET_SCALE_REG gp1
S_ADDI_INT gp1, gp0, 64              ; STRIDE = row length of W and Y
C_SET_STRIDE_REG gp1
S_ADDI_INT gp8, gp0, 64              ; M_MM_WO row stride
S_ADDI_INT gp13, gp0, 256            ; VRAM Y tile
S_ADDI_INT gp4, gp0, 0               ; MSRAM slot of the current W column
S_ADDI_INT gp3, gp0, 0               ; column offset j*MLEN
C_LOOP_START gp9, 1                  ; W/Y column tiles
  S_ADDI_INT gp1, gp4, 0             ; MSRAM tile 0
  S_ADDI_INT gp12, gp3, 0            ; W rows 0..
  H_PREFETCH_M gp1, gp12, a1, 1, 0   ; W tile -> MSRAM
  S_ADDI_INT gp6, gp0, 0             ; row block offset in VRAM
  C_LOOP_START gp10, 1               ; row blocks of BLEN
    S_ADDI_INT gp7, gp0, 0           ; column block offset
    C_LOOP_START gp11, 16            ; column blocks of BLEN
      S_ADD_INT gp1, gp4, gp7        ; MSRAM column block
      S_ADDI_INT gp2, gp6, 0         ; X block, k-tile 0
      M_MM 0, gp1, gp2               ; acc += X block @ W block
      S_ADD_INT gp1, gp13, gp6
      S_ADD_INT gp1, gp1, gp7
      M_MM_WO gp1, gp8, 0            ; write BLEN x BLEN to the Y tile
      S_ADDI_INT gp7, gp7, 4
    C_LOOP_END gp11
    S_ADDI_INT gp6, gp6, 256
  C_LOOP_END gp10
  S_ADD_INT gp1, gp13, gp0
  S_ADDI_INT gp12, gp3, 0            ; Y column offset
  C_LOOP_START gp10, 1               ; store row blocks
    H_STORE_V gp1, gp12, a2, 1, 2    ; BF16 rows -> HBM
    S_ADDI_INT gp1, gp1, 256
    S_ADDI_INT gp12, gp12, 256       ; next BLEN rows of Y
  C_LOOP_END gp10
  S_ADDI_INT gp3, gp3, 64
C_LOOP_END gp9
; ---- batch 1 of 2
; GEMM Y[4,64] = X[4,64] W[64,64]
S_ADDI_INT gp1, gp0, 0               ; a0 = X
C_SET_ADDR_REG a0, gp0, gp1
S_ADDI_INT gp1, gp0, 4096            ; a1 = W
C_SET_ADDR_REG a1, gp0, gp1
S_ADDI_INT gp1, gp0, 16384           ; a2 = Y
C_SET_ADDR_REG a2, gp0, gp1

; stage X in VRAM: k-tile kk, row block mb at (kk*M + mb*BLEN) rows
S_ADDI_INT gp1, gp0, 512             ; SCALE = elements of X
C_SET_SCALE_REG gp1
S_ADDI_INT gp1, gp0, 64              ; STRIDE = row length of X
C_SET_STRIDE_REG gp1
S_ADDI_INT gp1, gp0, 0               ; VRAM X k-tile 0
S_ADDI_INT gp12, gp0, 256            ; X columns 0..
C_LOOP_START gp10, 1
  H_PREFETCH_V gp1, gp12, a0, 1, 0   ; BLEN rows of X
  S_ADDI_INT gp1, gp1, 256
  S_ADDI_INT gp12, gp12, 256         ; next BLEN rows of X
C_LOOP_END gp10

S_ADDI_INT gp1, gp0, 8192            ; SCALE = elements of W
C_SET_SCALE_REG gp1
S_ADDI_INT gp1, gp0, 64              ; STRIDE = row length of W and Y
C_SET_STRIDE_REG gp1
S_ADDI_INT gp8, gp0, 64              ; M_MM_WO row stride
S_ADDI_INT gp13, gp0, 256            ; VRAM Y tile
S_ADDI_INT gp4, gp0, 0               ; MSRAM slot of the current W column
S_ADDI_INT gp3, gp0, 0               ; column offset j*MLEN
C_LOOP_START gp9, 1                  ; W/Y column tiles
  S_ADDI_INT gp1, gp4, 0             ; MSRAM tile 0
  S_ADDI_INT gp12, gp3, 4096         ; W rows 0..
  H_PREFETCH_M gp1, gp12, a1, 1, 0   ; W tile -> MSRAM
  S_ADDI_INT gp6, gp0, 0             ; row block offset in VRAM
  C_LOOP_START gp10, 1               ; row blocks of BLEN
    S_ADDI_INT gp7, gp0, 0           ; column block offset
    C_LOOP_START gp11, 16            ; column blocks of BLEN
      S_ADD_INT gp1, gp4, gp7        ; MSRAM column block
      S_ADDI_INT gp2, gp6, 0         ; X block, k-tile 0
      M_MM 0, gp1, gp2               ; acc += X block @ W block
      S_ADD_INT gp1, gp13, gp6
      S_ADD_INT gp1, gp1, gp7
      M_MM_WO gp1, gp8, 0            ; write BLEN x BLEN to the Y tile
      S_ADDI_INT gp7, gp7, 4
    C_LOOP_END gp11
    S_ADDI_INT gp6, gp6, 256
  C_LOOP_END gp10
  S_ADD_INT gp1, gp13, gp0
  S_ADDI_INT gp12, gp3, 256          ; Y column offset
  C_LOOP_START gp10, 1               ; store row blocks
    H_STORE_V gp1, gp12, a2, 1, 2    ; BF16 rows -> HBM
    S_ADDI_INT gp1, gp1, 256
    S_ADDI_INT gp12, gp12, 256       ; next BLEN rows of Y
  C_LOOP_END gp10
  S_ADDI_INT gp3, gp3, 64
C_LOOP_END gp9
