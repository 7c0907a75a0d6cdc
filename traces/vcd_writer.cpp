#include "traces/vcd_writer.h"

#include <algorithm>
#include <climits>
#include <ctime>
#include <map>
#include <queue>
#include <set>

#include "traces/gtkwave_files.h"
#include "traces/stream_buffer.h"

namespace tlmcraft::traces {

VcdTimescale vcd_timescale(const TraceClock& clock) {
  static const struct {
    uint64_t fs;
    const char* text;
  } units[] = {
      {1'000'000'000'000'000, "1s"}, {100'000'000'000'000, "100ms"}, {10'000'000'000'000, "10ms"},
      {1'000'000'000'000, "1ms"},    {100'000'000'000, "100us"},     {10'000'000'000, "10us"},
      {1'000'000'000, "1us"},        {100'000'000, "100ns"},         {10'000'000, "10ns"},
      {1'000'000, "1ns"},            {100'000, "100ps"},             {10'000, "10ps"},
      {1'000, "1ps"},                {100, "100fs"},                 {10, "10fs"},
      {1, "1fs"}};
  for (const auto& u : units)
    if (clock.period_fs % u.fs == 0) return VcdTimescale{u.text, clock.period_fs / u.fs};
  return VcdTimescale{"1fs", clock.period_fs};  // unreachable: 1 fs divides everything
}

namespace {

// VCD identifier codes: base-94 over the printable characters '!' .. '~'.
std::string id_code(size_t n) {
  std::string s;
  do {
    s.push_back(static_cast<char>('!' + n % 94));
    n /= 94;
  } while (n);
  return s;
}

std::string legal_name(std::string_view raw) {
  std::string s;
  for (char c : raw) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    s.push_back(ok ? c : '_');
  }
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) s.insert(0, "_");
  return s;
}

// Comment text must not contain "$end" or line breaks.
std::string comment_text(std::string_view raw) {
  std::string s(raw);
  for (char& c : s)
    if (c == '$' || c == '\n' || c == '\r') c = '_';
  return s;
}

std::string binary(int64_t v, int width) {
  uint64_t u = static_cast<uint64_t>(v);
  if (width < 64) u &= (uint64_t{1} << width) - 1;
  std::string s;
  do {
    s.push_back(static_cast<char>('0' + (u & 1)));
    u >>= 1;
  } while (u);
  std::reverse(s.begin(), s.end());
  return s;  // VCD zero-extends shorter vectors whose first bit is 0 or 1
}

// An event index keyed by the time it acts at; sorting (time, index) keeps recording
// order among equal times and needs no indirection while sorting or sweeping.
struct Timed {
  uint64_t time;
  uint32_t index;
  bool operator<(const Timed& o) const { return time != o.time ? time < o.time : index < o.index; }
};

// One track's signals, advanced time step by time step over its sorted events.
struct TrackSweep {
  const TraceRecorder* rec = nullptr;
  std::vector<Timed> by_begin, by_end, counters, instants;
  size_t pb = 0, pe = 0, pc = 0, pi = 0;
  std::set<std::pair<uint64_t, uint32_t>> active;  // (clipped begin, event index)
  // Current state after the last step, and what was last written.
  bool has_slices = false, has_counter = false, has_instants = false;
  int value_width = 32;
  bool value_known = false;
  int64_t value = 0;
  bool fired = false;
  bool out_busy = false;
  uint32_t out_name = 0;
  int64_t out_value = 0;
  std::string busy_id, slice_id, value_id, event_id;

  bool has_next() const {
    return pb < by_begin.size() || pe < by_end.size() || pc < counters.size() || pi < instants.size();
  }
  uint64_t next_time() const {
    uint64_t t = UINT64_MAX;
    if (pb < by_begin.size()) t = std::min(t, by_begin[pb].time);
    if (pe < by_end.size()) t = std::min(t, by_end[pe].time);
    if (pc < counters.size()) t = std::min(t, counters[pc].time);
    if (pi < instants.size()) t = std::min(t, instants[pi].time);
    return t;
  }
  void step(uint64_t t) {
    // Ends before begins: a slice ending at t and one starting at t leave busy at 1.
    for (; pe < by_end.size() && by_end[pe].time == t; ++pe) {
      uint32_t i = by_end[pe].index;
      active.erase({rec->clip_begin(rec->events()[i].begin), i});
    }
    for (; pb < by_begin.size() && by_begin[pb].time == t; ++pb) active.insert({t, by_begin[pb].index});
    for (; pc < counters.size() && counters[pc].time == t; ++pc) {
      value = rec->events()[counters[pc].index].value();  // same cycle: the last recorded wins
      value_known = true;
    }
    fired = false;
    for (; pi < instants.size() && instants[pi].time == t; ++pi) fired = true;
  }
  bool busy() const { return !active.empty(); }
  uint32_t name() const { return active.empty() ? 0 : rec->events()[active.rbegin()->second].name; }
};

struct ScopeNode {
  std::string name;
  int track = -1;
  std::vector<size_t> children;
  std::map<std::string, size_t> by_component;
  std::set<std::string> child_names;
};

}  // namespace

VcdLayout write_vcd(const TraceRecorder& rec, std::ostream& os, const VcdOptions& options) {
  VcdLayout layout;
  const TraceConfig& cfg = rec.config();
  const VcdTimescale ts = vcd_timescale(cfg.clock);
  auto vcd_time = [&](uint64_t cycle) {
    return cycle > UINT64_MAX / ts.units_per_cycle ? UINT64_MAX : cycle * ts.units_per_cycle;
  };

  // Per-track sweeps over the recorded events, each list sorted by time then recording order.
  std::vector<std::vector<uint32_t>> per_track = rec.events_by_track();
  std::vector<TrackSweep> sweeps(rec.tracks().size());
  std::vector<uint32_t> dense_name(rec.string_count(), 0);
  for (size_t k = 0; k < sweeps.size(); ++k) {
    TrackSweep& s = sweeps[k];
    s.rec = &rec;
    const TraceTrack& t = rec.tracks()[k];
    s.has_slices = t.has(EventKind::Slice);
    s.has_counter = t.has(EventKind::Counter);
    s.has_instants = t.has(EventKind::Instant);
    if (t.has_initial) {
      s.value_known = true;
      s.value = t.initial_value;
    }
    for (uint32_t i : per_track[k]) {
      const TraceEvent& e = rec.events()[i];
      switch (e.kind) {
        case EventKind::Slice: {
          uint64_t b = rec.clip_begin(e.begin), en = rec.clip_end(e.end);
          if (en > b) {  // zero-length slices change no signal
            s.by_begin.push_back({b, i});
            s.by_end.push_back({en, i});
            dense_name[e.name] = 1;
          }
          break;
        }
        case EventKind::Counter:
          s.counters.push_back({e.begin, i});
          if (e.value() < INT32_MIN || e.value() > INT32_MAX) s.value_width = 64;
          break;
        case EventKind::Instant: s.instants.push_back({e.begin, i}); break;
      }
    }
    if (t.has_initial && (t.initial_value < INT32_MIN || t.initial_value > INT32_MAX)) s.value_width = 64;
    for (auto* list : {&s.by_begin, &s.by_end, &s.counters, &s.instants}) std::sort(list->begin(), list->end());
    std::vector<uint32_t>().swap(per_track[k]);  // release as we go: traces can be large
  }
  // Slice names get dense indices 1..K in interning order (which is first-use order).
  std::vector<uint32_t> name_list;
  for (uint32_t id = 1; id < dense_name.size(); ++id)
    if (dense_name[id]) {
      name_list.push_back(id);
      dense_name[id] = static_cast<uint32_t>(name_list.size());
    }

  // Scope tree from the dotted track names.
  std::vector<ScopeNode> nodes(1);
  for (size_t k = 0; k < sweeps.size(); ++k) {
    const TraceTrack& t = rec.tracks()[k];
    if (!t.enabled || t.kinds == 0) continue;
    size_t node = 0;
    std::string_view rest = t.full_name;
    while (true) {
      size_t dot = rest.find('.');
      std::string comp(rest.substr(0, dot));
      auto it = nodes[node].by_component.find(comp);
      size_t child;
      if (it != nodes[node].by_component.end()) {
        child = it->second;
      } else {
        std::string base = legal_name(comp), name = base;
        for (int n = 2; nodes[node].child_names.count(name); ++n) name = base + "_" + std::to_string(n);
        nodes[node].child_names.insert(name);
        child = nodes.size();
        nodes[node].by_component.emplace(comp, child);
        nodes[node].children.push_back(child);
        nodes.push_back(ScopeNode{});
        nodes[child].name = name;
      }
      node = child;
      if (dot == std::string_view::npos) break;
      rest.remove_prefix(dot + 1);
    }
    nodes[node].track = static_cast<int>(k);
  }

  StreamBuffer out(os);
  std::string date = options.date;
  if (date.empty()) {
    std::time_t now = std::time(nullptr);
    char buf[64];
    std::strftime(buf, sizeof buf, "%a %b %d %H:%M:%S %Y UTC", std::gmtime(&now));
    date = buf;
  }
  out << "$date\n\t" << comment_text(date) << "\n$end\n";
  out << "$version\n\t" << comment_text(options.version) << "\n$end\n";
  out << "$comment\n\tclock period " << cfg.clock.describe() << ", " << ts.units_per_cycle << " x "
      << ts.text << " per cycle; window [" << cfg.window_begin << ", ";
  if (cfg.window_end == UINT64_MAX)
    out << "end";
  else
    out << cfg.window_end;
  out << ") cycles\n$end\n";
  if (rec.truncated())
    out << "$comment\n\tTRUNCATED: " << rec.dropped() << " events dropped after reaching max_events "
        << static_cast<uint64_t>(cfg.max_events) << " (first drop at cycle " << rec.first_drop_cycle()
        << "); the signals show only recorded events\n$end\n";
  if (!name_list.empty()) {
    out << "$comment\n\tslice name index (signal 'slice'; 0 = idle or unnamed):\n";
    for (size_t i = 0; i < name_list.size(); ++i)
      out << '\t' << static_cast<uint64_t>(i + 1) << ' ' << comment_text(rec.text(name_list[i])) << '\n';
    out << "$end\n";
  }
  out << "$timescale " << ts.text << " $end\n";

  for (uint32_t id : name_list) layout.slice_names.push_back(rec.text(id));
  size_t next_id = 0;
  auto declare = [&](size_t n, const std::string& parent, auto& self) -> void {
    const ScopeNode& node = nodes[n];
    const std::string scope = parent.empty() ? node.name : parent + "." + node.name;
    out << "$scope module " << node.name << " $end\n";
    if (node.track >= 0) {
      TrackSweep& s = sweeps[node.track];
      if (s.has_slices) {
        s.busy_id = id_code(next_id++);
        s.slice_id = id_code(next_id++);
        out << "$var wire 1 " << s.busy_id << " busy $end\n";
        out << "$var integer 32 " << s.slice_id << " slice $end\n";
        layout.signals.push_back({scope + ".busy", VcdSignal::Kind::Busy, 1});
        layout.signals.push_back({scope + ".slice", VcdSignal::Kind::Slice, 32});
      }
      if (s.has_counter) {
        s.value_id = id_code(next_id++);
        out << "$var integer " << s.value_width << ' ' << s.value_id << " value $end\n";
        layout.signals.push_back({scope + ".value", VcdSignal::Kind::Value, s.value_width});
      }
      if (s.has_instants) {
        s.event_id = id_code(next_id++);
        out << "$var event 1 " << s.event_id << " event $end\n";
        layout.signals.push_back({scope + ".event", VcdSignal::Kind::Event, 1});
      }
    }
    for (size_t c : node.children) self(c, scope, self);
    out << "$upscope $end\n";
  };
  for (size_t c : nodes[0].children) declare(c, "", declare);
  out << "$enddefinitions $end\n";

  // Writes the signals that changed since last written (all of them for $dumpvars);
  // `stamp` runs before the first line so timestamps with no change are not written.
  auto write_changes = [&](TrackSweep& s, bool all, auto&& stamp) {
    if (s.has_slices) {
      bool busy = s.busy();
      uint32_t name = dense_name[s.name()];
      if (all || busy != s.out_busy) stamp() << (busy ? '1' : '0') << s.busy_id << '\n';
      if (all || name != s.out_name) stamp() << 'b' << binary(name, 32) << ' ' << s.slice_id << '\n';
      s.out_busy = busy;
      s.out_name = name;
    }
    if (s.has_counter) {
      // A counter with no sample yet starts at 0 (reset), never x.
      if (all || s.value != s.out_value)
        stamp() << 'b' << binary(s.value, s.value_width) << ' ' << s.value_id << '\n';
      s.out_value = s.value;
    }
    if (!all && s.fired && s.has_instants) stamp() << '1' << s.event_id << '\n';
  };

  // Initial values: the state at the window begin, after that cycle's events.
  const uint64_t t0 = cfg.window_begin;
  for (TrackSweep& s : sweeps)
    if (s.has_next() && s.next_time() == t0) s.step(t0);
  out << '#' << vcd_time(t0) << "\n$dumpvars\n";
  auto plain = [&]() -> StreamBuffer& { return out; };
  for (TrackSweep& s : sweeps)
    if (!s.busy_id.empty() || !s.value_id.empty()) write_changes(s, true, plain);
  out << "$end\n";
  for (TrackSweep& s : sweeps)
    if (s.fired && s.has_instants) out << '1' << s.event_id << '\n';

  // Merge the tracks' change streams in time order (ties: track order).
  using Entry = std::pair<uint64_t, size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  for (size_t k = 0; k < sweeps.size(); ++k)
    if (sweeps[k].has_next())
      heap.push({sweeps[k].next_time(), k});
  uint64_t written = t0;
  while (!heap.empty()) {
    auto [t, k] = heap.top();
    heap.pop();
    TrackSweep& s = sweeps[k];
    s.step(t);
    write_changes(s, false, [&, t = t]() -> StreamBuffer& {
      if (t != written) {
        out << '#' << vcd_time(t) << '\n';
        written = t;
      }
      return out;
    });
    if (s.has_next()) heap.push({s.next_time(), k});
  }
  // Extend to the last cycle reached so the final values are visible.
  if (rec.last_cycle() > written) out << '#' << vcd_time(rec.last_cycle()) << '\n';
  out.flush();
  return layout;
}

void write_vcd_file(const TraceRecorder& recorder, const std::string& path, const VcdOptions& options,
                    bool gtkwave_files) {
  VcdLayout layout;
  write_trace_file(path, "VCD", [&](std::ostream& os) { layout = write_vcd(recorder, os, options); });
  if (gtkwave_files) write_gtkwave_files(layout, path);
}

}  // namespace tlmcraft::traces
