#include "traces/perfetto_writer.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <queue>
#include <set>

#include <nlohmann/json.hpp>

#include "traces/gzip_stream.h"
#include "traces/perfetto_budget.h"
#include "traces/stream_buffer.h"

namespace tlmcraft::traces {

namespace {

// Decimal microseconds without allocation: trace writing formats two per slice.
struct Micros {
  char buf[48];
  size_t len = 0;
  operator std::string_view() const { return {buf, len}; }
};

Micros format_us(uint64_t cycles, uint64_t period_fs) {
  // 1 us = 1e9 fs. The product can exceed 64 bits only for absurd cycle counts.
  unsigned __int128 fs = static_cast<unsigned __int128>(cycles) * period_fs;
  unsigned __int128 whole = fs / 1'000'000'000u;
  uint64_t frac = static_cast<uint64_t>(fs % 1'000'000'000u);
  Micros m;
  char* p = m.buf;
  if (whole <= UINT64_MAX) {
    p = std::to_chars(p, m.buf + sizeof m.buf, static_cast<uint64_t>(whole)).ptr;
  } else {
    char digits[40];
    size_t n = 0;
    for (; whole; whole /= 10) digits[n++] = static_cast<char>('0' + static_cast<int>(whole % 10));
    while (n) *p++ = digits[--n];
  }
  if (frac) {
    *p++ = '.';
    for (uint64_t div = 100'000'000; frac && div; div /= 10) {  // 9 digits, trailing zeros cut
      *p++ = static_cast<char>('0' + frac / div);
      frac %= div;
    }
  }
  m.len = static_cast<size_t>(p - m.buf);
  return m;
}

}  // namespace

std::string cycles_to_us(uint64_t cycles, const TraceClock& clock) {
  return std::string(std::string_view(format_us(cycles, clock.period_fs)));
}

namespace {

std::string json_string(const std::string& s) {
  // Invalid UTF-8 becomes U+FFFD rather than producing a file the viewers reject.
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

class PerfettoStream {
 public:
  PerfettoStream(const TraceRecorder& rec, std::ostream& os, const PerfettoOptions& options)
      : rec_(rec), out_(os), escaped_(rec.string_count()), options_(options) {}

  void write() {
    const TraceConfig& cfg = rec_.config();
    bin_ = choose_bin_cycles(rec_, options_.max_bytes);
    flows_ = binned_flows(rec_, bin_);
    out_ << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"tlmcraft traces\",\"clock_period\":"
         << json_string(cfg.clock.describe())
         << ",\"time_unit\":\"ts and dur in microseconds; 1 cycle = " << cycles_to_us(1, cfg.clock)
         << " us\",\"window_begin_cycle\":" << cfg.window_begin << ",\"window_end_cycle\":";
    if (cfg.window_end == UINT64_MAX)
      out_ << "null";
    else
      out_ << cfg.window_end;
    out_ << ",\"truncated\":" << (rec_.truncated() ? "true" : "false")
         << ",\"dropped_events\":" << rec_.dropped()
         << ",\"max_events\":" << static_cast<uint64_t>(cfg.max_events)
         << ",\"size_budget_bytes\":" << options_.max_bytes << ",\"aggregation_bin_cycles\":" << bin_
         << ",\"flows\":" << static_cast<uint64_t>(flows_.size()) << "},\"traceEvents\":[";

    std::vector<std::vector<uint32_t>> per_track = rec_.events_by_track();
    placed_.resize(rec_.tracks().size());
    for (uint32_t f : flows_) {
      placed_[rec_.flows()[f].from_track].needed = true;
      placed_[rec_.flows()[f].to_track].needed = true;
    }
    std::map<std::string, int> pids;
    int next_tid = 1;
    for (size_t k = 0; k < rec_.tracks().size(); ++k) {
      const TraceTrack& t = rec_.tracks()[k];
      if (!t.enabled || t.kinds == 0) continue;
      auto [it, added] = pids.emplace(t.group, static_cast<int>(pids.size()) + 1);
      int pid = it->second;
      if (added) {
        begin_event() << "\"ph\":\"M\",\"pid\":" << pid << ",\"name\":\"process_name\",\"args\":{\"name\":"
                      << json_string(t.group) << "}}";
        begin_event() << "\"ph\":\"M\",\"pid\":" << pid
                      << ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" << pid << "}}";
      }
      write_track(k, per_track[k], pid, next_tid);
      std::vector<uint32_t>().swap(per_track[k]);
    }
    write_flows();
    if (rec_.truncated()) {
      std::string msg = "TRACE TRUNCATED: " + std::to_string(rec_.dropped()) +
                        " events dropped after max_events " + std::to_string(cfg.max_events);
      begin_event() << "\"ph\":\"i\",\"s\":\"g\",\"pid\":1,\"tid\":1,\"name\":" << json_string(msg)
                    << ",\"ts\":" << us(rec_.first_drop_cycle()) << '}';
    }
    out_ << "]}\n";
    out_.flush();
  }

 private:
  // Where a track's slices went, kept only for tracks that flows point at.
  struct Placed {
    bool needed = false;
    int pid = 0, first_tid = 0;
    std::vector<std::pair<uint64_t, uint64_t>> spans;  // (begin, end) in begin order
    std::vector<uint32_t> lanes;
  };

