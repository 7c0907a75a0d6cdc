// The skeleton every single-tile AIE-ML vector baseline shares: walk the default data
// movement's blocks (platforms/aie_ml/pack/layout_aie_ml.h) pass by pass, acquiring each filled input
// block and each free output block, running a task-specific body on them, and handing
// them back. Registers the skeleton owns: r0 (current input block, core address), r1
// (current output block), r2 (ping ^ pong), r3 (blocks left in the pass). Bodies may use
// every other register; labels get a per-pass tag so bodies can be reused.
#pragma once
#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "platforms/aie_ml/pack/layout_aie_ml.h"

namespace tlmcraft::tasks::aie_ml {

// Kernel text with one bundle per line and unique labels.
class KernelText {
 public:
  // One bundle: slot operations separated by ";;".
  void op(const std::string& bundle, const std::string& comment = "");
  void label(const std::string& name);
  void comment(const std::string& text);
  // A zero-overhead loop running `body` (one bundle per entry) `count` times; count 0
  // skips it. Labels are derived from `tag`.
  void zero_overhead_loop(const std::string& tag, uint64_t count, const std::vector<std::string>& body);
  // The same loop written op by op: begin_loop, the body's ops, then loop_last with its
  // last bundle (count must be at least 1).
  void begin_loop(const std::string& tag, uint64_t count);
  void loop_last(const std::string& bundle, const std::string& comment = "");
  // A zero-overhead loop whose body `emit` writes op by op into a fresh KernelText
  // (helpers such as fp_steps' split go in unchanged): the same ops in a fraction of the
  // program memory. The body may hold no labels or loops (the core has one loop
  // register set); count must be at least 1.
  void loop(const std::string& tag, uint64_t count, const std::function<void(KernelText&)>& emit);
  std::string str() const { return o_.str(); }

 private:
  std::ostringstream o_;
  int loops_ = 0;
  std::string open_end_;
};

class BlockLoop {
 public:
  using Body = std::function<void(KernelText&, const std::string& tag)>;
  BlockLoop(const AieMlLayout& layout, const std::string& task);
  // A bundle run once before the first block.
  void setup(const std::string& bundle, const std::string& comment = "");
  KernelText& code() { return t_; }
  // One pass over every input block; the body sees r0 = input block and, when the pass
  // produces output, r1 = output block. Passes must be added in the plan's number.
  void pass(bool produces_output, const Body& body);
  // The whole kernel file (core program only; the task's default movement applies).
  std::string text() const;

 private:
  const AieMlMovementPlan& plan_;
  std::string task_;
  KernelText t_;
  int passes_ = 0;
  bool started_ = false;
  void start();
};

}  // namespace tlmcraft::tasks::aie_ml
