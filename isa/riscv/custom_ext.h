// Custom instructions in the RISC-V custom-0..3 major opcodes (0x0b, 0x2b, 0x5b, 0x7b),
// described by an ISA overlay (`isa: riscv`, docs/isa-extensions.md "Coral") and loaded
// at run time: the decode table the ISS consults before reporting an illegal
// instruction, their semantics (a composition of existing RV32IMF/Zve32x instructions),
// their disassembly and their timing parameters. No SystemC, no platform.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "isa/actions.h"
#include "isa/extension/expression.h"
#include "isa/riscv/hart.h"

namespace tlmcraft::isa::riscv {

// Thrown by load_custom_extensions(); what() lists every problem, one per line, each
// "file:line:col: reason".
struct CustomExtError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class ValueClass : uint8_t { X, F, V, Imm };  // i32/u32 scalar, f32 scalar, SEW-bit vector, 12-bit immediate
enum class CustomFormat : uint8_t { R, I, R4 };
// The unit that times it: scalar ALU, scalar multiplier, FPU, or a vector backend unit.
enum class CustomUnit : uint8_t { Alu, Mul, Fpu, VecAlu, VecMul, VecPermute };
enum class Field : uint8_t { Rd, Rs1, Rs2, Rs3, Imm };

const char* to_string(ValueClass);
const char* to_string(CustomFormat);
const char* to_string(CustomUnit);
const char* to_string(Field);

struct CustomOperand {
  std::string name;
  Field field = Field::Rd;
  ValueClass value = ValueClass::X;
  bool is_unsigned = false;  // `type: u32` (x) or `type: unsigned` (v elements)
  bool read = false, write = false;
};

// One compose step, pre-encoded: a standard instruction word with its register fields
// zero, and which name (operand or temp) goes into each field.
struct ComposeStep {
  std::string text;        // as written
  uint32_t base = 0;       // the word with the named fields cleared
  bool vector = false;     // an OP-V instruction (its vm bit follows a masked custom instruction)
  struct Bind {
    Field field;           // Rd/Rs1/Rs2/Rs3: a register field; Imm: the instruction's immediate
    int name;              // index into CustomInsn::names
    ValueClass cls;        // the register file the field selects
  };
  std::vector<Bind> binds;
  // The step as the peephole pass matches it: mnemonic, and per printed operand position
  // the name it holds (-1: a literal immediate, in `literals`).
  std::string mnemonic;
  std::vector<int> names_by_position;
  std::vector<std::string> literals;
  int imm_kind = 0;        // 0 none, 1 I-type imm12, 2 shamt5, 3 OP-V simm5 in rs1 (the custom insn's imm)
  // A vtype step (`vsetvli zero, zero, e16, m4, ta, ma`): the vtype the steps after it run
  // at (vl kept; compose_vtype.h); -1 for any other step.
  int32_t sets_vtype = -1;
  // A load step (load_step.h: `lw t0, 8(rs1)`, `vle8.v t0, (rs1)`): it reads memory through
  // the hart, its address from the register bound to Rs1; `load_bytes` its element size.
  bool load = false;
  unsigned load_bytes = 0;
  int line = 0, col = 0;   // in the overlay file
};

struct CustomInsn {
  std::string mnemonic;
  std::string doc;
  std::string file;        // the overlay it came from
  int line = 0, col = 0;   // of its `mnemonic:` entry
  CustomFormat format = CustomFormat::R;
  uint32_t opcode = 0x0b, funct3 = 0, funct7 = 0, funct2 = 0;
  bool masked = false;     // vector, R format: bit 25 is the vm bit (0 = masked by v0.t)
  uint32_t match = 0, mask = 0;  // raw & mask == match
  std::vector<CustomOperand> operands;
  // Names the steps use: the operands first (same order), then the temps.
  struct Name {
    std::string name;
    ValueClass cls;
    bool temp;
  };
  std::vector<Name> names;
  std::vector<ComposeStep> steps;
  // `semantics:` compiled by the shared evaluator: one program for a scalar instruction,
  // one per element width (e8, e16, e32) for a vector one (SEW comes from vtype at run time).
  std::vector<std::shared_ptr<const extension::ExprProgram>> semantics;
  CustomUnit unit = CustomUnit::Alu;
  uint32_t latency = 0;    // 0: the unit's configured latency
  uint32_t ii = 1;         // initiation interval of the unit for this instruction
  double declared_area_mm2 = -1;  // `area:` (mm2); negative: derived (custom_area_mm2)
  bool is_vector() const;
  const CustomOperand* operand(Field f) const;
};

// The loaded custom space of one variant (every overlay, merged in order).
class CustomExtensions {
 public:
  const std::vector<CustomInsn>& instructions() const { return insns_; }
  const std::vector<std::string>& files() const { return files_; }
  bool empty() const { return insns_.empty(); }
  // Index of the instruction the word encodes, or -1.
  int find(uint32_t raw) const;
  // Fills `d` for instruction `index` (handler, operands, class, timing, dependencies).
  void decode_into(int index, DecodedInsn& d) const;
  // "cmac a0,a1,a2,a3" (ABI names, as objdump prints registers).
  std::string disassemble(int index, uint32_t raw) const;
  // Runs instruction `d.aux` on the hart: every input read before any output is written.
  void execute(Hart& h, const DecodedInsn& d) const;
  // Appends the instructions of `other` (clashes were checked by the loader).
  std::vector<CustomInsn>& mutable_instructions() { return insns_; }
  std::vector<std::string>& mutable_files() { return files_; }

