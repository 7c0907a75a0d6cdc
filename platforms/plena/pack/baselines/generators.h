// PLENA baseline generators by task name, grouped by the file that implements them.
#pragma once
#include <functional>
#include <map>
#include <string>

#include "platforms/plena/pack/baselines/conv.h"
#include "platforms/plena/pack/baselines/gemm.h"
#include "tasks/registry.h"

namespace tlmcraft::tasks::plena {

using Generator = std::function<std::string(const Instance&, const PlenaArch&)>;
using GeneratorMap = std::map<std::string, Generator>;

GeneratorMap level1_generators();   // level1.cpp: elementwise, normalisation, matrix tasks
GeneratorMap level23_generators();  // level23.cpp: RoPE, FFN, SwiGLU, attention, decoder blocks

// The Conv2D template's parameters for a conv2d or conv_block instance (level1.cpp).
ConvKernel conv_kernel(const Instance& inst);

}  // namespace tlmcraft::tasks::plena
