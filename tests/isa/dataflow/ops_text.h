// Builds dataflow ops from a compact text for the tests: "mul w:x5 r:x1 r:x2 #3" is an op
// writing x5 and reading x1, x2, with the literal 3. "|" marks a barrier op, "jump:N"
// a control-flow edge to op N.
#pragma once
#include <sstream>
#include <string>
#include <vector>

#include "isa/dataflow/dataflow.h"
#include "isa/dataflow/pattern_match.h"

namespace tlmcraft::isa::dataflow::testing {

inline Operand operand(const std::string& token) {
  Operand o;
  if (token[0] == '#') {
    o.access = Access::Literal;
    o.text = token.substr(1);
    return o;
  }
  if (token[0] == '$') {  // a pattern parameter
    o.access = Access::Literal;
    o.storage = token.substr(1);
    return o;
  }
  const std::string kind = token.substr(0, token.find(':'));
  o.storage = o.text = token.substr(token.find(':') + 1);
  o.access = kind == "r" ? Access::Read : kind == "w" ? Access::Write : Access::ReadWrite;
  return o;
}

inline Op op(const std::string& text) {
  std::istringstream in(text);
  Op o;
  in >> o.mnemonic;
  if (o.mnemonic == "|") o.barrier = true;
  for (std::string t; in >> t;) {
    if (t.rfind("jump:", 0) == 0)
      o.jumps_to.push_back(std::stoul(t.substr(5)));
    else
      o.operands.push_back(operand(t));
  }
  return o;
}

inline std::vector<Op> ops(const std::vector<std::string>& lines) {
  std::vector<Op> out;
  for (const std::string& l : lines) out.push_back(op(l));
  return out;
}

inline PatternStep step(const std::string& text) {
  Op o = op(text);
  return PatternStep{o.mnemonic, o.operands};
}

}  // namespace tlmcraft::isa::dataflow::testing
