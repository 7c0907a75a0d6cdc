// `semantics:` ops of the AIE-ML YAML. The expression language lives in isa/extension
// (shared by the three ISAs); until it is merged an op with `semantics:` is refused with
// its position, so no op silently runs without semantics.
#include "isa/aie_ml/extension_semantics.h"

namespace tlmcraft::isa::aie_ml {

struct ExtensionSemantics {};

std::shared_ptr<const ExtensionSemantics> parse_extension_semantics(YamlErrors& L, const YAML::Node& node,
                                                                    const ExtensionOp& ext) {
  L.error(node, ext.mnemonic + ": `semantics:` needs the expression evaluator (isa/extension), not in this build; "
                               "use `compose:`");
  return nullptr;
}

bool run_extension_semantics(const ExtensionSemantics&, const ExtensionOp& ext, ExtensionIo&, std::string& error) {
  error = ext.mnemonic + ": no expression evaluator";
  return false;
}

}  // namespace tlmcraft::isa::aie_ml
