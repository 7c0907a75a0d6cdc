// Address mapping of the command-level DRAM engine: byte address -> (channel,
// pseudo-channel, bank group, bank, row, column). MOP4CLXOR: above the request offset,
// two column bits, then channel, pseudo-channel, bank-group and bank bits, the remaining
// column bits and the row; the low column bits are then XORed into the channel (and the
// next levels), so the requests of one 64-byte block spread over several channels.
#pragma once
#include <cstdint>

#include "models/dram_command_config.h"

namespace tlmcraft::models {

struct DramCoord {
  uint32_t channel = 0, pseudo_channel = 0, bank_group = 0, bank = 0;
  uint64_t row = 0;
  uint32_t column = 0;
};

class DramAddressMap {
 public:
  explicit DramAddressMap(const DramOrganisation& org);
  DramCoord decode(uint64_t byte_addr) const;

 private:
  uint32_t offset_bits_, ch_bits_, pch_bits_, bg_bits_, ba_bits_, col_bits_, row_bits_;
};

}  // namespace tlmcraft::models
