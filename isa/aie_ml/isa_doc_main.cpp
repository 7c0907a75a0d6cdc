// aie_ml_isa_doc [output.md]: writes the AIE-ML ISA reference generated from the YAML
// (default: <source dir>/docs/isa/aie-ml.md).
#include <fstream>
#include <iostream>

#include "isa/aie_ml/isa_tables.h"

int main(int argc, char** argv) {
  const std::string out = argc > 1 ? argv[1] : std::string(TLMCRAFT_SOURCE_DIR) + "/docs/isa/aie-ml.md";
  try {
    const std::string text = tlmcraft::isa::aie_ml::reference_markdown(tlmcraft::isa::aie_ml::aie_isa_details());
    std::ofstream f(out);
    if (!f || !(f << text)) {
      std::cerr << out << ": cannot write\n";
      return 1;
    }
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  std::cout << "wrote " << out << "\n";
  return 0;
}
