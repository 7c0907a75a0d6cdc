// Records timeline events (slices, counters, instants) computed by a platform's timing
// model, so VCD and Perfetto files can be written afterwards. Platforms know an
// instruction's start and end cycle when it issues (and DMA transfers possibly in the
// future), so events arrive out of time order; writers sort them.
//
// Cost when tracing is off: platforms hold a `TraceRecorder*` that is null, so the only
// cost is a pointer test. When on, each call is a few comparisons plus a push_back; names
// and argument strings are interned (one hash lookup each) or passed pre-interned.
// Not thread-safe: one recorder per simulation (SystemC runs processes one at a time).
#pragma once
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "traces/chunked_vector.h"

namespace tlmcraft::traces {

// Clock period as an integer count of femtoseconds keeps cycle -> time exact for any
// common clock (1 GHz = 1'000'000 fs, 800 MHz = 1'250'000 fs).
struct TraceClock {
  uint64_t period_fs = 1'000'000;  // 1 ns
  // Throws std::invalid_argument for a non-positive, non-finite or sub-femtosecond period.
  static TraceClock from_period_ns(double ns);
  static TraceClock from_mhz(double mhz);
  std::string describe() const;  // e.g. "1 ns", "1.25 ns"
};

struct TraceConfig {
  uint64_t window_begin = 0;          // cycle window [begin, end) kept in the traces
  uint64_t window_end = UINT64_MAX;
  // Track-name prefixes matched on the dotted name "group.track" at '.' boundaries:
  // "plena" keeps every plena track, "plena.dma" keeps plena.dma and plena.dma.prefetch
  // (not plena.dmax). Empty = keep all tracks.
  std::vector<std::string> scopes;
  size_t max_events = 4'000'000;      // about 32 bytes each (at most 2^32 - 1)
  size_t max_args = 0;                // key/value args kept (16 bytes each); 0 = 2 x max_events
  TraceClock clock;
};

// One key/value argument of a slice or instant: a string or an integer. Integers are
// stored as numbers, so callers need not format a PC or line number per event.
struct TraceArg {
  std::string_view key;
  std::string_view text;
  int64_t number = 0;
  bool is_number = false;
  TraceArg(std::string_view k, std::string_view v) : key(k), text(v) {}
  TraceArg(std::string_view k, const char* v) : key(k), text(v ? v : "") {}
  TraceArg(std::string_view k, const std::string& v) : key(k), text(v) {}
  template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
  TraceArg(std::string_view k, T v) : key(k), number(static_cast<int64_t>(v)), is_number(true) {}
};

// A pre-interned string (see TraceRecorder::intern) for hot paths.
struct TraceName {
  uint32_t id = 0;
};

enum class EventKind : uint8_t { Slice = 0, Counter = 1, Instant = 2 };

struct TraceEvent {
  uint64_t begin = 0;   // cycle (slice begin, counter or instant cycle)
  uint64_t end = 0;     // slice end cycle (exclusive); counters: the value's bits
  uint32_t track = 0;
  uint32_t name = 0;    // interned string id (slices, instants)
  uint32_t first_arg = 0;
  uint16_t arg_count = 0;
  EventKind kind = EventKind::Slice;
  int64_t value() const { return static_cast<int64_t>(end); }
};

struct StoredArg {
  static constexpr uint32_t kNumber = UINT32_MAX;
  uint32_t key = 0;
  uint32_t text = kNumber;  // interned string id, or kNumber when the value is `number`
  int64_t number = 0;
};

// An arrow from a point on one track to a point on another (a DMA transfer to the
// instruction that consumes its data). Viewers bind each end to the slice that covers
// its cycle on that track.
struct TraceFlow {
  uint32_t from_track = 0, to_track = 0;
  uint64_t from_cycle = 0, to_cycle = 0;
  uint32_t name = 0;  // interned
};

struct TraceTrack {
  std::string group;
  std::string name;
  std::string full_name;     // "group.name"
  bool enabled = true;       // false when the scope filter excludes it
  uint8_t kinds = 0;         // bit (1 << EventKind) for each kind recorded on it
  uint64_t seen = 0;         // events inside window and scope, recorded or dropped
  uint64_t dropped = 0;      // of those, dropped because the limit was reached
  uint64_t slice_cycles_seen = 0;  // summed clipped slice durations, dropped ones included
  // Last counter value before the window begins: the counter's value at window begin.
  bool has_initial = false;
  uint64_t initial_cycle = 0;
  int64_t initial_value = 0;
  bool has(EventKind k) const { return kinds & (1u << static_cast<unsigned>(k)); }
};

class TraceRecorder {
 public:
  static constexpr size_t kMaxArgsPerEvent = 256;  // more is invalid input
  using Events = ChunkedVector<TraceEvent>;

  // Throws std::invalid_argument for an empty or inverted window.
  explicit TraceRecorder(TraceConfig config = {});

  // Registers (or finds) a track; the same group and name give the same id. Tracks
  // outside the scope filter get an id too, and their events are ignored cheaply.
  int track(const std::string& group, const std::string& name);