  StreamBuffer& begin_event() {
    out_ << (first_ ? "\n{" : ",\n{");
    first_ = false;
    return out_;
  }
  const std::string& esc(uint32_t id) {
    if (escaped_[id].empty()) escaped_[id] = json_string(rec_.text(id));
    return escaped_[id];
  }
  Micros us(uint64_t cycle) const { return format_us(cycle, rec_.config().clock.period_fs); }

  void write_args(const TraceEvent& e) {
    const StoredArg* a = rec_.args_of(e);
    for (uint16_t i = 0; i < e.arg_count; ++i) {
      out_ << ',' << esc(a[i].key) << ':';
      if (a[i].text == StoredArg::kNumber)
        out_ << a[i].number;
      else
        out_ << esc(a[i].text);
    }
  }

  void write_thread(int pid, int tid, const std::string& name) {
    begin_event() << "\"ph\":\"M\",\"pid\":" << pid << ",\"tid\":" << tid
                  << ",\"name\":\"thread_name\",\"args\":{\"name\":" << json_string(name) << "}}";
    begin_event() << "\"ph\":\"M\",\"pid\":" << pid << ",\"tid\":" << tid
                  << ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" << tid << "}}";
  }

  // Lanes: each slice takes the lowest lane whose previous slice ended by its begin, so
  // slices on one lane never overlap (identical slices go to different lanes).
  static uint32_t assign_lanes(const std::vector<OutSlice>& slices, std::vector<uint32_t>& lane_of) {
    lane_of.resize(slices.size());
    uint32_t lane_count = 0;
    std::set<uint32_t> free_lanes;
    using Busy = std::pair<uint64_t, uint32_t>;  // (end, lane)
    std::priority_queue<Busy, std::vector<Busy>, std::greater<Busy>> busy;
    for (size_t n = 0; n < slices.size(); ++n) {
      uint64_t b = slices[n].begin;
      while (!busy.empty() && busy.top().first <= b) {
        free_lanes.insert(busy.top().second);
        busy.pop();
      }
      uint32_t lane = lane_count;
      if (!free_lanes.empty()) {
        lane = *free_lanes.begin();
        free_lanes.erase(free_lanes.begin());
      } else {
        ++lane_count;
      }
      lane_of[n] = lane;
      busy.push({slices[n].end, lane});
    }
    return lane_count;
  }

  void write_summary(const OutSlice& o) {
    const SliceSummary& s = summaries_[o.summary];
    const std::string& top = rec_.text(s.names[0].first);
    std::string name = s.one_name ? top + " x" + std::to_string(s.count)
                                  : std::to_string(s.count) + " slices, mostly " + top;
    std::string names;
    for (const auto& [id, count] : s.names)
      names += (names.empty() ? "" : ", ") + rec_.text(id) + " " + std::to_string(count);
    out_ << json_string(name) << ",\"ts\":" << us(o.begin) << ",\"dur\":" << us(o.end - o.begin)
         << ",\"args\":{\"aggregated_slices\":" << s.count << ",\"slice_cycles\":" << s.slice_cycles
         << ",\"bin_cycles\":" << bin_ << ",\"top_names\":" << json_string(names) << ",\"begin_cycle\":" << o.begin
         << ",\"end_cycle\":" << o.end << "}}";
  }

