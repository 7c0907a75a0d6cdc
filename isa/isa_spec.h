// An ISA described as data: the YAML loader and the in-memory description that the
// assembler, encoder, disassembler, doc generator and timing models read.
//
// The YAML schema is documented in docs/isa/README.md; isa/plena/plena.yaml is the
// reference example. Loading validates the description and reports every problem with
// the YAML file's name, line and column.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "isa/program.h"

namespace tlmcraft::isa {

class SourceMap;  // isa/isa_overlay.h
}  // namespace tlmcraft::isa
namespace YAML {
class Node;
}
namespace tlmcraft::isa {
namespace extension {
struct ExprProgram;
}

// Thrown by IsaSpec::load / parse. what() lists every problem found, one per line,
// each as "file:line:col: message".
struct IsaSpecError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Path of an ISA's YAML description: the current variant's isa_dir (isa/isa_variant.h)
// when it has one, else $TLMCRAFT_ISA_DIR: <dir>/<name>/<name>.yaml or
// <dir>/<name>.yaml (first one that exists),
// otherwise isa/<name>/<name>.yaml in the data folder (common/data_dir.h).
// `home_dir` is the folder an ISA kept outside the data folder lives in (a plugin's own
// isa/): with it, the override folder's file is taken only where it exists, and
// <home_dir>/<name>/<name>.yaml (or <home_dir>/<name>.yaml) otherwise.
std::string isa_yaml_path(const std::string& isa_name, const std::string& home_dir = "");
// The same lookup in `dir` instead of TLMCRAFT_ISA_DIR ("" = no override).
std::string isa_yaml_path_in(const std::string& dir, const std::string& isa_name, const std::string& home_dir = "");

// Integer text as the assembler and the YAML loader accept it: optional sign, decimal or
// 0x hex digits. Values beyond int64 saturate (so they are
// reported as out of range, never wrap). False if the text is not a number.
bool parse_integer(std::string_view text, int64_t& out);

// One encoding field. A field with bits (lsb..msb) holds register numbers and small
// literals; an immediate slot (immediate = true) has no fixed bits: each immediate
// operand kind says where its bits go.
struct FieldSpec {
  std::string name;
  int lsb = -1, msb = -1;  // -1 for immediate slots
  bool immediate = false;
  bool has_bits() const { return lsb >= 0; }
  int width() const { return has_bits() ? msb - lsb + 1 : 0; }
};

struct RegisterClass {
  std::string name;    // "gp"
  std::string prefix;  // "gp" -> gp0..gp15
  int count = 0;
  int zero_register = -1;            // hardwired-zero register number, -1 if none
  bool zero_writes_dropped = false;  // writes to it are ignored (else: an assembler error)
  bool bare_numbers = false;         // a bare number N is accepted as register N (PLENA template compiler)
  // Registers one instruction may write (the file's write ports, `register_ports:`); -1:
  // not declared (no limit is checked).
  int write_ports = -1;
  std::string doc;
  std::string range_text() const;  // "gp0-gp15"
};

enum class KindType { Register, Immediate, Zero };

struct OperandKind {
  std::string name;  // "gp", "flag", "imm18", "zero"
  KindType type = KindType::Immediate;
  int register_class = -1;  // Register kinds; Zero kinds: the class whose zero register is also accepted (-1: none)
  int64_t min = 0, max = 0;  // Immediate kinds
  bool is_signed = false;
  int lsb = -1, msb = -1;  // Immediate kinds with their own bit range in an immediate slot
  std::string doc;
  bool has_bits() const { return lsb >= 0; }
};

enum class Role { None, Read, Write, ReadWrite };
const char* role_name(Role r);

// A value class an ISA declares (`value_classes:`): the register class an operand of this
// class is written with and whether that register holds the value or its address.
struct ValueClass {
  std::string name;          // "vrow"
  std::string register_class;  // "gp"; empty for immediates
  bool address = false;      // the register holds the address of the value (a VRAM row)
  std::string type;          // element type and lanes as the expression language reads them: "bf16[VLEN]"
  std::string doc;
};

struct OperandSpec {
  std::string name;  // "rd", "rmask"
  int kind = -1;     // index into IsaSpec::kinds()
  int field = -1;    // index into IsaSpec::fields(), -1 = not encoded (placeholders)
  Role role = Role::None;
  bool optional = false;
  int64_t default_value = 0;
  bool placeholder = false;   // a Zero-kind operand, written as the literal 0
  bool literal_zero = false;  // register operand that also accepts the literal 0 for the zero register
  bool omissible = false;     // a not-encoded placeholder that may be left out anywhere (form without it)
  bool has_min = false, has_max = false;  // per-operand range narrowing the kind's
  int64_t min = 0, max = 0;
  std::string range_hint;  // shown when the value is out of range; {value}, {value >> N}, {value & M} are filled in
  std::string doc;
  // `value:` class (docs/isa-extensions.md): what the operand denotes, e.g. "vrow" (the
  // VRAM row a gp register addresses). Empty: the register (or immediate) itself. When
  // the class is an address class the register is only read, and `role` says what
  // happens to the value it addresses.
  std::string value;
};


// A composed instruction (isa/compose.h): steps over the instruction's operand names,
// temporaries and literals. The loader normalises the legacy `fused:` form into it.
struct Composition {
  struct Step {
    std::string text;  // assembly line, temporaries by name ("V_EXP_V t1, t0, rmask")
    int line = 0, col = 0;  // YAML position of the step (1-based; col of its first character)
  };
  std::vector<std::string> temps;
  std::vector<int> temp_class;  // register class of each temporary (from the steps), -1 before checking
  std::vector<Step> steps;
  bool from_fused = false;  // written as `fused:` (outputs' non-final writes became temporaries)
};

// `timing:` of an added instruction; -1 = not given (the latency class decides).
struct TimingSpec {
  int64_t latency = -1, ii = -1, read_ports = -1, write_ports = -1;
  bool given() const { return latency >= 0 || ii >= 0 || read_ports >= 0 || write_ports >= 0; }
};

enum class LoopRole { None, Start, End, Break };  // Break: leaves the innermost open loop

// One entry of an instruction's `actions:` map (isa/actions.h): the action it performs and
// how many times per execution, an expression over the ISA's parameters ("VLEN", "MLEN*BLEN").
struct ActionDecl {
  std::string name;   // "vector.mul.bf16"
  std::string count;  // "VLEN"
  int line = 0, col = 0;
};

struct InstructionSpec {
  uint16_t id = 0;
  std::string mnemonic;
  uint32_t opcode = 0;
  char cls = '?';  // class letter (M/V/S/H/C for PLENA)
  std::string unit;
  std::string latency_class;
  std::vector<OperandSpec> operands;
  std::vector<uint16_t> implicit_reads, implicit_writes;  // indices into IsaSpec::resources()
  bool implemented = true;
  std::string doc;        // one line
  std::string operation;  // pseudo-code
  std::vector<std::string> notes;
  LoopRole loop = LoopRole::None;
  int loop_counter = -1;  // operand index of the loop counter register
  int line = 0;           // YAML line (1-based) of the entry, for messages
  // A fused instruction: the existing instructions it runs, in order, each written as an
  // assembly line whose operands are this instruction's operand names or literals
  // ("V_EXP_V rd, rd, rmask"). Empty for ordinary instructions. See isa/fused.h.
  std::vector<std::string> fused;
  Composition compose;  // filled from `compose:` or `fused:` (steps as written are in `fused`)
  // `replaces:` of a `semantics:` instruction: a composition in the `compose:` syntax that
  // the instruction stands for. Checked like `compose:` but never executed (the semantics
  // are); kernel rewriters place the instruction wherever it matches.
  Composition replaces;
  TimingSpec timing;
  // `semantics:` expression text and its YAML position (docs/isa-extensions.md).
  std::string semantics;
  int semantics_line = 0, semantics_col = 0;
  // The compiled `semantics:` (isa/expression_semantics.h) and, for each of its declared
  // operands in order, the index of the operand in `operands`.
  std::shared_ptr<const extension::ExprProgram> expr;
  std::vector<int> expr_operands;
  bool has_expression() const { return expr != nullptr; }
  // Declared energy actions per execution (docs/energy-area.md); empty = none declared.
  std::vector<ActionDecl> actions;

