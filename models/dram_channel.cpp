#include "models/dram_channel.h"

#include <algorithm>

#include "models/dram_observer.h"

namespace tlmcraft::models {

DramChannel::DramChannel(const DramCommandConfig& cfg) : cfg_(cfg), banks_(cfg) {}

bool DramChannel::accept(DramRequest r, uint64_t clk) {
  if (!r.write) {
    for (const DramRequest& w : writes_)
      if (w.addr == r.addr) {  // served from the write buffer next cycle
        returns_.push_back({clk + 1, r.id});
        ++stats_.forwarded;
        return true;
      }
  }
  Buffer& b = r.write ? writes_ : reads_;
  if (b.size() >= (r.write ? cfg_.write_queue : cfg_.read_queue)) {
    ++stats_.refused;
    return false;
  }
  r.arrive = clk;
  b.push_back(r);
  return true;
}

int DramChannel::pick(Buffer& b, uint64_t clk, bool arrival_ordered) {
  int best = -1;
  bool best_ready = false;
  for (int i = 0; i < int(b.size()); ++i) {
    DramRequest& r = b[i];
    r.next = banks_.next_command(r.write ? DramCmd::Wr : DramCmd::Rd, r.at);
    const bool ready = banks_.ready(r.next, r.at, clk);
    if (best < 0 || (ready && !best_ready) || (ready == best_ready && r.arrive < b[best].arrive)) {
      best = i;
      best_ready = ready;
    }
    // In a buffer kept in arrival order the first ready request is the oldest ready one.
    if (ready && arrival_ordered) break;
  }
  if (arrival_ordered && !best_ready && best >= 0) best = 0;  // none ready: the oldest
  return best;
}

void DramChannel::update_write_mode() {
  const double w = double(writes_.size()), cap = double(cfg_.write_queue);
  if (!write_mode_)
    write_mode_ = w > cap * cfg_.write_high_percent / 100.0 || reads_.empty();
  else if (w < cap * cfg_.write_low_percent / 100.0 && !reads_.empty())
    write_mode_ = false;
}

bool DramChannel::bank_has_activating(const DramCoord& at) const {
  for (const DramRequest& r : active_)
    if (r.at.pseudo_channel == at.pseudo_channel && r.at.bank_group == at.bank_group && r.at.bank == at.bank)
      return true;
  return false;
}

bool DramChannel::schedule(uint64_t clk, Buffer*& from, int& index) {
  bool found = false;
  // Requests whose row is being opened go first (no wasted ACT).
  if ((index = pick(active_, clk, false)) >= 0 && banks_.ready(active_[index].next, active_[index].at, clk)) {
    from = &active_;
    found = true;
  }
  if (!found) {
    update_write_mode();
    Buffer& b = write_mode_ ? writes_ : reads_;
    if ((index = pick(b, clk, true)) >= 0) {
      from = &b;
      found = banks_.ready(b[index].next, b[index].at, clk);
    }
  }
  // Never close a row that a request in the activating buffer is waiting for.
  if (found && (*from)[index].next == DramCmd::Pre && bank_has_activating((*from)[index].at)) found = false;
  return found;
}

DramRowOutcome DramChannel::count_outcome(const DramRequest& r) {
  if (banks_.row_open(r.at)) {
    ++stats_.row_hits;
    return DramRowOutcome::Hit;
  }
  if (banks_.bank_open(r.at)) {
    ++stats_.row_conflicts;
    return DramRowOutcome::Conflict;
  }
  ++stats_.row_misses;
  return DramRowOutcome::Miss;
}

// The engine's step at cycle t runs the controllers at clock t + 1 (DramCommandEngine::step):
// observers get engine cycles.
uint64_t DramChannel::data_end(DramCmd cmd, uint64_t cycle) const {
  if (cmd == DramCmd::Rd) return cycle + cfg_.t.nCL + cfg_.t.nBL;
  if (cmd == DramCmd::Wr) return cycle + cfg_.t.nCWL + cfg_.t.nBL;
  return cycle + 1;
}

void DramChannel::report(const DramRequest& r, DramRowOutcome outcome, uint64_t clk) const {
  observer_->command(index_, r, r.next, outcome, clk - 1, data_end(r.next, clk - 1));
}

bool DramChannel::tick(uint64_t clk, uint64_t& done) {
  bool finished = false;
  if (!returns_.empty() && returns_.front().at <= clk) {
    done = returns_.front().id;
    returns_.pop_front();
    finished = true;
  }
  Buffer* from = nullptr;
  int i = -1;
  if (!schedule(clk, from, i)) return finished;
  DramRequest& sel = (*from)[i];
  const DramRowOutcome outcome = sel.counted ? DramRowOutcome::None : count_outcome(sel);
  sel.counted = true;
  const DramRequest r = sel;
  banks_.issue(r.next, r.at, clk);
  if (observer_) report(r, outcome, clk);
  if (r.next == DramCmd::Wr) write_data_end_ = std::max(write_data_end_, data_end(DramCmd::Wr, clk - 1));
  const DramCmd final = r.write ? DramCmd::Wr : DramCmd::Rd;
  if (r.next == final) {
    if (r.write) ++stats_.writes;
    else {
      ++stats_.reads;
      returns_.push_back({clk + cfg_.t.nCL + cfg_.t.nBL, r.id});
    }
    from->erase(from->begin() + i);
  } else if (r.next == DramCmd::Act) {
    ++stats_.acts;
    if (active_.size() < cfg_.active_queue) {
      active_.push_back(r);
      from->erase(from->begin() + i);
    }
  } else {
    ++stats_.pres;
  }
  return finished;
}

}  // namespace tlmcraft::models
