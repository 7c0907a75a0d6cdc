#include "isa/aie_ml/bundle_schedule.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <stdexcept>

#include "isa/aie_ml/def_use.h"
#include "isa/aie_ml/control_flow.h"
#include "isa/aie_ml/pointer_values.h"

namespace tlmcraft::isa::aie_ml {

namespace {

bool is_tail_op(const OpEffects& fx) { return fx.control || fx.halt; }

bool sequential_order(const AieLine& bundle, std::vector<OpInfo>& out) {
  std::vector<size_t> order;
  if (!bundle_sequence(bundle, order)) return false;
  for (size_t i : order) {
    OpInfo info;
    info.op = &bundle.ops[i];
    info.fx = effects_of(bundle.ops[i]);
    out.push_back(info);
  }
  return true;
}

// The same operation issued by another unit of the same kind (VLDA <-> VLDB; the three
// AGU pointer updates), as re-assembled ops; the op itself first.
std::vector<AieOp> slot_variants(const AieOp& op) {
  std::vector<AieOp> out{op};
  const std::string m = op.mnemonic();
  std::vector<std::string> alts;
  if (m == "VLDA") alts = {"VLDB"};
  else if (m == "VLDB") alts = {"VLDA"};
  else if (m == "PADDA") alts = {"PADDB", "PADDS"};
  else if (m == "PADDB") alts = {"PADDA", "PADDS"};
  else if (m == "PADDS") alts = {"PADDA", "PADDB"};
  const size_t sp = op.text.find_first_of(" \t");
  for (const auto& a : alts) {
    AieOp v;
    if (assemble_op(a + (sp == std::string::npos ? "" : op.text.substr(sp)), v)) out.push_back(v);
  }
  return out;
}

struct Placed {
  AieOp op;
  std::string comment;
  int time = 0;
};

// Schedules one block's bundles; false when the block cannot be analysed (left alone).
bool schedule_block(const std::vector<const AieLine*>& bundles, const PointerRanges& ranges,
                    const ScheduleOptions& options, std::vector<Placed>& placed) {
  const bool critical_path_first = options.critical_path_first;
  std::vector<OpInfo> seq;
  std::vector<std::string> comments;
  PointerTracker pointers(&ranges);
  for (const AieLine* b : bundles) {
    std::vector<OpInfo> ordered;
    if (!sequential_order(*b, ordered)) return false;
    bool lock = false, mem = false;
    for (auto& info : ordered) {
      lock = lock || info.fx.lock;
      mem = mem || info.fx.load || info.fx.store;
    }
    if (lock && mem) return false;  // relies on the lock being granted before the access
    for (auto& info : ordered) {
      info.mem = pointers.access(*info.op, info.fx);
      if (info.mem.valid && std::find(options.disjoint_pointers.begin(), options.disjoint_pointers.end(),
                                      info.mem.pointer) != options.disjoint_pointers.end())
        info.mem.buffer = info.mem.pointer;
      if (info.fx.nop) continue;
      seq.push_back(info);
      comments.push_back(b->comment);
    }
  }
  const size_t n = seq.size();
  size_t tail = n;
  for (size_t j = 0; j < n; ++j)
    if (is_tail_op(seq[j].fx)) {
      tail = j;
      break;
    }
  // Ordering constraints as edges: t[j] >= t[i] + delay. An ordered pair also waits for
  // the producer's latency (a stall otherwise), even where only a coarse register
  // overlaps; unordered pairs may go either way, except that a write of the x / bm
  // register an earlier op reads through another view stays at or after that read (the
  // read would otherwise stall for it).
  struct Edge {
    size_t from;
    int delay;
  };
  std::vector<std::vector<Edge>> preds(n);
  for (size_t j = 0; j < n; ++j)
    for (size_t i = 0; i < j; ++i) {
      const Order o = order_between(seq[i], seq[j]);
      if (o == Order::Free) {
        if (options.keep_register_view_order && interlock_hazard(seq[i], seq[j])) preds[j].push_back({i, 0});
        continue;
      }
      const int wait = wait_cycles(seq[i], seq[j]);
      preds[j].push_back({i, o == Order::Later ? std::max(1, wait) : wait});
    }
  std::map<int, std::array<bool, kSlotCount>> busy;
  std::vector<int> t(n, 0);
  std::vector<AieOp> chosen(n);
  auto lower_bound = [&](size_t j) {
    int lb = 0;
    for (const Edge& e : preds[j]) lb = std::max(lb, t[e.from] + e.delay);
    return lb;
  };
  // Places op j at `time` if one of its slot variants is free there, for the op's ii
  // cycles (1 for every built-in op; an op added by data may hold its slot longer).
  auto try_place = [&](size_t j, int time) {
    const std::vector<AieOp> variants = slot_variants(*seq[j].op);
    const int ii = static_cast<int>(AieIsa::get().ops[seq[j].op->op.op].ii);
    auto free_for_ii = [&](const AieOp& a) {
      for (int k = 0; k < ii; ++k)
        if (busy[time + k][static_cast<size_t>(a.op.slot)]) return false;
      return true;
    };
    const auto v = std::find_if(variants.begin(), variants.end(), free_for_ii);
    if (v == variants.end()) return false;
    for (int k = 0; k < ii; ++k) busy[time + k][static_cast<size_t>(v->op.slot)] = true;
    t[j] = time;
    chosen[j] = *v;
    return true;
  };
  int latest = 0;
  if (!critical_path_first) {
    // Program order, each op at the earliest cycle with a free slot.
    for (size_t j = 0; j < tail; ++j) {
      for (int time = lower_bound(j); !try_place(j, time); ++time) {
      }
      latest = std::max(latest, t[j]);
    }
  } else {
    // Cycle by cycle, the ready ops with the longest latency-weighted path to the end of
    // the block first (then program order).
    std::vector<int> height(n, 0);
    std::vector<std::vector<Edge>> succs(n);
    for (size_t j = 0; j < n; ++j)
      for (const Edge& e : preds[j]) succs[e.from].push_back({j, e.delay});
    for (size_t i = n; i-- > 0;) {
      height[i] = static_cast<int>(seq[i].fx.latency);
      for (const Edge& e : succs[i]) height[i] = std::max(height[i], e.delay + height[e.from]);
    }
    std::vector<bool> done(n, false);
    size_t left = tail;
    for (int time = 0; left > 0; ++time) {
      for (bool progress = true; progress;) {
        progress = false;
        std::vector<size_t> ready;
        for (size_t j = 0; j < tail; ++j) {
          if (done[j]) continue;
          bool ok = true;
          for (const Edge& e : preds[j]) ok = ok && done[e.from] && t[e.from] + e.delay <= time;
          if (ok) ready.push_back(j);
        }
        std::stable_sort(ready.begin(), ready.end(), [&](size_t a, size_t b) { return height[a] > height[b]; });
        for (size_t j : ready)
          if (try_place(j, time)) {
            done[j] = true;
            --left;
            latest = std::max(latest, time);
            progress = true;
            break;  // re-evaluate readiness: ops may now share this cycle
          }
      }
    }
  }
  if (tail < n) {
    // The branch / DONE and the ops after it in its bundle go last, together.
    int time = latest;
    for (size_t j = tail; j < n; ++j) time = std::max(time, lower_bound(j));
    for (;; ++time) {
      const auto& slots = busy[time];
      bool free = true;
      for (size_t j = tail; j < n; ++j) free = free && !slots[static_cast<size_t>(seq[j].op->op.slot)];
      if (free) break;
    }
    for (size_t j = tail; j < n; ++j) {
      t[j] = time;
      chosen[j] = *seq[j].op;
      busy[time][static_cast<size_t>(seq[j].op->op.slot)] = true;
    }
  }
  for (size_t j = 0; j < n; ++j) placed.push_back({chosen[j], comments[j], t[j]});
  return true;
}

std::vector<AieLine> emit_block(const std::vector<Placed>& placed) {
  std::map<int, AieLine> by_time;
  for (const auto& p : placed) {
    AieLine& l = by_time[p.time];
    l.kind = AieLine::Kind::Bundle;
    l.ops.push_back(p.op);
    if (!p.comment.empty() && l.comment.find(p.comment) == std::string::npos)
      l.comment += (l.comment.empty() ? "" : " / ") + p.comment;
  }
  std::vector<AieLine> out;
  for (auto& [time, l] : by_time) out.push_back(std::move(l));
  return out;
}

}  // namespace

bool compact(AieKernel& kernel, CompactStats* stats, bool critical_path_first) {
  ScheduleOptions options;
  options.critical_path_first = critical_path_first;
  CompactStats local;
  CompactStats& st = stats ? *stats : local;
  bool changed = false;
  for (auto& tile : kernel.tiles) {
    TileStructure s;
    std::string why;
    if (!analyse_structure(tile, s, why)) {
      if (st.refused.empty()) st.refused = why;
      continue;
    }
    const std::vector<PointerRanges> ranges = block_pointer_ranges(tile, s);
    std::vector<AieLine> lines;
    for (size_t bi = 0; bi < s.blocks.size(); ++bi) {
      const Block& block = s.blocks[bi];
      std::vector<const AieLine*> bundles;
      for (size_t i : block.lines)
        if (tile.lines[i].kind == AieLine::Kind::Bundle) bundles.push_back(&tile.lines[i]);
      std::vector<Placed> placed;
      if (bundles.empty() || !schedule_block(bundles, ranges[bi], options, placed)) {
        for (size_t i : block.lines) lines.push_back(tile.lines[i]);
        st.bundles_before += static_cast<int>(bundles.size());
        st.bundles_after += static_cast<int>(bundles.size());
        continue;
      }
      // Comments, blank lines and the block's leading label first; the loop-end label
      // goes onto the new last bundle.
      const AieLine* loop_end = nullptr;
      for (size_t i : block.lines) {
        const AieLine& l = tile.lines[i];
        if (l.kind == AieLine::Kind::Label && s.loop_end_labels.count(l.label)) loop_end = &l;
        else if (l.kind != AieLine::Kind::Bundle) lines.push_back(l);
      }
      std::vector<AieLine> scheduled = emit_block(placed);
      if (scheduled.empty()) {  // only NOPs: keep one bundle so labels still have a target
        AieLine nop;
        nop.kind = AieLine::Kind::Bundle;
        AieOp op;
        if (assemble_op("NOP", op)) nop.ops.push_back(op);
        scheduled.push_back(nop);
      }
      st.bundles_before += static_cast<int>(bundles.size());
      st.bundles_after += static_cast<int>(scheduled.size());
      bool block_changed = scheduled.size() != bundles.size();
      for (size_t k = 0; k < scheduled.size() && !block_changed; ++k)
        block_changed = print_bundle(scheduled[k]) != print_bundle(*bundles[k]);
      if (block_changed) ++st.blocks_changed;
      changed = changed || block_changed;
      for (size_t k = 0; k < scheduled.size(); ++k) {
        if (loop_end && k + 1 == scheduled.size()) lines.push_back(*loop_end);
        lines.push_back(std::move(scheduled[k]));
      }
    }
    tile.lines = std::move(lines);
  }
  return changed;
}

std::vector<std::string> schedule_bundles(const std::vector<std::string>& ops, const ScheduleOptions& options) {
  auto fail = [](size_t entry, const std::string& why) {
    throw std::invalid_argument("schedule_bundles: op " + std::to_string(entry + 1) + ": " + why);
  };
  std::string text;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].find('\n') != std::string::npos) fail(i, "one op or bundle per entry (it contains a line break)");
    text += ops[i] + "\n";
  }
  AieTile tile;
  std::string error;
  if (!parse_core_fragment(text, tile, error)) {
    const size_t line = error.rfind("line ", 0) == 0 ? std::stoul(error.substr(5)) : 0;
    if (line >= 1 && line <= ops.size()) fail(line - 1, "'" + ops[line - 1] + "': " + error.substr(error.find(':') + 2));
    throw std::invalid_argument("schedule_bundles: " + error);
  }
  std::vector<const AieLine*> bundles;
  for (const AieLine& l : tile.lines) {
    const size_t entry = l.source_line - 1;
    if (l.kind == AieLine::Kind::Label) fail(entry, "a label ('" + l.label + "') in straight-line code");
    if (l.kind != AieLine::Kind::Bundle) continue;
    for (const AieOp& op : l.ops) {
      const OpEffects fx = effects_of(op);
      if ((fx.control || fx.halt) && entry + 1 < ops.size())
        fail(entry, "'" + op.text + "' ends the code: only the last op may branch or halt");
      if (fx.lock)
        for (const AieOp& other : l.ops) {
          const OpEffects ofx = effects_of(other);
          if (ofx.load || ofx.store) fail(entry, "a lock request shares the bundle with a memory access");
        }
    }
    std::vector<size_t> order;
    if (!bundle_sequence(l, order)) fail(entry, "two ops of the bundle each read what the other writes");
    bundles.push_back(&l);
  }
  std::vector<Placed> placed;
  if (bundles.empty() || !schedule_block(bundles, PointerRanges{}, options, placed)) return {};
  std::vector<std::string> out;
  for (const AieLine& l : emit_block(placed)) out.push_back(print_bundle(l));
  return out;
}

