#include "isa/aie_ml/wait_insertion.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "isa/aie_ml/control_flow.h"
#include "isa/aie_ml/def_use.h"
#include "isa/aie_ml/op_codes.h"

namespace tlmcraft::isa::aie_ml {

namespace {

// Per storage unit, cycles from a bundle's issue (> 0): until its pending result lands
// (readable), and until a multiply-accumulate issued earlier reads it late (a write landing
// by then would be what that read sees).
struct Pending {
  std::map<uint16_t, int> lands, late_reads;
};

struct BundleUse {
  std::map<uint16_t, int> reads;       // unit -> cycles after issue it is read (the earliest)
  std::map<uint16_t, int> writes;      // unit -> result latency
  std::map<uint16_t, int> late_reads;  // unit -> the latest read after issue (> 0)
};

BundleUse use_of(const AieLine& bundle, const ReadStages& stages) {
  BundleUse u;
  for (const AieOp& o : bundle.ops) {
    for (uint16_t r : o.op.reads) {
      const int offset = static_cast<int>(read_offset(o.op, r, stages));
      const auto it = u.reads.find(r);
      u.reads[r] = it == u.reads.end() ? offset : std::min(it->second, offset);
      if (offset > 0) u.late_reads[r] = std::max(u.late_reads[r], offset);
    }
    for (uint16_t w : o.op.writes) u.writes[w] = std::max(u.writes[w], static_cast<int>(result_latency(o, w)));
  }
  return u;
}

// NOPs the bundle needs before it, given what is pending at its entry.
int wait_before(const BundleUse& u, const Pending& p) {
  int wait = 0;
  for (const auto& [r, offset] : u.reads) {  // read no earlier than the result lands
    const auto it = p.lands.find(r);
    if (it != p.lands.end()) wait = std::max(wait, it->second - offset);
  }
  for (const auto& [w, latency] : u.writes) {  // land strictly after the pending result and late read
    for (const std::map<uint16_t, int>* m : {&p.lands, &p.late_reads}) {
      const auto it = m->find(w);
      if (it != m->end()) wait = std::max(wait, it->second - latency + 1);
    }
  }
  return wait;
}

std::map<uint16_t, int> aged(const std::map<uint16_t, int>& m, int cycles) {
  std::map<uint16_t, int> out;
  for (const auto& [unit, left] : m)
    if (left - cycles > 0) out[unit] = left - cycles;
  return out;
}

Pending aged(const Pending& p, int cycles) { return {aged(p.lands, cycles), aged(p.late_reads, cycles)}; }

// What is pending at the next bundle's entry.
Pending after(const BundleUse& u, const Pending& entry, int wait) {
  Pending out = aged(entry, wait + 1);
  for (const auto& [unit, latency] : u.writes)
    if (latency - 1 > 0)
      out.lands[unit] = latency - 1;
    else
      out.lands.erase(unit);
  for (const auto& [unit, offset] : u.late_reads)
    if (offset - 1 > 0) out.late_reads[unit] = std::max(out.late_reads[unit], offset - 1);
  return out;
}

bool merge(std::map<uint16_t, int>& into, const std::map<uint16_t, int>& from) {
  bool changed = false;
  for (const auto& [unit, left] : from) {
    int& v = into[unit];
    if (left > v) v = left, changed = true;
  }
  return changed;
}

bool merge(Pending& into, const Pending& from) {
  const bool lands = merge(into.lands, from.lands);
  return merge(into.late_reads, from.late_reads) || lands;
}

AieLine nop_bundle() {
  AieLine l;
  l.kind = AieLine::Kind::Bundle;
  AieOp op;
  if (!assemble_op("NOP", op)) throw std::logic_error("insert_waits: NOP does not assemble");
  l.ops.push_back(op);
  l.comment = "wait (exposed pipeline)";
  return l;
}

// The label group before the bundle at line `b`: from the line after the previous bundle
// to `b`. `top` is where waits every path runs go (after the labels branches name, before a
// loop-end label); `entry_only` says whether the group's start (before every label) is
// reached by falling through alone, so waits there are paid on that path only.
struct WaitPlaces {
  size_t group_start = 0, top = 0;
  bool entry_only = false;
};

WaitPlaces wait_places(const AieTile& tile, const TileStructure& s, size_t b, const std::string& where) {
  size_t first = b;
  while (first > 0 && tile.lines[first - 1].kind != AieLine::Kind::Bundle) --first;
  size_t last_hard = SIZE_MAX, first_soft = SIZE_MAX;
  for (size_t i = first; i < b; ++i) {
    const AieLine& l = tile.lines[i];
    if (l.kind != AieLine::Kind::Label) continue;
    if (s.loop_end_labels.count(l.label))
      first_soft = std::min(first_soft, i);
    else
      last_hard = i;
  }
  if (last_hard != SIZE_MAX && first_soft != SIZE_MAX && last_hard > first_soft)
    throw std::invalid_argument("insert_waits: " + where + ": label '" + tile.lines[last_hard].label +
                                "' follows the loop-end label '" + tile.lines[first_soft].label +
                                "' on one bundle: no place for a wait");
  WaitPlaces w;
  w.group_start = first;
  w.top = first_soft != SIZE_MAX ? first_soft : last_hard != SIZE_MAX ? last_hard + 1 : b;
  w.entry_only = last_hard != SIZE_MAX && first_soft == SIZE_MAX;
  return w;
}

// Per bundle: what arrives by falling through from the previous bundle and what arrives by
// a jump or loop-back, and the waits it gets: `entry` NOPs before its labels (the
// fall-through path alone) and `top` NOPs after them (every path).
struct BundleWaits {
  Pending fall, jump;
  int entry = 0, top = 0;
};

// Splits a bundle's wait between the two places: the fall-through path's excess over the
// jump paths' wait goes before the labels, so a loop entered from above does not pay it
// on every iteration (and a back edge's wait is not paid again on entry where the path
// from above needs less).
void place_waits(const BundleUse& u, bool entry_only, BundleWaits& w) {
  const int fall = wait_before(u, w.fall), jump = wait_before(u, w.jump);
  w.entry = entry_only ? std::max(0, fall - jump) : 0;
  Pending at_top = aged(w.fall, w.entry);
  merge(at_top, w.jump);
  w.top = wait_before(u, at_top);
}

// Successor edges of a bundle split by kind: falling through into the next bundle (which
// passes its group start) and jumping to a label (which does not).
struct Edges {
  bool falls = false;
  std::vector<size_t> jumps;
};

std::vector<Edges> edges_of(const std::vector<std::vector<size_t>>& succ, const std::vector<bool>& falls) {
  std::vector<Edges> e(succ.size());
  for (size_t b = 0; b < succ.size(); ++b) {
    e[b].falls = falls[b];
    bool fall_taken = !falls[b];  // one b + 1 in succ is the fall-through edge
    for (size_t t : succ[b]) {
      if (!fall_taken && t == b + 1) {
        fall_taken = true;
        continue;
      }
      e[b].jumps.push_back(t);
    }
  }
  return e;
}

int insert_tile(AieTile& tile, const ReadStages& stages, const std::string& where) {
  TileStructure s;
  std::string why;
  if (!analyse_structure(tile, s, why)) throw std::invalid_argument("insert_waits: " + where + ": " + why);
  std::vector<size_t> bundles;
  for (size_t i = 0; i < tile.lines.size(); ++i)
    if (tile.lines[i].kind == AieLine::Kind::Bundle) bundles.push_back(i);
  std::vector<std::vector<size_t>> succ;
  std::vector<bool> falls;
  if (!bundle_successors(tile, s, bundles, succ, &falls))
    throw std::invalid_argument("insert_waits: " + where + ": calls (JL/RET) or a branch to an unknown label");
  const size_t n = bundles.size();
  std::vector<BundleUse> use(n);
  std::vector<WaitPlaces> places(n);
  for (size_t b = 0; b < n; ++b) {
    use[b] = use_of(tile.lines[bundles[b]], stages);
    places[b] = wait_places(tile, s, bundles[b], where);
  }
  const std::vector<Edges> edges = edges_of(succ, falls);
  // Arrival states only grow (a finite lattice: latencies are bounded), so this terminates;
  // states larger than a path's real one only lengthen waits.
  std::vector<BundleWaits> w(n);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 0; b < n; ++b) {
      place_waits(use[b], places[b].entry_only, w[b]);
      Pending at_top = aged(w[b].fall, w[b].entry);
      merge(at_top, w[b].jump);
      const Pending out = after(use[b], at_top, w[b].top);
      if (edges[b].falls) changed = merge(w[b + 1].fall, out) || changed;
      for (size_t t : edges[b].jumps) changed = merge(w[t].jump, out) || changed;
    }
  }
  std::map<size_t, int> waits;  // insertion line -> NOPs
  int added = 0;
  for (size_t b = 0; b < n; ++b) {
    place_waits(use[b], places[b].entry_only, w[b]);
    if (w[b].entry > 0) waits[places[b].group_start] += w[b].entry;
    if (w[b].top > 0) waits[places[b].top] += w[b].top;
    added += w[b].entry + w[b].top;
  }
  std::vector<AieLine> lines;
  for (size_t i = 0; i < tile.lines.size(); ++i) {
    const auto it = waits.find(i);
    if (it != waits.end())
      for (int k = 0; k < it->second; ++k) lines.push_back(nop_bundle());
    lines.push_back(std::move(tile.lines[i]));
  }
  tile.lines = std::move(lines);
  return added;
}

