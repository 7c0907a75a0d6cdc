#include "isa/aie_ml/fused_latency.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tlmcraft::isa::aie_ml {

namespace {

bool is_accumulator_shape(const std::string& shape) {
  for (const char* acc : {"am", "bm", "cm"})
    if (shape == acc || shape.rfind(std::string(acc) + "|", 0) == 0) return true;
  return false;
}

void check_order(const std::vector<ChainStep>& steps) {
  for (size_t k = 0; k < steps.size(); ++k)
    for (const ChainStep::Read& r : steps[k].reads)
      if (r.from >= int(k)) throw std::invalid_argument("chain step " + std::to_string(k) + " reads a later step");
}

// Stages of one operand's path through step k in one pass: read through write (W - R + 1),
// less the read stage when another step hands the operand over, and less the write
// stage for a value that goes on to another step; at least 1.
uint32_t one_pass_stages(const ChainStep& k, const ChainStep::Read& r, bool written) {
  const int64_t span = int64_t(k.result_stage) - int64_t(r.stage) + 1;
  const int64_t left_out = (r.from >= 0 ? 1 : 0) + (written ? 0 : 1);
  return uint32_t(std::max<int64_t>(1, span - left_out));
}

}  // namespace

ChainLatency chain_latency(const std::vector<ChainStep>& steps) {
  check_order(steps);
  // Per step: back to back, when its result is readable; one pass, when its value is in
  // the datapath for the next step, and when it is written (an output of the chain).
  std::vector<uint32_t> sequential(steps.size(), 0), handed(steps.size(), 0);
  ChainLatency out;
  for (size_t k = 0; k < steps.size(); ++k) {
    const ChainStep& s = steps[k];
    int64_t issue = 0;  // back to back: when the last operand can be read in its stage
    uint32_t written = 0;
    // A step that reads no register (an immediate move) starts at the op's issue.
    const std::vector<ChainStep::Read> reads = s.reads.empty() ? std::vector<ChainStep::Read>{{}} : s.reads;
    for (const ChainStep::Read& r : reads) {
      if (r.from >= 0) issue = std::max<int64_t>(issue, int64_t(sequential[size_t(r.from)]) - (int64_t(r.stage) - 1));
      // One pass: an input is there from the op's issue, read in its stage (R - 1 cycles
      // in); a step's value arrives when that step hands it over.
      const uint32_t arrival = r.from >= 0 ? handed[size_t(r.from)] : r.stage - 1;
      handed[k] = std::max(handed[k], arrival + one_pass_stages(s, r, false));
      written = std::max(written, arrival + one_pass_stages(s, r, true));
    }
    sequential[k] = uint32_t(issue) + s.result_stage;
    if (s.output) {
      out.back_to_back = std::max(out.back_to_back, sequential[k]);
      out.one_pass = std::max(out.one_pass, written);
    }
  }
  return out;
}

uint32_t operand_read_stage(const OpSpec& spec, size_t index, const ReadStages& stages) {
  const bool late =
      spec.latency_class == "vmac" && spec.operands.size() == 4 && index == 1 && is_accumulator_shape(spec.operands[1]);
  return 1 + (late ? stages.acc_read_cycles : 0);
}

}  // namespace tlmcraft::isa::aie_ml
