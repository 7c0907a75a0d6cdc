// AIE-ML ops added by data (docs/isa-extensions.md, "AIE-ML"): an op of aie_ml.yaml with
// no C++ semantics gets Code::Extension and one of these, built when the YAML is loaded.
// - compose: steps of built-in register ops over the op's named operands and hidden
//   temporaries. Executed on a private copy of the core state in which every output and
//   temporary is renamed to a register no operand uses, so all inputs are read before any
//   output is written: operands may alias and the result is what the steps compute.
// - semantics: an expression of the shared language (isa/extension), evaluated per op.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/actions.h"
#include "isa/aie_ml/aie_core.h"

namespace tlmcraft::isa::aie_ml {


// An operand of an added op: its name in compose steps / expressions, its register class
// (or immediate kind), role and the element format of its lanes (value type).
struct ExtOperand {
  enum class Role : uint8_t { Read, Write, ReadWrite };
  std::string name;
  std::string shape;            // register class prefix ("x", "bm", "r") or immediate kind ("u5")
  RegClass cls = RegClass::None;  // None for an immediate
  Role role = Role::Read;
  std::string format;           // "i8", "i16", "i32", "i64", "bf16", "fp32" ("" = none given)
  bool written() const { return role != Role::Read; }
  bool read() const { return role != Role::Write; }
};

struct ExtTemp {
  std::string name;
  RegClass cls = RegClass::None;
};

// Where a step operand comes from: operand `index` of the added op, or temp `index`.
struct StepBinding {
  int step_operand = 0;
  bool temp = false;
  int index = 0;
};

struct ComposeStep {
  SlotOp op;                         // assembled with placeholder registers
  std::vector<StepBinding> bindings; // replaced by the bound registers when executed
  std::string text;                  // as written in the YAML (for messages)
};

// The evaluator of a `semantics:` op (isa/extension); opaque here.
struct ExtensionSemantics;

struct ExtensionOp {
  std::string mnemonic;
  std::vector<ExtOperand> operands;
  std::vector<ExtTemp> temps;
  std::vector<ComposeStep> steps;    // compose (empty for semantics)
  // `replaces:` of a `semantics:` op: the composition (compose syntax) it stands for, so
  // the search agent places it wherever that composition matches; never executed (the op
  // runs by its semantics).
  std::vector<ExtTemp> replaces_temps;
  std::vector<ComposeStep> replaces;
  std::shared_ptr<const ExtensionSemantics> semantics;
  std::vector<uint16_t> implicit_reads;  // storage units steps read beyond the operands (crrnd, crsat)
  // Energy arithmetic of one issue of a `semantics:` op (isa/actions.h): its counted
  // operations on the unit of its slot ("vector.exp.bf16" x lanes). A composed op's actions
  // are its steps' (platforms/aie_ml/aie_actions.cpp).
  NamedActions actions;
  bool composed() const { return !steps.empty(); }
  // The steps a kernel's code must show for the op to replace them (compose or replaces).
  const std::vector<ComposeStep>& pattern_steps() const { return composed() ? steps : replaces; }
  const std::vector<ExtTemp>& pattern_temps() const { return composed() ? temps : replaces_temps; }
};

// A register of `cls` whose storage units meet none of `used`; adds its units to `used`.
// False when the class has no such register left.
bool allocate_hidden_register(RegClass cls, std::vector<uint16_t>& used, int& num);

}  // namespace tlmcraft::isa::aie_ml
