#include "models/dram_bank_timing.h"

#include <algorithm>
#include <stdexcept>

namespace tlmcraft::models {

namespace {
using C = DramCmd;
}

DramBankTiming::DramBankTiming(const DramCommandConfig& cfg) : org_(cfg.org) {
  const DramTimingParams& t = cfg.t;
  // Channel: an ACT occupies the row-command bus for act_cycles.
  add(kChannel, {C::Act}, {C::Act, C::Pre}, t.act_cycles);
  // Pseudo-channel: activation rate and window, data-bus occupancy, column spacing, turnarounds.
  add(kPseudo, {C::Act}, {C::Act}, t.nRRDS);
  add(kPseudo, {C::Act}, {C::Act}, t.nFAW, 4);
  add(kPseudo, {C::Rd}, {C::Rd}, std::max(t.nBL, t.nCCDS));
  add(kPseudo, {C::Wr}, {C::Wr}, std::max(t.nBL, t.nCCDS));
  add(kPseudo, {C::Rd}, {C::Wr}, t.nCL + t.nBL + 2 - t.nCWL);
  add(kPseudo, {C::Wr}, {C::Rd}, t.nCWL + t.nBL + t.nWTRS);
  // Bank group: long column spacing and activation spacing inside one group.
  add(kGroup, {C::Rd}, {C::Rd}, t.nCCDL);
  add(kGroup, {C::Wr}, {C::Wr}, t.nCCDL);
  add(kGroup, {C::Wr}, {C::Rd}, t.nCWL + t.nBL + t.nWTRL);
  add(kGroup, {C::Act}, {C::Act}, t.nRRDL);
  // Bank: row cycle, activate-to-column, activate-to-precharge, precharge, column-to-precharge.
  add(kBank, {C::Act}, {C::Act}, t.nRC);
  add(kBank, {C::Act}, {C::Rd}, t.nRCDRD);
  add(kBank, {C::Act}, {C::Wr}, t.nRCDWR);
  add(kBank, {C::Act}, {C::Pre}, t.nRAS);
  add(kBank, {C::Pre}, {C::Act}, t.nRP);
  add(kBank, {C::Rd}, {C::Pre}, std::max(t.nRTPS, t.nRTPL));
  add(kBank, {C::Wr}, {C::Pre}, t.nCWL + t.nBL + t.nWR);

  const uint32_t pch = org_.pseudo_channels, groups = pch * org_.bank_groups, banks = groups * org_.banks;
  ready_[kChannel].assign(kDramCmds, -1);
  ready_[kPseudo].assign(size_t(pch) * kDramCmds, -1);
  ready_[kGroup].assign(size_t(groups) * kDramCmds, -1);
  ready_[kBank].assign(size_t(banks) * kDramCmds, -1);
  act_history_.assign(pch, {-1, -1, -1, -1});
  open_.assign(banks, 0);
  open_row_.assign(banks, 0);
}

void DramBankTiming::add(Level l, std::initializer_list<DramCmd> prev, std::initializer_list<DramCmd> next,
                         uint32_t cycles, uint32_t window) {
  if (window > 1 && (l != kPseudo || prev.size() != 1 || *prev.begin() != C::Act || window > 4))
    throw std::logic_error("DramBankTiming: windowed rules are ACT rules per pseudo-channel, window <= 4");
  for (DramCmd p : prev)
    for (DramCmd n : next) rules_[l][int(p)].push_back({n, cycles, window});
}

uint32_t DramBankTiming::node(Level l, const DramCoord& at) const {
  switch (l) {
    case kChannel: return 0;
    case kPseudo: return at.pseudo_channel;
    case kGroup: return at.pseudo_channel * org_.bank_groups + at.bank_group;
    default: return (at.pseudo_channel * org_.bank_groups + at.bank_group) * org_.banks + at.bank;
  }
}

bool DramBankTiming::bank_open(const DramCoord& at) const { return open_[node(kBank, at)] != 0; }

bool DramBankTiming::row_open(const DramCoord& at) const {
  const uint32_t b = node(kBank, at);
  return open_[b] && open_row_[b] == at.row;
}

DramCmd DramBankTiming::next_command(DramCmd final, const DramCoord& at) const {
  if (!bank_open(at)) return C::Act;
  return row_open(at) ? final : C::Pre;
}

bool DramBankTiming::ready(DramCmd cmd, const DramCoord& at, uint64_t clk) const {
  for (int l = 0; l < kLevels; ++l) {
    const int64_t r = ready_at(Level(l), node(Level(l), at), cmd);
    if (r >= 0 && int64_t(clk) < r) return false;
  }
  return true;
}

void DramBankTiming::issue(DramCmd cmd, const DramCoord& at, uint64_t clk) {
  if (cmd == C::Act) {
    auto& h = act_history_[at.pseudo_channel];
    std::rotate(h.rbegin(), h.rbegin() + 1, h.rend());  // newest first
    h[0] = int64_t(clk);
  }
  for (int l = 0; l < kLevels; ++l) {
    const uint32_t n = node(Level(l), at);
    for (const Rule& r : rules_[l][int(cmd)]) {
      const int64_t from = r.window == 1 ? int64_t(clk) : act_history_[at.pseudo_channel][r.window - 1];
      if (from < 0) continue;  // fewer than `window` ACTs so far
      int64_t& slot = ready_at(Level(l), n, r.next);
      slot = std::max(slot, from + int64_t(r.cycles));
    }
  }
  const uint32_t b = node(kBank, at);
  if (cmd == C::Act) {
    open_[b] = 1;
    open_row_[b] = at.row;
  } else if (cmd == C::Pre) {
    open_[b] = 0;
  }
}

}  // namespace tlmcraft::models
