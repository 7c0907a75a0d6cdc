// The semantics language of ISA extensions (docs/isa-extensions.md, "New semantics"):
// a small typed expression language, one statement `name = expr` per line, that an
// overlay's `semantics:` key uses to define what a new instruction computes. Shared by
// every platform: the platform declares the instruction's operands (name, type, role),
// compiles the text once when the overlay is loaded, and evaluates the program on each
// execution, storing the outputs itself.
//
//   using namespace tlmcraft::isa::extension;
//   ExprProgram prog = compile_semantics(text, locate_yaml_scalar(yaml, mark.line, mark.column, file),
//       {{"rd", vector_of(ElemFormat::BF16, 64), Role::Output},
//        {"rs1", vector_of(ElemFormat::BF16, 64), Role::Input}});          // throws ExtensionError
//   std::vector<Value> outs = evaluate(prog, {Value::from_bf16_bits(row, true)});
//   for (const OpCount& c : prog.op_counts) ...                             // energy and area
//
// Errors: every problem in the text throws ExtensionError whose what() is
// "file:line:col: message" with the line and column inside the YAML file. Bad input is
// bounded (ExprLimits) and never crashes: deep nesting is an error, not a stack overflow.
//
// Aliasing: evaluate() reads every input and returns every output as a value; the
// caller writes them back afterwards, so an output may share storage with an input.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tlmcraft::isa::extension {

// ---- Types ------------------------------------------------------------------------

// Element formats. Integers wrap at their width; bf16 operations compute in f32 and
// round the result to bf16 (nearest even) after every operation.
enum class ElemFormat : uint8_t { I8, I16, I32, I64, U8, U16, U32, U64, BF16, F32, Bool };

const char* format_name(ElemFormat f);                      // "i8", "bf16", "bool", ...
bool parse_format(std::string_view name, ElemFormat& out);  // false if not a format name
bool is_float(ElemFormat f);                                // bf16, f32
bool is_integer(ElemFormat f);                              // i8 .. u64 (not bool)
bool is_signed(ElemFormat f);                               // i8 .. i64
int bit_width(ElemFormat f);                                // 8 .. 64; bool 1; bf16 16

// A scalar, or a vector of `lanes` elements; lanes 0 = the run-time length (every
// run-time-length vector of one execution has the same length, taken from the inputs:
// Coral's vl). Scalars broadcast over vectors.
struct ValueType {
  ElemFormat format = ElemFormat::I32;
  bool vector = false;
  uint32_t lanes = 0;  // vectors only
  bool operator==(const ValueType& o) const {
    return format == o.format && vector == o.vector && (!vector || lanes == o.lanes);
  }
  bool operator!=(const ValueType& o) const { return !(*this == o); }
};
inline ValueType scalar_of(ElemFormat f) { return {f, false, 0}; }
inline ValueType vector_of(ElemFormat f, uint32_t lanes = 0) { return {f, true, lanes}; }

// "u32", "vector<bf16>" (the length is named separately where it matters).
std::string type_name(const ValueType& t);

// ---- Operands and source positions ----------------------------------------------------

// Input: read only. Output: must be assigned exactly once, cannot be read. InOut: read
// (always its value before the instruction) and assigned exactly once (an accumulator).
enum class Role : uint8_t { Input, Output, InOut };

struct OperandDecl {
  std::string name;  // an identifier; not a function, format or keyword name
  ValueType type;
  Role role = Role::Input;
};

// Where the expression text starts in its file. line and column are 1-based and point
// at the text's first character. literal_block: the text is a YAML literal block scalar
// (`|`), whose line k (0-based) is line + k of the file and whose column c is column + c
// (YAML strips the block's indentation). Otherwise the text is one line at line:column
// (a plain or quoted scalar; a quoted scalar with escapes may report shifted columns).
struct SourceLocation {
  std::string file;
  int line = 1;
  int column = 1;
  bool literal_block = false;
};

// The SourceLocation of a scalar from the raw YAML text and yaml-cpp's 0-based Mark of
// the node (which points at `|`, at the opening quote, or at the first character): for
// `|` the text starts on the next line at that line's indentation; for a quote one
// column later. Works for any scalar; needs the file's text, not yaml-cpp.
SourceLocation locate_yaml_scalar(std::string_view yaml_text, int mark_line, int mark_column,
                                  std::string file);

// Every error in the expression text: what() is "file:line:col: message".
class ExtensionError : public std::runtime_error {
 public:
  ExtensionError(std::string file, int line, int column, const std::string& message);
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_, column_;
  std::string message_;
};

// Bounds on untrusted text (docs/isa-extensions.md lists them); exceeding one is an
// ExtensionError at the offending position.
struct ExprLimits {
  size_t max_text_bytes = 64 * 1024;
  size_t max_statements = 256;
  size_t max_depth = 64;        // nesting of parentheses, operators and calls
  size_t max_nodes = 4096;      // dataflow nodes after temporaries are inlined
  uint32_t max_lanes = 16384;   // declared and run-time vector length
};

// ---- The canonical dataflow form ----------------------------------------------------

