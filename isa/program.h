// The assembled form of a kernel, shared by the assembler, the per-ISA semantics and
// every platform. Kept free of YAML and SystemC so semantics stay testable on their own.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tlmcraft::isa {

// Encoding fields of a fixed-format ISA. The ISA YAML names its fields; the decoded
// instruction stores them by position in the YAML's `fields:` list. For PLENA that list
// is rd, rs1, rs2, rs3, funct1, imm (see isa/plena/plena.yaml), so semantics index them
// with the PlenaField enum below.
constexpr int kMaxFields = 8;

struct Instruction {
  uint16_t id = 0;          // index into IsaSpec::instructions
  uint32_t opcode = 0;      // numeric opcode from the YAML
  std::array<int64_t, kMaxFields> field{};  // field values after assembly (register numbers, immediates)
  uint32_t line = 0;        // 1-based source line, 0 if unknown (e.g. decoded from binary)
  uint32_t col = 0;         // 1-based column of the mnemonic
};

// A loadable memory image (ISAs assembled by an external toolchain into ELF, e.g. RISC-V).
struct Segment {
  uint64_t address = 0;
  std::vector<uint8_t> bytes;   // file contents; memsz beyond them is zero-filled
  uint64_t mem_size = 0;        // >= bytes.size()
  bool executable = false;
  bool writable = false;
};

// What a platform's assembler builds beyond the generic fields below (AIE-ML: per-tile
// programs and data movement). Opaque to all but that platform, which downcasts it.
struct ProgramExtension {
  virtual ~ProgramExtension() = default;
};

struct Program {
  std::string isa;                        // ISA name, e.g. "plena"
  std::string source_name;                // file name used in diagnostics
  std::vector<std::string> source_lines;  // the kernel text, for fault messages and profiles
  std::vector<Instruction> code;          // table-driven ISAs: one entry per instruction, PC = index
  // Image-based ISAs (code empty): segments, entry point, and the kernel source line of
  // each instruction address (from the assembler's listing/debug info; 0 = unknown).
  std::vector<Segment> segments;
  uint64_t entry = 0;
  std::vector<std::pair<uint64_t, uint32_t>> line_of_address;  // sorted by address
  std::vector<std::pair<std::string, uint64_t>> symbols;       // name -> address
  std::shared_ptr<const ProgramExtension> extension;           // null for most ISAs
};

enum class Severity { Error, Warning, Note };

// One assembler message: file:line:col, the offending token, what was expected and a hint.
struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;
  uint32_t line = 0, col = 0;
  std::string token;     // the offending text as written
  std::string message;   // what is wrong / what was expected
  std::string hint;      // how to fix it (nearest names, valid range, ...)
  std::string format() const;  // "file:line:col: error: message 'token' (hint: ...)"
};

// PLENA field positions (order of `fields:` in isa/plena/plena.yaml).
enum PlenaField : int { kRd = 0, kRs1 = 1, kRs2 = 2, kRs3 = 3, kFunct1 = 4, kImm = 5 };

}  // namespace tlmcraft::isa
