// AIE-ML baselines for the vector tasks (elementwise, normalisation, softmax).
#include "tasks/baselines/aie_ml/generators.h"

namespace tlmcraft::tasks::aie_ml {

GeneratorMap vector_generators() { return {}; }

}  // namespace tlmcraft::tasks::aie_ml
