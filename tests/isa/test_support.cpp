#include "tests/isa/test_support.h"

namespace tlmcraft::isa::test {

const IsaSpec& plena() {
  static const IsaSpec spec = IsaSpec::load(isa_yaml_path("plena"));
  return spec;
}

Assembled assemble_text(const std::string& source, const AssembleOptions& opt) {
  Assembled a;
  a.ok = assemble(plena(), source, "k.asm", a.program, a.diags, opt);
  for (const auto& d : a.diags) a.lines.push_back(d.format());
  return a;
}

}  // namespace tlmcraft::isa::test
