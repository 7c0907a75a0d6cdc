#include "isa/expression_semantics.h"

#include "isa/extension/expression.h"

namespace tlmcraft::isa {
namespace {

namespace ext = extension;

// "bf16[VLEN]" -> vector of bf16 (run-time length), "u32" -> scalar u32. False if the
// format is not one the language knows.
bool type_of(const std::string& text, ext::ValueType& out) {
  const size_t bracket = text.find('[');
  ext::ElemFormat f;
  if (!ext::parse_format(text.substr(0, bracket), f)) return false;
  out = bracket == std::string::npos ? ext::scalar_of(f) : ext::vector_of(f, 0);
  return true;
}

ext::Role role_of(Role r) {
  if (r == Role::Write) return ext::Role::Output;
  if (r == Role::ReadWrite) return ext::Role::InOut;
  return ext::Role::Input;
}

}  // namespace

std::vector<std::string> compile_expression_semantics(IsaSpec& spec, const DocumentLines& lines) {
  std::vector<std::string> errors;
  for (auto& ins : spec.instructions_) {
    if (ins.semantics.empty()) continue;
    const std::string at = spec.where_line(ins.semantics_line) + ":" +
                           std::to_string(ins.semantics_col) + ": instruction " + ins.mnemonic + ": ";
    std::vector<ext::OperandDecl> decls;
    ins.expr_operands.clear();
    bool ok = true;
    for (size_t i = 0; i < ins.operands.size(); ++i) {
      const OperandSpec& op = ins.operands[i];
      if (op.value.empty() || op.placeholder) continue;
      const ValueClass* vc = spec.value_class(op.value);
      ext::ValueType t;
      if (!vc) continue;  // reported by the loader
      if (!type_of(vc->type, t)) {
        errors.push_back(at + "value class " + vc->name + " has type '" + vc->type + "', which the semantics language lacks");
        ok = false;
        continue;
      }
      decls.push_back({op.name, t, role_of(op.role)});
      ins.expr_operands.push_back(int(i));
    }
    if (!ok) continue;
    try {
      const DocumentLine src = lines(ins.semantics_line);
      const ext::SourceLocation where = ext::locate_yaml_scalar(src.text, src.line - 1, ins.semantics_col - 1, src.file);
      ins.expr = std::make_shared<const ext::ExprProgram>(ext::compile_semantics(ins.semantics, where, decls));
    } catch (const ext::ExtensionError& e) {
      errors.push_back(std::string(e.what()));
    }
  }
  return errors;
}

}  // namespace tlmcraft::isa
