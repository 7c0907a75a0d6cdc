// AIE-ML baseline generators by task name, grouped by the file that implements them.
// A generator returns a whole kernel file: core program(s) and, when the task's default
// data movement does not fit, its own `.movement` section (docs/platforms/aie-ml.md).
#pragma once
#include <functional>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "tasks/registry.h"

namespace tlmcraft::tasks::aie_ml {

// `platform_config` is the platform's effective configuration (Platform::config()).
using Generator = std::function<std::string(const Instance&, const nlohmann::json& platform_config)>;
using GeneratorMap = std::map<std::string, Generator>;

GeneratorMap vector_generators();  // vector_tasks.cpp: elementwise, normalisation, softmax
GeneratorMap matmul_generators();  // matmul_tasks.cpp: GEMM, Linear, BatchMatMul, GEMV
GeneratorMap attention_generators();  // attention_tasks.cpp: scaled_dot_product, MHA, MQA, GQA
GeneratorMap flash_attention_generators();  // flash_attention.cpp: FlashAttention (online softmax)
GeneratorMap conv_generators();    // conv_tasks.cpp: Conv2D, depthwise convolution, conv block
GeneratorMap mlp_generators();     // mlp_tasks.cpp: RoPE, FFN, SwiGLU
GeneratorMap decoder_generators(); // decoder_tasks.cpp: llama_decoder, t5_decoder (phases)

}  // namespace tlmcraft::tasks::aie_ml