  // A busy interval [begin_cycle, end_cycle) on a track. Zero-length slices are kept
  // (Perfetto shows them); end < begin is invalid input and only counted.
  void slice(int track, uint64_t begin_cycle, uint64_t end_cycle, std::string_view name,
             std::initializer_list<TraceArg> args = {}) {
    if (!accept_slice(track, begin_cycle, end_cycle, args.size())) return;
    if (!reserve(track, begin_cycle, args.size())) return;
    push_slice(track, begin_cycle, end_cycle, intern(name).id, args);
  }
  void slice(int track, uint64_t begin_cycle, uint64_t end_cycle, TraceName name,
             std::initializer_list<TraceArg> args = {}) {
    if (!accept_slice(track, begin_cycle, end_cycle, args.size())) return;
    if (!reserve(track, begin_cycle, args.size())) return;
    push_slice(track, begin_cycle, end_cycle, name.id, args);
  }
  // A numeric signal's value from `cycle` on (PC, instruction index, queue depth).
  void counter(int track, uint64_t cycle, int64_t value);
  // A point event (e.g. "halt", "barrier").
  void instant(int track, uint64_t cycle, std::string_view name,
               std::initializer_list<TraceArg> args = {});
  // A flow arrow from (from_track, from_cycle) to (to_track, to_cycle). Kept when both
  // tracks pass the scope filter and both cycles lie inside the window; at most
  // max_events / 4 flows are kept (more are counted in dropped_flows()).
  void flow(int from_track, uint64_t from_cycle, int to_track, uint64_t to_cycle, std::string_view name);
  // Declares that simulated time reached `cycle` (e.g. the run's total cycles), so
  // writers extend the trace to there even if nothing happens at the end.
  void extend_to(uint64_t cycle);

  // Interns a string once; pass the result to slice() to skip the lookup per event.
  TraceName intern(std::string_view text);

  // Parses "plena.vector, plena.dma" into scope prefixes (empty items ignored).
  static std::vector<std::string> parse_scopes(std::string_view comma_separated);

  // --- read side, for writers and profiles ---
  const TraceConfig& config() const { return config_; }
  const std::vector<TraceTrack>& tracks() const { return tracks_; }
  const Events& events() const { return events_; }
  // The event's arg_count args, stored contiguously (nullptr when it has none).
  const StoredArg* args_of(const TraceEvent& e) const { return e.arg_count ? &args_[e.first_arg] : nullptr; }
  const std::string& text(uint32_t id) const { return strings_[id]; }
  size_t string_count() const { return strings_.size(); }
  const std::vector<TraceFlow>& flows() const { return flows_; }
  uint64_t dropped_flows() const { return dropped_flows_; }
  uint64_t dropped() const { return dropped_; }
  uint64_t invalid() const { return invalid_; }
  bool truncated() const { return dropped_ > 0; }
  uint64_t first_drop_cycle() const { return first_drop_cycle_; }
  // The last cycle any kept event reaches (slice end, counter, instant, extend_to),
  // clipped to the window; window_begin when nothing was recorded.
  uint64_t last_cycle() const { return last_cycle_; }
  uint64_t clip_begin(uint64_t c) const { return c < config_.window_begin ? config_.window_begin : c; }
  uint64_t clip_end(uint64_t c) const { return c > config_.window_end ? config_.window_end : c; }
  // Event indices per track id (filtered tracks have none), in recording order.
  std::vector<std::vector<uint32_t>> events_by_track() const;

 private:
  bool valid_track(int track) {
    if (track < 0 || static_cast<size_t>(track) >= tracks_.size()) {
      ++invalid_;
      return false;
    }
    return tracks_[track].enabled;
  }
  bool accept_slice(int track, uint64_t b, uint64_t e, size_t arg_count) {
    if (!valid_track(track)) return false;
    if (e < b || arg_count > kMaxArgsPerEvent) {
      ++invalid_;
      return false;
    }
    // Overlaps the window, or a zero-length slice inside it.
    if (b == e ? (b < config_.window_begin || b >= config_.window_end)
               : (b >= config_.window_end || e <= config_.window_begin))
      return false;
    TraceTrack& t = tracks_[track];
    t.slice_cycles_seen += clip_end(e) - clip_begin(b);
    t.kinds |= 1u << static_cast<unsigned>(EventKind::Slice);
    return true;
  }
  // Counts the event and checks the memory bounds; false = dropped.
  bool reserve(int track, uint64_t cycle, size_t arg_count) {
    TraceTrack& t = tracks_[track];
    ++t.seen;
    if (events_.size() >= config_.max_events || args_.size() + arg_count > config_.max_args) {
      if (dropped_ == 0) first_drop_cycle_ = cycle;
      ++dropped_;
      ++t.dropped;
      return false;
    }
    return true;
  }
  void push_slice(int track, uint64_t b, uint64_t e, uint32_t name,
                  std::initializer_list<TraceArg> args);
  uint32_t push_args(std::initializer_list<TraceArg> args);
  void note_cycle(uint64_t c) {
    c = clip_end(c);
    if (c > last_cycle_) last_cycle_ = c;
  }

  TraceConfig config_;
  std::vector<TraceTrack> tracks_;
  std::unordered_map<std::string, int> track_ids_;
  Events events_;
  ChunkedVector<StoredArg> args_;
  std::deque<std::string> strings_;  // deque: stable addresses for the views below
  std::unordered_map<std::string_view, uint32_t> string_ids_;
  std::vector<TraceFlow> flows_;
  uint64_t dropped_flows_ = 0;
  uint64_t dropped_ = 0;
  uint64_t invalid_ = 0;
  uint64_t first_drop_cycle_ = 0;
  uint64_t last_cycle_ = 0;
};

}  // namespace tlmcraft::traces
