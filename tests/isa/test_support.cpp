#include "tests/isa/test_support.h"

#include <fstream>
#include <sstream>

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

std::string plena_yaml() {
  std::ifstream in(std::string(TLMCRAFT_SOURCE_DIR) + "/isa/plena/plena.yaml");
  std::ostringstream o;
  o << in.rdbuf();
  return o.str();
}

int line_count(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace tlmcraft::isa::test
