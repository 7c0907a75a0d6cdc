// Binary encoding of instructions, generated from the ISA description: opcode bits,
// fixed fields and immediate kinds with their own bit ranges. Also the canonical
// disassembly (text that assembles back to the same Instruction) and little-endian
// binary files of instruction words.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "isa/isa_spec.h"
#include "isa/program.h"

namespace tlmcraft::isa {

// The instruction word. Operand values are assumed valid (as the assembler or decode
// produce them); bits beyond a field's width are masked off.
uint32_t encode(const IsaSpec& spec, const Instruction& in);

// Decodes one word. False (with a reason in *error if given) for an unknown opcode or a
// field value the operand does not allow (register beyond the class, flag not 0/1,
// nonzero placeholder). Bits of fields the instruction does not use are ignored.
// line/col of the result are 0.
bool decode(const IsaSpec& spec, uint32_t word, Instruction& out, std::string* error = nullptr);

// Canonical text, e.g. "V_ADD_VV gp1, gp2, gp3, 0"; trailing optional operands equal
// to their default are left out. Assembling it yields the same Instruction.
std::string disassemble(const IsaSpec& spec, const Instruction& in);

// Whole programs.
std::vector<uint32_t> encode_program(const IsaSpec& spec, const Program& program);
// False with "word <index> (byte offset <n>): <reason>" in *error on the first bad word.
bool decode_program(const IsaSpec& spec, const std::vector<uint32_t>& words, Program& out,
                    std::string* error = nullptr);
// Canonical listing, one instruction per line.
std::string disassemble_program(const IsaSpec& spec, const Program& program);

// Little-endian words as bytes (4 bytes per word) and back. from_bytes fails when the
// byte count is not a multiple of 4.
std::vector<uint8_t> words_to_bytes(const std::vector<uint32_t>& words);
bool bytes_to_words(const std::vector<uint8_t>& bytes, std::vector<uint32_t>& words, std::string* error = nullptr);

// Binary files of little-endian words. False with a message naming the path on failure.
bool write_binary_file(const std::string& path, const std::vector<uint32_t>& words, std::string* error = nullptr);
bool read_binary_file(const std::string& path, std::vector<uint32_t>& words, std::string* error = nullptr);

}  // namespace tlmcraft::isa
