// Command timing of one DRAM channel: the earliest cycle each command may be issued at
// each level (channel, pseudo-channel, bank group, bank), derived from a table of
// "command A -> command B at least N cycles later" rules at each level (nRCD, nRAS, nRC,
// nRP, nCCD, nRRD, nFAW, read/write turnarounds, data-bus occupancy nBL), and the
// open/closed state and open row of each bank.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "models/dram_address_map.h"
#include "models/dram_command_config.h"

namespace tlmcraft::models {

enum class DramCmd : uint8_t { Act, Pre, Rd, Wr };
constexpr int kDramCmds = 4;

class DramBankTiming {
 public:
  explicit DramBankTiming(const DramCommandConfig& cfg);

  // The command a request needing `final` (Rd or Wr) must issue next: ACT on a closed
  // bank, PRE on a bank with another row open, else `final`.
  DramCmd next_command(DramCmd final, const DramCoord& at) const;
  bool ready(DramCmd cmd, const DramCoord& at, uint64_t clk) const;
  bool row_open(const DramCoord& at) const;  // the request's row is the open one
  bool bank_open(const DramCoord& at) const;
  void issue(DramCmd cmd, const DramCoord& at, uint64_t clk);  // updates timing and bank state

 private:
  enum Level { kChannel, kPseudo, kGroup, kBank, kLevels };
  struct Rule {
    DramCmd next;
    uint32_t cycles;
    uint32_t window;  // 1: after the last `prev`; N: after the N-th last (nFAW)
  };
  uint32_t node(Level l, const DramCoord& at) const;
  int64_t& ready_at(Level l, uint32_t node, DramCmd c) { return ready_[l][node * kDramCmds + int(c)]; }
  int64_t ready_at(Level l, uint32_t node, DramCmd c) const { return ready_[l][node * kDramCmds + int(c)]; }
  void add(Level l, std::initializer_list<DramCmd> prev, std::initializer_list<DramCmd> next, uint32_t cycles,
           uint32_t window = 1);

  DramOrganisation org_;
  std::array<std::array<std::vector<Rule>, kDramCmds>, kLevels> rules_;
  std::array<std::vector<int64_t>, kLevels> ready_;  // -1 = no constraint yet
  std::vector<std::array<int64_t, 4>> act_history_;  // per pseudo-channel: last 4 ACT cycles, newest first
  std::vector<int8_t> open_;                         // per bank
  std::vector<uint64_t> open_row_;                   // per bank
};

}  // namespace tlmcraft::models
