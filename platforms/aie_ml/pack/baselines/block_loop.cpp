#include "platforms/aie_ml/pack/baselines/block_loop.h"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace tlmcraft::tasks::aie_ml {

void KernelText::op(const std::string& bundle, const std::string& comment) {
  o_ << "  " << bundle;
  if (!comment.empty()) o_ << "    ; " << comment;
  o_ << "\n";
}

void KernelText::label(const std::string& name) { o_ << name << ":\n"; }

void KernelText::comment(const std::string& text) { o_ << "  ; " << text << "\n"; }

void KernelText::zero_overhead_loop(const std::string& tag, uint64_t count, const std::vector<std::string>& body) {
  if (count == 0 || body.empty()) return;
  const std::string top = tag + "_l" + std::to_string(loops_) + "_top",
                    end = tag + "_l" + std::to_string(loops_) + "_end";
  ++loops_;
  op("MOVXM ls, " + top);
  op("MOVXM le, " + end);
  op("MOVXM lc, " + std::to_string(count), std::to_string(count) + " iterations");
  label(top);
  for (size_t i = 0; i + 1 < body.size(); ++i) op(body[i]);
  label(end);
  op(body.back());
}

void KernelText::begin_loop(const std::string& tag, uint64_t count) {
  if (count == 0) throw std::logic_error("aie_ml kernel text: a loop needs at least one iteration");
  const std::string top = tag + "_l" + std::to_string(loops_) + "_top";
  open_end_ = tag + "_l" + std::to_string(loops_) + "_end";
  ++loops_;
  op("MOVXM ls, " + top);
  op("MOVXM le, " + open_end_);
  op("MOVXM lc, " + std::to_string(count), std::to_string(count) + " iterations");
  label(top);
}

void KernelText::loop_last(const std::string& bundle, const std::string& comment) {
  if (open_end_.empty()) throw std::logic_error("aie_ml kernel text: loop_last without begin_loop");
  label(open_end_);
  op(bundle, comment);
  open_end_.clear();
}

void KernelText::loop(const std::string& tag, uint64_t count, const std::function<void(KernelText&)>& emit) {
  KernelText body;
  emit(body);
  std::vector<std::string> lines;
  std::istringstream in(body.str());
  size_t last = SIZE_MAX;  // the body's last bundle: the loop-end label goes on it
  for (std::string l; std::getline(in, l);) {
    const size_t f = l.find_first_not_of(' ');
    if (f == std::string::npos || l[f] == ';') {
      lines.push_back(l);
      continue;
    }
    if (l.compare(f, 6, "MOVXM ") == 0 && (l.compare(f + 6, 2, "ls") == 0 || l.compare(f + 6, 2, "le") == 0))
      throw std::logic_error("aie_ml kernel text: loop '" + tag + "' holds another loop");
    if (l[0] != ' ') throw std::logic_error("aie_ml kernel text: loop '" + tag + "' holds the label " + l);
    last = lines.size();
    lines.push_back(l);
  }
  if (last == SIZE_MAX) throw std::logic_error("aie_ml kernel text: loop '" + tag + "' has no bundle");
  begin_loop(tag, count);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i == last) label(open_end_);
    o_ << lines[i] << "\n";
  }
  open_end_.clear();
}

BlockLoop::BlockLoop(const AieMlLayout& layout, const std::string& task) : plan_(layout.movement()), task_(task) {
  if (!plan_.available)
    throw std::invalid_argument("aie_ml baseline " + task + ": no default data movement (" + plan_.reason + ")");
}

void BlockLoop::start() {
  if (started_) return;
  started_ = true;
  t_.comment("blocks: input ping/pong and output ping/pong in tile (0,0), core addresses 0x70000 + tile address");
  t_.op("MOVXM r0, " + std::to_string(kAieMlOwnTileBase + plan_.in_ping), "current input block");
  t_.op("MOVXM r1, " + std::to_string(kAieMlOwnTileBase + plan_.out_ping), "current output block");
  t_.op("MOVXM r2, " + std::to_string(plan_.in_ping ^ plan_.in_pong), "ping ^ pong (inputs and outputs alike)");
}

void BlockLoop::setup(const std::string& bundle, const std::string& comment) {
  start();
  t_.op(bundle, comment);
}

void BlockLoop::pass(bool produces_output, const Body& body) {
  start();
  if (plan_.in_ping ^ plan_.in_pong ^ plan_.out_ping ^ plan_.out_pong)
    throw std::logic_error("aie_ml block loop: input and output ping/pong must differ by the same bits");
  const std::string tag = task_ + "_p" + std::to_string(passes_++);
  t_.comment("pass " + std::to_string(passes_) + " of " + std::to_string(plan_.passes) + " over " +
             std::to_string(plan_.chunks) + " block(s)");
  t_.op("MOVXM r3, " + std::to_string(plan_.chunks), "blocks left");
  t_.label(tag + "_block");
  t_.op("ACQ " + std::to_string(plan_.lock_in_full) + ", 1", "wait for a filled input block");
  if (produces_output) t_.op("ACQ " + std::to_string(plan_.lock_out_empty) + ", 1", "wait for a free output block");
  body(t_, tag);
  t_.op("REL " + std::to_string(plan_.lock_in_empty) + ", 1", "input block free again");
  if (produces_output) t_.op("REL " + std::to_string(plan_.lock_out_full) + ", 1", "output block filled");
  t_.op("XOR r0, r0, r2", "next input block");
  if (produces_output) t_.op("XOR r1, r1, r2", "next output block");
  t_.op("ADD r3, r3, #-1");
  t_.op("JNZ r3, " + tag + "_block");
}

std::string BlockLoop::text() const {
  if (passes_ != int(plan_.passes))
    throw std::logic_error("aie_ml baseline " + task_ + ": " + std::to_string(passes_) +
                           " passes written, the movement streams " + std::to_string(plan_.passes));
  std::ostringstream o;
  o << "; AIE-ML baseline for " << task_
    << " (platforms/aie_ml/pack/baselines/vector_tasks.cpp): one core on tile (0,0),\n"
    << "; the task's default data movement (" << plan_.chunks << " block(s) per pass, " << plan_.passes
    << " pass(es)).\n"
    << ".tile 0 0\n"
    << t_.str() << "  DONE\n";
  return o.str();
}

}  // namespace tlmcraft::tasks::aie_ml