  void write_track(size_t k, const std::vector<uint32_t>& events, int pid, int& next_tid) {
    const TraceTrack& t = rec_.tracks()[k];
    const auto& ev = rec_.events();
    std::vector<uint32_t> slice_events;
    std::vector<std::pair<uint64_t, int64_t>> counters;
    std::vector<std::pair<uint64_t, uint32_t>> instants;  // (cycle, index)
    for (uint32_t i : events) {
      const TraceEvent& e = ev[i];
      switch (e.kind) {
        case EventKind::Slice: slice_events.push_back(i); break;
        case EventKind::Counter: counters.push_back({e.begin, e.value()}); break;
        case EventKind::Instant: instants.push_back({e.begin, i}); break;
      }
    }
    // Counter samples at one cycle keep recording order: the last one wins.
    std::stable_sort(counters.begin(), counters.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::sort(instants.begin(), instants.end());
    summaries_.clear();
    const std::vector<OutSlice> slices = binned_slices(rec_, slice_events, bin_, summaries_);
    std::vector<uint32_t>().swap(slice_events);

    std::vector<uint32_t> lane_of;
    const uint32_t lane_count = assign_lanes(slices, lane_of);
    size_t lanes = std::max<size_t>(lane_count, slices.empty() && instants.empty() ? 0 : 1);
    int first_tid = next_tid;
    for (size_t l = 0; l < lanes; ++l)
      write_thread(pid, next_tid++, l == 0 ? t.name : t.name + " #" + std::to_string(l + 1));

    for (size_t n = 0; n < slices.size(); ++n) {
      const OutSlice& o = slices[n];
      begin_event() << "\"ph\":\"X\",\"pid\":" << pid << ",\"tid\":" << first_tid + static_cast<int>(lane_of[n])
                    << ",\"name\":";
      if (o.index == OutSlice::kSummary) {
        write_summary(o);
        continue;
      }
      const TraceEvent& e = ev[o.index];
      out_ << esc(e.name) << ",\"ts\":" << us(o.begin) << ",\"dur\":" << us(o.end - o.begin)
           << ",\"args\":{\"begin_cycle\":" << e.begin << ",\"end_cycle\":" << e.end;
      write_args(e);
      out_ << "}}";
    }
    for (auto [cycle, i] : instants) {
      const TraceEvent& e = ev[i];
      begin_event() << "\"ph\":\"i\",\"s\":\"t\",\"pid\":" << pid << ",\"tid\":" << first_tid
                    << ",\"name\":" << esc(e.name) << ",\"ts\":" << us(cycle) << ",\"args\":{\"cycle\":"
                    << cycle;
      write_args(e);
      out_ << "}}";
    }
    if (t.has(EventKind::Counter)) write_counter(t, pid, binned_counter(counters, bin_));

    Placed& p = placed_[k];
    p.pid = pid;
    p.first_tid = lanes ? first_tid : 0;
    if (p.needed) {
      for (const OutSlice& o : slices) p.spans.push_back({o.begin, o.end});
      p.lanes = std::move(lane_of);
    }
  }

  void write_counter(const TraceTrack& t, int pid, const std::vector<std::pair<uint64_t, int64_t>>& samples) {
    std::string name = json_string(t.name);
    auto sample = [&](uint64_t cycle, int64_t v) {
      begin_event() << "\"ph\":\"C\",\"pid\":" << pid << ",\"name\":" << name << ",\"ts\":" << us(cycle)
                    << ",\"args\":{\"value\":" << v << "}}";
    };
    // The value carried into the window, unless a sample at the window begin replaces it.
    uint64_t w0 = rec_.config().window_begin;
    if (t.has_initial && (samples.empty() || samples.front().first != w0)) sample(w0, t.initial_value);
    for (auto [cycle, v] : samples) sample(cycle, v);
  }

  // The thread (lane) of `track` whose slice covers `cycle` (covered = true); else the
  // lane of the next slice to begin (the flow binds to it), or the first lane.
  int tid_at(uint32_t track, uint64_t cycle, bool& covered) const {
    const Placed& p = placed_[track];
    auto next = std::upper_bound(p.spans.begin(), p.spans.end(), std::make_pair(cycle, UINT64_MAX));
    covered = true;
    auto it = next;
    for (int back = 0; it != p.spans.begin() && back < 256; ++back) {
      --it;
      if (it->second > cycle || it->first == cycle) return p.first_tid + static_cast<int>(p.lanes[it - p.spans.begin()]);
    }
    covered = false;
    return p.first_tid + (next == p.spans.end() ? 0 : static_cast<int>(p.lanes[next - p.spans.begin()]));
  }

  void write_flows() {
    uint64_t id = 0;
    for (uint32_t f : flows_) {
      const TraceFlow& fl = rec_.flows()[f];
      const Placed &from = placed_[fl.from_track], &to = placed_[fl.to_track];
      if (!from.first_tid || !to.first_tid) continue;  // a track with no slices has no thread
      ++id;
      bool covered = false;
      const int from_tid = tid_at(fl.from_track, fl.from_cycle, covered);
      begin_event() << "\"ph\":\"s\",\"cat\":\"flow\",\"id\":" << id << ",\"pid\":" << from.pid
                    << ",\"tid\":" << from_tid << ",\"name\":" << esc(fl.name) << ",\"ts\":" << us(fl.from_cycle)
                    << '}';
      // The arrow ends in the slice covering its cycle ("bp":"e"), else in the next one.
      const int to_tid = tid_at(fl.to_track, fl.to_cycle, covered);
      begin_event() << "\"ph\":\"f\"," << (covered ? "\"bp\":\"e\"," : "") << "\"cat\":\"flow\",\"id\":" << id
                    << ",\"pid\":" << to.pid << ",\"tid\":" << to_tid << ",\"name\":" << esc(fl.name)
                    << ",\"ts\":" << us(fl.to_cycle) << '}';
    }
  }

  const TraceRecorder& rec_;
  StreamBuffer out_;
  std::vector<std::string> escaped_;
  PerfettoOptions options_;
  uint64_t bin_ = 1;
  std::vector<uint32_t> flows_;
  std::vector<Placed> placed_;
  std::vector<SliceSummary> summaries_;
  bool first_ = true;
};

}  // namespace

void write_perfetto(const TraceRecorder& recorder, std::ostream& out, const PerfettoOptions& options) {
  PerfettoStream(recorder, out, options).write();
}

void write_perfetto_file(const TraceRecorder& recorder, const std::string& path, const PerfettoOptions& options) {
  if (wants_gzip(path)) {
    GzipFileStream gz(path);
    write_perfetto(recorder, gz, options);
    gz.close();
    return;
  }
  write_trace_file(path, "Perfetto trace", [&](std::ostream& os) { write_perfetto(recorder, os, options); });
}

}  // namespace tlmcraft::traces
