// PLENA template baselines for the level-2 and level-3 tasks.
#include "tasks/baselines/plena/generators.h"

namespace tlmcraft::tasks::plena {

GeneratorMap level23_generators() { return {}; }

}  // namespace tlmcraft::tasks::plena
