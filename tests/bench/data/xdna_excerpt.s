// Our own excerpt in the published Hello-XDNA syntax (tests/bench/translate_xdna_test.py):
// a bf16 4x8x4 multiply-accumulate with its mode in r0, a two-iteration hardware loop,
// arithmetic immediates and a return with five delay slots. Not the published kernel.
  .globl excerpt
  .p2align 4
  .type excerpt,@function
excerpt:
  nopv                          ; vlda wl0, [p0], #32   ; vldb wl2, [p1], #32 ; nops                 ; movx r0, #28 ; mov p3, p2
  nopv                          ; vlda wh0, [p0], #2*16 ; vldb wh2, [p1, #0]  ; nops                 ; movxm ls, #.l_start
  nopv                          ; vlda amll0, [p2, #0]  ; nopb                ; nops                 ; movxm le, #.l_end
  nopv                          ; vlda amlh0, [p2, #32] ; nopb                ; nops                 ; movxm lc, #8/4
  nopv                          ; nopa                  ; nopb                ; nops                 ; nopx ; nopm
  nopv                          ; nopa                  ; nopb                ; nops                 ; nopx ; nopm
  nopv                          ; nopa                  ; nopb                ; nops                 ; nopx ; nopm
  nopv                          ; nopa                  ; nopb                ; nops                 ; nopx ; nopm
.p2align 4
.l_start:
  vmac.f bml0, bml0, x0, x2, r0 ; nopa                  ; nopb                ; nops                 ; nopx ; nopm
  nopv                          ; nopa                  ; nopb                ; nops                 ; add r1, r1, #(3-1)*2 ; nopm
  nopv                          ; nopa                  ; nopb                ; nops                 ; nopx ; nopm
  nopv                          ; nopa                  ; nopb                ; nops                 ; nopx ; nopm
.l_end:
  nopv                          ; nopa                  ; nopb                ; nops                 ; nopx ; nopm
  nopv                          ; nopa                  ; nopb                ; nops                 ; nopx ; nopm
  nopv                          ; nopa                  ; nopb                ; nops                 ; ret lr ; nopm
  nopv                          ; nopa                  ; nopb                ; nops                 ; nopx ; nopm // Delay Slot 5
  nopv                          ; nopa                  ; nopb                ; vst amll0, [p3], #32 ; nopx ; nopm // Delay Slot 4
  nopv                          ; nopa                  ; nopb                ; vst amlh0, [p3, #0]  ; nopx ; nopm // Delay Slot 3
  nopv                          ; nopa                  ; nopb                ; nops                 ; nopx ; nopm // Delay Slot 2
  nopv                          ; nopa                  ; nopb                ; nops                 ; nopx ; nopm // Delay Slot 1
.Lfunc_end0:
  .size excerpt, .Lfunc_end0-excerpt