bool is_phase_line(const std::string& line) {
  const size_t f = line.find_first_not_of(" \t");
  return f != std::string::npos && line.compare(f, 6, ".phase") == 0 &&
         (line.size() == f + 6 || line[f + 6] == ' ' || line[f + 6] == '\t');
}

}  // namespace

void insert_waits(AieKernel& kernel, const ReadStages& stages, WaitStats* stats) {
  int added = 0;
  for (size_t t = 0; t < kernel.tiles.size(); ++t)
    added +=
        insert_tile(kernel.tiles[t], stages,
                    kernel.tiles[t].header.empty() ? "tile " + std::to_string(t) : "'" + kernel.tiles[t].header + "'");
  if (stats) stats->nops_added += added;
}

int remove_waits(AieKernel& kernel) {
  int dropped = 0;
  for (AieTile& tile : kernel.tiles) {
    TileStructure s;
    std::string why;
    const bool known = analyse_structure(tile, s, why);
    std::vector<AieLine> lines;
    bool loop_end_label = false;  // the labels just before the current bundle name a loop's end
    for (size_t i = 0; i < tile.lines.size(); ++i) {
      AieLine& l = tile.lines[i];
      if (l.kind == AieLine::Kind::Label) loop_end_label = loop_end_label || !known || s.loop_end_labels.count(l.label);
      if (l.kind == AieLine::Kind::Bundle) {
        const bool only_nops =
            std::all_of(l.ops.begin(), l.ops.end(), [](const AieOp& o) { return o.op.code == uint16_t(Code::NOP); });
        const bool last = std::none_of(tile.lines.begin() + i + 1, tile.lines.end(),
                                       [](const AieLine& n) { return n.kind == AieLine::Kind::Bundle; });
        const bool keep = !only_nops || loop_end_label || last;
        loop_end_label = false;
        if (!keep) {
          ++dropped;
          continue;
        }
      }
      lines.push_back(std::move(l));
    }
    tile.lines = std::move(lines);
  }
  return dropped;
}

std::string insert_waits(const std::string& kernel_text, const ReadStages& stages, WaitStats* stats) {
  // Split at `.phase` lines: each phase is a kernel file of its own.
  std::vector<std::string> parts(1), headers;
  std::stringstream ss(kernel_text);
  for (std::string l; std::getline(ss, l);) {
    if (is_phase_line(l)) {
      headers.push_back(l);
      parts.emplace_back();
      continue;
    }
    parts.back() += l + "\n";
  }
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += headers[i - 1] + "\n";
    AieKernel k;
    std::string error;
    if (!parse_aie_kernel(parts[i], k, error)) throw std::invalid_argument("insert_waits: " + error);
    bool code = false;
    for (const AieTile& t : k.tiles)
      for (const AieLine& l : t.lines) code = code || l.kind == AieLine::Kind::Bundle;
    if (!code) {  // comments only (before the first phase)
      out += parts[i];
      continue;
    }
    insert_waits(k, stages, stats);
    out += print_aie_kernel(k);
  }
  return out;
}

}  // namespace tlmcraft::isa::aie_ml
