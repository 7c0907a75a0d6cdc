// Coral's integer decoder blocks (exact): the llama_decoder and t5_decoder references,
// composed of the integer blocks of the single-stage tasks (int8_blocks.h: RMSNorm, RoPE,
// SwiGLU; int8_attention.h: attention) with requantisation between stages. The formulas
// are in the tasks' Coral notes and docs/tasks.md.
#pragma once

#include "tasks/reference/context.h"

namespace tlmcraft::tasks::coral {

TensorSet llama_decoder(const ref::Ctx& c);
TensorSet t5_decoder(const ref::Ctx& c);

}  // namespace tlmcraft::tasks::coral