  bool is_fused() const { return !compose.steps.empty(); }  // composed (either form)

  size_t min_operands() const;  // operands before the first optional one, omissible ones not counted
  // "V_RED_SUM rd, rs1[, rmask]", placeholders written as 0.
  std::string syntax() const;
};

struct NamedDoc {
  std::string name;
  std::string doc;
};

struct ClassInfo {
  char letter = '?';
  std::string name;
  std::string doc;
};

struct Parameter {
  std::string name;
  std::string value;  // typical value, as text
  std::string doc;
};

// A register or implicit resource an instruction touches (hazard tracking).
struct RegisterRef {
  uint8_t reg_class = 0;  // index into IsaSpec::register_classes()
  uint8_t number = 0;
  bool operator==(const RegisterRef& o) const { return reg_class == o.reg_class && number == o.number; }
};

struct Accesses {
  std::vector<RegisterRef> reads, writes;  // registers; hardwired-zero registers are left out
  std::vector<uint16_t> resource_reads, resource_writes;  // indices into IsaSpec::resources()
  void clear() { reads.clear(); writes.clear(); resource_reads.clear(); resource_writes.clear(); }
};

struct SyntaxRules {
  std::vector<std::string> comments = {";", "#", "//"};  // line comment markers
  std::string label_hint;  // shown when a line starts with a label
};

// Where a line of a loaded (possibly merged) document comes from: the file (the base or
// an overlay), its text, and the 1-based line within it.
struct DocumentLine {
  std::string file, text;
  int line = 0;
};
using DocumentLines = std::function<DocumentLine(int doc_line1)>;

class IsaSpec {
 public:
  // Reads and validates a YAML description. Throws IsaSpecError naming file, line, cause.
  static IsaSpec load(const std::string& path);
  // The same from text; file_name is only used in messages.
  static IsaSpec parse(const std::string& yaml_text, const std::string& file_name);
  // `path` with ISA overlays merged over it, in order (isa/isa_overlay.h). Every message
  // names the file (base or overlay) and line that holds the offending text.
  static IsaSpec load(const std::string& path, const std::vector<std::string>& overlays);

