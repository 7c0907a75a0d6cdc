#include "models/dram_address_map.h"

namespace tlmcraft::models {

namespace {

uint32_t log2u(uint64_t v) {
  uint32_t b = 0;
  while ((uint64_t(1) << b) < v) ++b;
  return b;
}

// Takes the low `bits` bits of `a` and shifts them out.
uint64_t take(uint64_t& a, uint32_t bits) {
  const uint64_t v = a & ((uint64_t(1) << bits) - 1);
  a >>= bits;
  return v;
}

}  // namespace

DramAddressMap::DramAddressMap(const DramOrganisation& o)
    : offset_bits_(log2u(o.request_bytes())),
      ch_bits_(log2u(o.channels)),
      pch_bits_(log2u(o.pseudo_channels)),
      bg_bits_(log2u(o.bank_groups)),
      ba_bits_(log2u(o.banks)),
      col_bits_(log2u(o.columns / o.prefetch)),
      row_bits_(log2u(o.rows)) {}

DramCoord DramAddressMap::decode(uint64_t byte_addr) const {
  uint64_t a = byte_addr >> offset_bits_;
  DramCoord c;
  uint64_t col = take(a, 2);
  c.channel = uint32_t(take(a, ch_bits_));
  c.pseudo_channel = uint32_t(take(a, pch_bits_));
  c.bank_group = uint32_t(take(a, bg_bits_));
  c.bank = uint32_t(take(a, ba_bits_));
  col |= take(a, col_bits_ - 2) << 2;
  c.row = a;
  c.column = uint32_t(col);
  // XOR the column into the levels above it, lowest column bits into the channel first.
  uint32_t shift = 0;
  auto mix = [&](auto& level, uint32_t bits) {
    if (bits == 0) return;
    level ^= static_cast<std::remove_reference_t<decltype(level)>>((col >> shift) & ((uint64_t(1) << bits) - 1));
    shift += bits;
  };
  mix(c.channel, ch_bits_);
  mix(c.pseudo_channel, pch_bits_);
  mix(c.bank_group, bg_bits_);
  mix(c.bank, ba_bits_);
  mix(c.row, row_bits_);
  return c;
}

}  // namespace tlmcraft::models
