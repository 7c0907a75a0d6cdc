#include "traces/trace_recorder.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tlmcraft::traces {

TraceClock TraceClock::from_period_ns(double ns) {
  if (!std::isfinite(ns) || ns <= 0)
    throw std::invalid_argument("trace clock period must be a positive number of ns, got " +
                                std::to_string(ns));
  double fs = std::round(ns * 1e6);
  if (fs < 1 || fs > 1e15)  // between 1 fs and 1 s
    throw std::invalid_argument("trace clock period " + std::to_string(ns) +
                                " ns is outside 1 fs .. 1 s");
  return TraceClock{static_cast<uint64_t>(fs)};
}

TraceClock TraceClock::from_mhz(double mhz) {
  if (!std::isfinite(mhz) || mhz <= 0)
    throw std::invalid_argument("trace clock frequency must be a positive number of MHz, got " +
                                std::to_string(mhz));
  return from_period_ns(1000.0 / mhz);
}

std::string TraceClock::describe() const {
  // Exact decimal nanoseconds: integer part, then the fraction without trailing zeros.
  std::string s = std::to_string(period_fs / 1'000'000);
  uint64_t frac = period_fs % 1'000'000;
  if (frac) {
    std::string f = std::to_string(frac);
    f.insert(0, 6 - f.size(), '0');
    while (f.back() == '0') f.pop_back();
    s += "." + f;
  }
  return s + " ns";
}

TraceRecorder::TraceRecorder(TraceConfig config) : config_(std::move(config)) {
  if (config_.window_begin >= config_.window_end)
    throw std::invalid_argument("trace window [" + std::to_string(config_.window_begin) + ", " +
                                std::to_string(config_.window_end) +
                                ") is empty: the end cycle must be greater than the begin cycle");
  if (config_.clock.period_fs == 0)
    throw std::invalid_argument("trace clock period must be positive");
  // Event and arg indices are 32-bit; padding in the arg blocks needs some headroom.
  config_.max_events = std::min<size_t>(config_.max_events, UINT32_MAX - 1);
  if (config_.max_args == 0) config_.max_args = 2 * config_.max_events;
  config_.max_args = std::min<size_t>(config_.max_args, size_t{UINT32_MAX} / 2);
  last_cycle_ = config_.window_begin;
  intern("");  // id 0 = the empty name
}

static bool scope_matches(const std::string& full, const std::string& prefix) {
  if (full.compare(0, prefix.size(), prefix) != 0) return false;
  return full.size() == prefix.size() || prefix.back() == '.' || full[prefix.size()] == '.';
}

int TraceRecorder::track(const std::string& group, const std::string& name) {
  std::string full = group + "." + name;
  auto it = track_ids_.find(full);
  if (it != track_ids_.end()) return it->second;
  TraceTrack t;
  t.group = group;
  t.name = name;
  t.full_name = full;
  if (!config_.scopes.empty()) {
    t.enabled = false;
    for (const std::string& s : config_.scopes)
      if (!s.empty() && scope_matches(full, s)) t.enabled = true;
  }
  int id = static_cast<int>(tracks_.size());
  tracks_.push_back(std::move(t));
  track_ids_.emplace(std::move(full), id);
  return id;
}

TraceName TraceRecorder::intern(std::string_view text) {
  auto it = string_ids_.find(text);
  if (it != string_ids_.end()) return TraceName{it->second};
  uint32_t id = static_cast<uint32_t>(strings_.size());
  strings_.emplace_back(text);
  string_ids_.emplace(std::string_view(strings_.back()), id);
  return TraceName{id};
}

uint32_t TraceRecorder::push_args(std::initializer_list<TraceArg> args) {
  size_t first = args_.append_contiguous(args.size());
  size_t i = first;
  for (const TraceArg& a : args) {
    StoredArg& s = args_[i++];
    s.key = intern(a.key).id;
    s.text = a.is_number ? StoredArg::kNumber : intern(a.text).id;
    s.number = a.is_number ? a.number : 0;
  }
  return static_cast<uint32_t>(first);
}