  // "file:line" of a 1-based line of the loaded document (InstructionSpec::line): the base
  // file's or an overlay's.
  std::string where_line(int line) const;
  // The files the description was read from: the base, then each overlay.
  std::vector<std::string> source_files() const;

  const std::string& name() const { return name_; }                  // "plena"
  const std::string& display_name() const { return display_name_; }  // "PLENA"
  const std::string& description() const { return description_; }
  const std::string& file() const { return file_; }
  int word_bits() const { return word_bits_; }
  int opcode_lsb() const { return opcode_lsb_; }
  int opcode_msb() const { return opcode_msb_; }

  const std::vector<FieldSpec>& fields() const { return fields_; }
  const std::vector<RegisterClass>& register_classes() const { return reg_classes_; }
  const std::vector<OperandKind>& kinds() const { return kinds_; }
  const std::vector<NamedDoc>& resources() const { return resources_; }
  const std::vector<NamedDoc>& units() const { return units_; }
  const std::vector<NamedDoc>& latency_classes() const { return latency_classes_; }
  const std::vector<ClassInfo>& classes() const { return classes_; }
  const std::vector<Parameter>& parameters() const { return parameters_; }
  const std::vector<ValueClass>& value_classes() const { return value_classes_; }
  const ValueClass* value_class(const std::string& name) const;
  // True when `op` has a value class whose register holds the value's address.
  bool addresses_value(const OperandSpec& op) const;
  const std::vector<InstructionSpec>& instructions() const { return instructions_; }
  const SyntaxRules& syntax() const { return syntax_; }
  // Cycles a latency class declares in the YAML (`cycles:`), used when the platform's
  // configuration has no figure for the class (a fused instruction's own class); -1 if none.
  int64_t default_cycles(const std::string& latency_class) const;

  // Lookups; nullptr / -1 when absent. Mnemonics are case-sensitive.
  const InstructionSpec* find(const std::string& mnemonic) const;
  const InstructionSpec* find_opcode(uint32_t opcode) const;
  const InstructionSpec& instruction(const Instruction& in) const { return instructions_.at(in.id); }
  int field_index(const std::string& name) const;
  int register_class_index(const std::string& name) const;
  int kind_index(const std::string& name) const;
  int resource_index(const std::string& name) const;
  const ClassInfo* class_info(char letter) const;

  // Registers and implicit resources an assembled/decoded instruction reads and writes,
  // from the operands' roles (readwrite appears in both lists).
  void accesses(const Instruction& in, Accesses& out) const;
  Accesses accesses(const Instruction& in) const {
    Accesses a;
    accesses(in, a);
    return a;
  }

  // Value range an operand accepts (the kind's range narrowed by the operand's min/max).
  int64_t operand_min(const OperandSpec& op) const;
  int64_t operand_max(const OperandSpec& op) const;
  // "a gp register (gp0-gp15)", "a flag (0 or 1)", "an unsigned 18-bit immediate (0..262143)".
  std::string describe_operand(const OperandSpec& op) const;

 private:
  std::string name_, display_name_, description_, file_;
  int word_bits_ = 32, opcode_lsb_ = 0, opcode_msb_ = 0;
  std::vector<FieldSpec> fields_;
  std::vector<RegisterClass> reg_classes_;
  std::vector<OperandKind> kinds_;
  std::vector<NamedDoc> resources_, units_, latency_classes_;
  std::vector<ClassInfo> classes_;
  std::vector<Parameter> parameters_;
  std::vector<ValueClass> value_classes_;
  std::vector<InstructionSpec> instructions_;
  SyntaxRules syntax_;
  std::unordered_map<std::string, uint16_t> by_mnemonic_;
  std::unordered_map<uint32_t, uint16_t> by_opcode_;
  std::unordered_map<std::string, int64_t> default_cycles_;
  std::shared_ptr<const SourceMap> sources_;  // set when loaded with overlays

  static IsaSpec from_document(const YAML::Node& root, std::shared_ptr<const SourceMap> sources,
                               const std::string& file_name, const std::string& yaml_text);
  friend class IsaSpecLoader;
  friend std::vector<std::string> normalise_compositions(IsaSpec& spec);
  friend std::vector<std::string> compile_expression_semantics(IsaSpec& spec, const DocumentLines& lines);
};

}  // namespace tlmcraft::isa