// One operation. Names are the ones op_name() prints and OpCount reports.
enum class Op : uint8_t {
  Input,    // operand `input` (an index into ExprProgram::operands)
  Literal,  // int_value (integers, bool) or float_value (bf16 / f32, already rounded)
  Neg, Not,                              // -x, ~x (bitwise; logical on bool)
  Add, Sub, Mul, Div, Rem,               // Div/Rem: integers and floats (Rem: integers)
  And, Or, Xor, Shl, Shr,                // Shr: arithmetic on signed, logical on unsigned
  Eq, Ne, Lt, Le, Gt, Ge,                // result bool
  Select,                                // select(c, a, b): args {c, a, b}
  Min, Max, Abs, Relu,
  Exp, Log, Sqrt, Rsqrt, Recip, Tanh, Sigmoid, Silu, Gelu,
  Fma,                                   // fma(a, b, c) = a * b + c, one rounding
  Sat,                                   // sat(x, T): args {x}, type.format = T
  Srs, Rne,                              // srs/rne(x, shift, T): args {x, shift}
  Convert,                               // T(x): args {x}, type.format = T
  ReduceSum, ReduceMax, ReduceMin,       // sum/max/min(v): vector -> scalar
};
const char* op_name(Op op);  // "add", "reduce_add", "convert", ...

struct DataflowNode {
  Op op = Op::Literal;
  ValueType type;              // the result type
  std::vector<uint32_t> args;  // indices of earlier nodes (nodes are in topological order)
  uint32_t input = 0;          // Op::Input: operand index
  int64_t int_value = 0;       // Op::Literal of an integer or bool format (u64 as bits)
  float float_value = 0;       // Op::Literal of bf16 / f32
};

// The program as a DAG in canonical form: temporaries are inlined, equal subexpressions
// are one node, the arguments of commutative operations (add mul and or xor eq ne min
// max, fma's two factors) are ordered by structure, and nodes are numbered by a
// post-order walk from the outputs in declaration order. Two texts that compute the same
// expression tree up to temporaries, operand order of commutative operations and
// sharing therefore give equal Dataflows (operator==). Dead temporaries are dropped.
struct Dataflow {
  struct Output {
    uint32_t operand = 0;  // index into ExprProgram::operands
    uint32_t node = 0;
    bool operator==(const Output& o) const { return operand == o.operand && node == o.node; }
  };
  std::vector<DataflowNode> nodes;
  std::vector<Output> outputs;  // in operand declaration order
  bool operator==(const Dataflow& o) const;
};

// ---- Operation counts (energy per action, area per operator) -----------------------------

// How many `op`s at `format` one execution performs. lanes 1: `count` scalar operations;
// lanes N > 1: `count` operations on every lane of an N-lane vector; lanes 0: on every
// lane of the run-time length. So per execution: count * (lanes == 0 ? vl : lanes).
// format: the format the operation computes in (bf16 arithmetic is "bf16", the
// accumulation of a bf16 sum is "f32" and its final rounding a "convert" to bf16);
// source: the input format of a convert, sat, srs, rne or comparison (else = format).
struct OpCount {
  std::string op;
  ElemFormat format = ElemFormat::F32;
  ElemFormat source = ElemFormat::F32;
  uint32_t lanes = 1;
  uint32_t count = 0;  // per element of `lanes`
};

// ---- Compiled program and values ----------------------------------------------------

struct ExprProgram {
  std::vector<OperandDecl> operands;  // as declared
  std::vector<uint32_t> inputs;       // operand indices of Input and InOut, in order
  std::vector<uint32_t> outputs;      // operand indices of Output and InOut, in order
  Dataflow dataflow;
  std::vector<OpCount> op_counts;     // sorted by op, format, source, lanes
};

// Compiles `text` against the declared operands. Throws ExtensionError (file:line:col)
// for any syntax, name, type or bound error. Also throws ExtensionError (at `where`) if
// the declarations themselves are invalid (a name used twice, a function's name).
ExprProgram compile_semantics(std::string_view text, const SourceLocation& where,
                              const std::vector<OperandDecl>& operands,
                              const ExprLimits& limits = {});

// A value: the element format and its lanes (one lane for a scalar). Integers and bool
// are held in `ints` (sign-extended for signed formats, zero-extended for unsigned; u64
// as its bit pattern; bool 0/1); bf16 and f32 in `floats` (a bf16 value is held exactly
// as the float with the same upper 16 bits).
struct Value {
  ElemFormat format = ElemFormat::I32;
  bool vector = false;
  std::vector<int64_t> ints;
  std::vector<float> floats;

  size_t lanes() const { return is_float(format) ? floats.size() : ints.size(); }
  static Value scalar_int(ElemFormat f, int64_t v);     // wraps v to f's width
  static Value scalar_float(ElemFormat f, float v);     // rounds v to bf16 when f is bf16
  static Value vector_int(ElemFormat f, const std::vector<int64_t>& lanes);
  static Value vector_float(ElemFormat f, const std::vector<float>& lanes);
  static Value from_bf16_bits(const std::vector<uint16_t>& bits, bool vector);
  std::vector<uint16_t> bf16_bits() const;              // format must be bf16
  Value as_scalar() const;                              // the same lanes, vector = false
};

// Evaluates the program. `inputs` follows ExprProgram::inputs (one value per input, of
// the declared format and shape; every run-time-length vector the same length, at most
// max_lanes); the result follows ExprProgram::outputs. Every input is read before any
// output is produced. Throws std::invalid_argument if the inputs do not match the
// declarations (a caller bug, not bad user text).
std::vector<Value> evaluate(const ExprProgram& program, const std::vector<Value>& inputs,
                            const ExprLimits& limits = {});

// The same keyed by operand name (inputs: every Input and InOut; result: every Output
// and InOut).
std::map<std::string, Value> evaluate_named(const ExprProgram& program,
                                            const std::map<std::string, Value>& inputs,
                                            const ExprLimits& limits = {});

}  // namespace tlmcraft::isa::extension
