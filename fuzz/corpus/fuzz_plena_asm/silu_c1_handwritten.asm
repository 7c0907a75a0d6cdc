; SiLU y = x * sigmoid(x) over n = 256 values (4 VRAM rows of 64), in the style of the
; PLENA template compiler. Layout (tlmcraft list tasks / the silu task's C1 layout):
;   x: HBM byte 0, MXFP8, 256 elements, scales at 0 + 256 (SCALE = 256)
;   y: HBM byte 4096, BF16 (precision 2)
;   FP_MEM[1] = 1.0
S_ADDI_INT gp1, gp0, 256        ; MX scale offset of x = its element count
C_SET_SCALE_REG gp1
S_ADDI_INT gp2, gp0, 4096
C_SET_ADDR_REG a1, gp0, gp2     ; a1 = {0, 4096}: output base
S_ADDI_INT gp3, gp0, 0          ; VRAM address of x (rows 0-3)
H_PREFETCH_V gp3, gp0, a0, 0, 0 ; 4 rows of x from HBM a0 + 0, MXFP8 -> BF16
S_LD_FP f1, gp0, 1              ; f1 = 1.0
S_ADDI_INT gp5, gp0, 256        ; VRAM address of y (rows 4-7)
C_LOOP_START gp6, 4             ; one iteration per row
  V_SUB_VF gp5, gp3, f0, 0, 1   ; y = 0 - x
  V_EXP_V gp5, gp5, 0           ; y = exp(-x)
  V_ADD_VF gp5, gp5, f1, 0      ; y = 1 + exp(-x)
  V_RECI_V gp5, gp5, 0          ; y = sigmoid(x)
  V_MUL_VV gp5, gp5, gp3, 0     ; y = x * sigmoid(x)
  S_ADDI_INT gp3, gp3, 64       ; next row
  S_ADDI_INT gp5, gp5, 64
C_LOOP_END gp6
S_ADDI_INT gp5, gp0, 256
H_STORE_V gp5, gp0, a1, 0, 2    ; 4 rows of y to HBM a1 + 0 as BF16
