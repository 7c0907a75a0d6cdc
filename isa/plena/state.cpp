#include "isa/plena/state.h"

#include <algorithm>
#include <stdexcept>

namespace tlmcraft::isa::plena {

std::string validate(const PlenaParams& p) {
  auto positive = [](const char* name, uint32_t v) -> std::string {
    return v == 0 ? std::string(name) + " must be at least 1" : std::string();
  };
  for (auto [name, v] : {std::pair<const char*, uint32_t>{"mlen", p.mlen}, {"vlen", p.vlen},
                         {"blen", p.blen}, {"hlen", p.hlen}, {"v_rows", p.v_rows},
                         {"loop_depth", p.loop_depth}}) {
    std::string e = positive(name, v);
    if (!e.empty()) return e;
  }
  auto multiple = [](const char* a, uint32_t av, const char* b, uint32_t bv) -> std::string {
    if (av % bv == 0) return {};
    return std::string(a) + " (" + std::to_string(av) + ") must be a multiple of " + b + " (" +
           std::to_string(bv) + ")";
  };
  for (const std::string& e : {multiple("mlen", p.mlen, "blen", p.blen),
                               multiple("mlen", p.mlen, "hlen", p.hlen),
                               multiple("vlen", p.vlen, "hlen", p.hlen)}) {
    if (!e.empty()) return e;
  }
  if (p.mlen > 4096) return "mlen (" + std::to_string(p.mlen) + ") must be at most 4096";
  if (p.vlen / p.hlen > 32)
    return "vlen / hlen (" + std::to_string(p.vlen / p.hlen) +
           ") must be at most 32: V_MASK has one bit per head";
  if (p.loop_depth > kLoopStackCapacity)
    return "loop_depth (" + std::to_string(p.loop_depth) + ") must be at most " +
           std::to_string(kLoopStackCapacity);
  return {};
}

void PlenaState::configure(const PlenaParams& p) {
  const std::string error = validate(p);
  if (!error.empty()) throw std::invalid_argument("PLENA parameters: " + error);
  params = p;
  acc_mm.assign(size_t(p.blen) * p.blen, 0.0f);
  acc_mv.assign(p.mlen, 0.0f);
  acc_bmm.assign(size_t(p.mlen / p.hlen) * p.mlen * p.mlen, 0.0f);
  acc_bmv.assign(size_t(p.mlen / p.hlen) * p.mlen, 0.0f);
  reset();
}

void PlenaState::reset() {
  gp.fill(0);
  fp.fill(0);
  a.fill(0);
  scale = 0;
  stride = 1;
  v_mask = 0;
  pc = 0;
  halted = false;
  loop_count = 0;
  matrix_macs = 0;
  std::fill(acc_mm.begin(), acc_mm.end(), 0.0f);
  std::fill(acc_mv.begin(), acc_mv.end(), 0.0f);
  std::fill(acc_bmm.begin(), acc_bmm.end(), 0.0f);
  std::fill(acc_bmv.begin(), acc_bmv.end(), 0.0f);
}

}  // namespace tlmcraft::isa::plena
