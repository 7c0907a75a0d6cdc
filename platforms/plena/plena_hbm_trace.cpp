#include "platforms/plena/plena_hbm_trace.h"

#include <algorithm>
#include <string>

namespace tlmcraft::plena {

namespace {
uint32_t bank_key(const models::DramCoord& at) { return at.pseudo_channel << 16 | at.bank_group << 8 | at.bank; }
}  // namespace

PlenaHbmTrace::PlenaHbmTrace(traces::TraceRecorder& rec, uint32_t channels)
    : rec_(rec), unlabelled_(rec.intern("HBM")) {
  for (uint32_t c = 0; c < channels; ++c) channel_tracks_.push_back(rec_.track("plena", "hbm.channel" + std::to_string(c)));
  outcome_tracks_[kHit] = rec_.track("plena", "hbm.row_hits");
  outcome_tracks_[kMiss] = rec_.track("plena", "hbm.row_misses");
  outcome_tracks_[kConflict] = rec_.track("plena", "hbm.row_conflicts");
  for (int t : outcome_tracks_) rec_.counter(t, 0, 0);
}

bool PlenaHbmTrace::any_track_enabled() const {
  const auto& tracks = rec_.tracks();
  for (int t : channel_tracks_)
    if (tracks[t].enabled) return true;
  for (int t : outcome_tracks_)
    if (tracks[t].enabled) return true;
  return false;
}

void PlenaHbmTrace::ChannelUse::cover(uint64_t b, uint64_t e) {
  begin = std::min(begin, b);
  end = std::max(end, e);
}

PlenaHbmTrace::Transfer* PlenaHbmTrace::owner(uint64_t id) {
  for (auto it = open_.rbegin(); it != open_.rend(); ++it)
    if (it->first_id <= id) return id < it->first_id + it->requests ? &*it : nullptr;
  return nullptr;
}

void PlenaHbmTrace::batch(uint64_t first_id, uint64_t count, bool, uint64_t) {
  // Every batch since the last labelled transfer belongs to the next transfer instruction.
  if (open_.empty() || open_.back().labelled) {
    open_.emplace_back();
    open_.back().first_id = first_id;
    open_.back().channels.resize(channel_tracks_.size());
  }
  open_.back().requests = first_id + count - open_.back().first_id;
}

void PlenaHbmTrace::command(uint32_t channel, const models::DramRequest& request, models::DramCmd cmd,
                            models::DramRowOutcome outcome, uint64_t cycle, uint64_t data_end) {
  Transfer* t = owner(request.id);
  if (!t || channel >= t->channels.size()) return;
  ChannelUse& use = t->channels[channel];
  use.cover(cycle, data_end);
  const uint32_t key = bank_key(request.at);
  if (std::find(use.banks.begin(), use.banks.end(), key) == use.banks.end()) use.banks.push_back(key);
  if (outcome != models::DramRowOutcome::None) {
    const int o = outcome == models::DramRowOutcome::Hit ? kHit : outcome == models::DramRowOutcome::Miss ? kMiss : kConflict;
    ++use.outcomes[o];
    ++totals_[o];
  }
  t->last_cycle = cycle;
  t->totals = totals_;
  if (cmd == models::DramCmd::Wr) {  // a write is done when its command issues
    ++use.requests;
    finished_request(*t, cycle);
  }
}

void PlenaHbmTrace::returned(uint32_t channel, uint64_t id, uint64_t cycle) {
  Transfer* t = owner(id);
  if (!t || channel >= t->channels.size()) return;
  ChannelUse& use = t->channels[channel];
  use.cover(cycle, cycle + (use.begin == UINT64_MAX ? 1 : 0));  // a forwarded read has no command
  ++use.requests;
  finished_request(*t, cycle);
}

void PlenaHbmTrace::finished_request(Transfer& t, uint64_t cycle) {
  ++t.finished;
  t.last_cycle = cycle;
  t.totals = totals_;
  if (t.labelled && t.finished == t.requests) close_if_complete();
}

void PlenaHbmTrace::transfer(traces::TraceName name, uint32_t pc) {
  for (auto it = open_.rbegin(); it != open_.rend(); ++it) {
    if (it->labelled) break;
    it->labelled = true;
    it->name = name;
    it->pc = pc;
  }
  close_if_complete();
}

void PlenaHbmTrace::close_if_complete() {
  for (auto it = open_.begin(); it != open_.end();) {
    if (it->labelled && it->finished == it->requests) {
      write(*it);
      it = open_.erase(it);
    } else {
      ++it;
    }
  }
}

void PlenaHbmTrace::finish() {
  for (const Transfer& t : open_) write(t);
  open_.clear();
}

void PlenaHbmTrace::write(const Transfer& t) {
  const traces::TraceName name = t.labelled ? t.name : unlabelled_;
  for (size_t c = 0; c < t.channels.size(); ++c) {
    const ChannelUse& u = t.channels[c];
    if (u.begin == UINT64_MAX) continue;  // the transfer never reached this channel
    rec_.slice(channel_tracks_[c], u.begin, u.end, name,
               {{"pc", t.pc}, {"requests", u.requests}, {"banks", u.banks.size()}, {"row_hits", u.outcomes[kHit]},
                {"row_misses", u.outcomes[kMiss]}, {"row_conflicts", u.outcomes[kConflict]}});
  }
  // Totals only grow with time; a transfer closed late (at its label) may carry an older
  // snapshot of the same cycle than one already written, which must not replace it.
  if (t.last_cycle == sampled_cycle_ && t.totals <= sampled_) return;
  sampled_cycle_ = t.last_cycle;
  sampled_ = t.totals;
  for (int o = 0; o < kOutcomes; ++o) rec_.counter(outcome_tracks_[o], t.last_cycle, int64_t(t.totals[o]));
}

}  // namespace tlmcraft::plena