void TraceRecorder::push_slice(int track, uint64_t b, uint64_t e, uint32_t name,
                               std::initializer_list<TraceArg> args) {
  TraceEvent ev;
  ev.begin = b;
  ev.end = e;
  ev.track = static_cast<uint32_t>(track);
  ev.name = name;
  ev.first_arg = push_args(args);
  ev.arg_count = static_cast<uint16_t>(args.size());
  ev.kind = EventKind::Slice;
  events_.push_back(ev);
  note_cycle(e);
}

void TraceRecorder::counter(int track, uint64_t cycle, int64_t value) {
  if (!valid_track(track) || cycle >= config_.window_end) return;
  TraceTrack& t = tracks_[track];
  t.kinds |= 1u << static_cast<unsigned>(EventKind::Counter);
  if (cycle < config_.window_begin) {
    // Only the latest value before the window matters: it is the value at window begin.
    // Same cycle: the later call wins, as it would inside the window.
    if (!t.has_initial || cycle >= t.initial_cycle) {
      t.has_initial = true;
      t.initial_cycle = cycle;
      t.initial_value = value;
    }
    return;
  }
  if (!reserve(track, cycle, 0)) return;
  TraceEvent ev;
  ev.begin = cycle;
  ev.end = static_cast<uint64_t>(value);
  ev.track = static_cast<uint32_t>(track);
  ev.first_arg = 0;  // counters carry no args
  ev.kind = EventKind::Counter;
  events_.push_back(ev);
  note_cycle(cycle);
}

void TraceRecorder::instant(int track, uint64_t cycle, std::string_view name,
                            std::initializer_list<TraceArg> args) {
  if (!valid_track(track) || cycle < config_.window_begin || cycle >= config_.window_end) return;
  if (args.size() > kMaxArgsPerEvent) {
    ++invalid_;
    return;
  }
  tracks_[track].kinds |= 1u << static_cast<unsigned>(EventKind::Instant);
  if (!reserve(track, cycle, args.size())) return;
  TraceEvent ev;
  ev.begin = ev.end = cycle;
  ev.track = static_cast<uint32_t>(track);
  ev.name = intern(name).id;
  ev.first_arg = push_args(args);
  ev.arg_count = static_cast<uint16_t>(args.size());
  ev.kind = EventKind::Instant;
  events_.push_back(ev);
  note_cycle(cycle);
}

void TraceRecorder::flow(int from_track, uint64_t from_cycle, int to_track, uint64_t to_cycle,
                         std::string_view name) {
  const bool from_ok = valid_track(from_track), to_ok = valid_track(to_track);
  if (!from_ok || !to_ok) return;
  auto inside = [&](uint64_t c) { return c >= config_.window_begin && c < config_.window_end; };
  if (!inside(from_cycle) || !inside(to_cycle)) return;
  if (flows_.size() >= config_.max_events / 4) {
    ++dropped_flows_;
    return;
  }
  flows_.push_back(TraceFlow{static_cast<uint32_t>(from_track), static_cast<uint32_t>(to_track), from_cycle,
                             to_cycle, intern(name).id});
}

void TraceRecorder::extend_to(uint64_t cycle) {
  if (cycle >= config_.window_begin) note_cycle(cycle);
}

std::vector<std::string> TraceRecorder::parse_scopes(std::string_view list) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t comma = list.find(',', pos);
    if (comma == std::string_view::npos) comma = list.size();
    std::string_view item = list.substr(pos, comma - pos);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    pos = comma + 1;
  }
  return out;
}

std::vector<std::vector<uint32_t>> TraceRecorder::events_by_track() const {
  std::vector<std::vector<uint32_t>> out(tracks_.size());
  for (uint32_t i = 0; i < events_.size(); ++i) out[events_[i].track].push_back(i);
  return out;
}

}  // namespace tlmcraft::traces