 private:
  std::vector<CustomInsn> insns_;
  std::vector<std::string> files_;
};

// Loads overlay files in order; throws CustomExtError listing every problem with
// file:line:col (unknown keys, a register class RISC-V lacks, bad funct bits for the
// format, clashing encodings or mnemonics, a step that does not assemble ...).
std::shared_ptr<const CustomExtensions> load_custom_extensions(const std::vector<std::string>& files);
// The same from YAML text (`file` is the name errors carry).
void parse_custom_overlay(const std::string& text, const std::string& file, CustomExtensions& into);

// Compiles `text` (the `semantics:` scalar, starting at `where`) for `in`; throws
// extension::ExtensionError (file:line:col) for any error in it.
void compile_custom_semantics(CustomInsn& in, const std::string& text, const extension::SourceLocation& where);
// Runs a `semantics:` instruction: inputs read into values, evaluated, outputs stored
// (vector ones: the active elements below vl; masked-off and tail elements kept).
void run_custom_semantics(const CustomInsn& in, Hart& h, const DecodedInsn& d, bool masked, unsigned stride,
                          unsigned sew_bytes);

// The energy actions (isa/actions.h) one execution performs at element width `sew_bytes`
// and `vl` elements (scalar instructions: any): derived from the composition's steps minus
// its temps' register traffic, or from the semantics' operation counts. Throws
// isa::ActionError for an operation the action model cannot name.
NamedActions custom_actions(const CustomInsn& in, unsigned sew_bytes, unsigned vl);
// The datapath the instruction adds, in mm2: its `area:` when declared, else its
// operations' operators (at 32-bit elements) and its temps' pipeline registers from the
// per-operator table of custom_area.cpp. Throws std::invalid_argument for an operation
// without an area figure.
double custom_area_mm2(const CustomInsn& in);

// The register fields of each custom format: the most inputs and outputs an added
// instruction of the format can name (the co-design miner's port limits).
struct CustomFormatFields {
  CustomFormat format;
  int sources, destinations;
};
const std::vector<CustomFormatFields>& custom_format_fields();

// Whether `d` is a custom instruction (its aux is the index into the table).
bool is_custom(const DecodedInsn& d);

// The RISC-V overlays in force: the ISA variant's (`--isa-ext` files whose isa: is riscv,
// isa/isa_variant.h), then TLMCRAFT_ISA_EXT's (':'-separated).
std::vector<std::string> variant_overlays();

// A C header of `static inline` functions wrapping `.insn` for each instruction (clang-16,
// rv32imf_zve32x): scalar operands with "r"/"f" constraints, vector ones with "vr" and a
// vsetvli for the element type and group the function name says.
std::string custom_c_header(const CustomExtensions& ext);
// The `.insn` line for instruction `index` with the given operand register names in
// field order (rd, rs1, rs2[, rs3] or rd, rs1, imm).
std::string insn_directive(const CustomInsn& in, const std::vector<std::string>& field_values);

// Assembly source with each custom mnemonic ("cmac a0, a1, a2, a3", operands in the
// overlay's order) rewritten to its `.insn` line in place (line numbers kept).
std::string expand_custom_mnemonics(const std::string& source, const CustomExtensions& ext);
// Everything about the instructions that changes a build (encodings, operands, steps).
std::string fingerprint(const CustomExtensions& ext);

// Hart: decoding with the custom table (nullptr = standard only).
DecodedInsn decode(uint32_t raw, const CustomExtensions* custom);
std::string disassemble(uint32_t raw, uint32_t pc, const CustomExtensions* custom);

}  // namespace tlmcraft::isa::riscv
