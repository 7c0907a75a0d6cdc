# Assembled in front of every kernel (and crt0): Coral's custom instructions, which the
# GNU assembler does not know. mpause (0x08000073) halts the core.
.macro mpause
.insn i 0x73, 0, x0, x0, 0x080
.endm