double estimate_cycles(const AieKernel& kernel) {
  double worst = 0;
  for (const auto& tile : kernel.tiles) {
    TileStructure s;
    std::string why;
    const bool ok = analyse_structure(tile, s, why);
    double total = 0;
    if (!ok) {
      for (const auto& l : tile.lines)
        if (l.kind == AieLine::Kind::Bundle) total += 1;
      worst = std::max(worst, total);
      continue;
    }
    for (const auto& block : s.blocks) {
      std::vector<const AieLine*> bundles;
      for (size_t i : block.lines)
        if (tile.lines[i].kind == AieLine::Kind::Bundle) bundles.push_back(&tile.lines[i]);
      if (bundles.empty()) continue;
      // Interlocked issue: a bundle waits for every register it reads; a loop body runs
      // twice so loop-carried waits count, and the second pass is its per-iteration cost.
      std::map<int, int> ready;
      std::array<int, kSlotCount> slot_free{};
      int time = -1;
      auto pass = [&]() {
        for (const AieLine* b : bundles) {
          int issue = time + 1;
          // The platform's scoreboard: storage units (whole x / bm), the op's latency (the
          // AGU's for a pointer post-modify); a slot an op of ii > 1 still holds.
          for (const auto& o : b->ops) {
            for (uint16_t u : o.op.reads) issue = std::max(issue, ready.count(u) ? ready[u] : 0);
            issue = std::max(issue, slot_free[static_cast<size_t>(o.op.slot)]);
          }
          for (const auto& o : b->ops) {
            for (uint16_t u : o.op.writes) ready[u] = issue + std::max<int>(1, static_cast<int>(result_latency(o, u)));
            slot_free[static_cast<size_t>(o.op.slot)] = issue + static_cast<int>(AieIsa::get().ops[o.op.op].ii);
          }
          time = issue;
        }
      };
      pass();
      double cost = time + 1;
      if (block.trip_count > 1) {
        const int first = time;
        pass();
        cost = time - first;
      }
      total += cost * static_cast<double>(std::max<int64_t>(1, block.trip_count));
    }
    worst = std::max(worst, total);
  }
  return worst;
}

}  // namespace tlmcraft::isa::aie_ml
