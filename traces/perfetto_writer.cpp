#include "traces/perfetto_writer.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <queue>
#include <set>

#include <nlohmann/json.hpp>

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
  PerfettoStream(const TraceRecorder& rec, std::ostream& os)
      : rec_(rec), out_(os), escaped_(rec.string_count()) {}

  void write() {
    const TraceConfig& cfg = rec_.config();
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
         << ",\"max_events\":" << static_cast<uint64_t>(cfg.max_events) << "},\"traceEvents\":[";

    std::vector<std::vector<uint32_t>> per_track = rec_.events_by_track();
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
      write_track(t, per_track[k], pid, next_tid);
    }
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

  void write_track(const TraceTrack& t, const std::vector<uint32_t>& events, int pid, int& next_tid) {
    const auto& ev = rec_.events();
    // Sort keys copied out of the events: sorting needs no indirection. Slices go in begin
    // order, longer first, so an enclosing slice precedes those nested in it; equal keys
    // keep recording order (the index).
    struct SliceKey {
      uint64_t begin, end;
      uint32_t index;
      bool operator<(const SliceKey& o) const {
        if (begin != o.begin) return begin < o.begin;
        return end != o.end ? end > o.end : index < o.index;
      }
    };
    std::vector<SliceKey> slices;
    std::vector<std::pair<uint64_t, uint32_t>> counters, instants;  // (cycle, index)
    for (uint32_t i : events) {
      const TraceEvent& e = ev[i];
      switch (e.kind) {
        case EventKind::Slice: slices.push_back({rec_.clip_begin(e.begin), rec_.clip_end(e.end), i}); break;
        case EventKind::Counter: counters.push_back({e.begin, i}); break;
        case EventKind::Instant: instants.push_back({e.begin, i}); break;
      }
    }
    std::sort(slices.begin(), slices.end());
    std::sort(counters.begin(), counters.end());
    std::sort(instants.begin(), instants.end());

    // Lanes: each slice takes the lowest lane whose previous slice ended by its begin, so
    // slices on one lane never overlap (identical slices go to different lanes).
    std::vector<uint32_t> lane_of(slices.size());
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
    size_t lanes = std::max<size_t>(lane_count, slices.empty() && instants.empty() ? 0 : 1);
    int first_tid = next_tid;
    for (size_t l = 0; l < lanes; ++l)
      write_thread(pid, next_tid++, l == 0 ? t.name : t.name + " #" + std::to_string(l + 1));

    for (size_t n = 0; n < slices.size(); ++n) {
      const TraceEvent& e = ev[slices[n].index];
      uint64_t b = slices[n].begin;
      begin_event() << "\"ph\":\"X\",\"pid\":" << pid << ",\"tid\":" << first_tid + static_cast<int>(lane_of[n])
                    << ",\"name\":" << esc(e.name) << ",\"ts\":" << us(b) << ",\"dur\":" << us(slices[n].end - b)
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
    if (t.has(EventKind::Counter)) {
      std::string name = json_string(t.name);
      auto sample = [&](uint64_t cycle, int64_t v) {
        begin_event() << "\"ph\":\"C\",\"pid\":" << pid << ",\"name\":" << name << ",\"ts\":" << us(cycle)
                      << ",\"args\":{\"value\":" << v << "}}";
      };
      // The value carried into the window, unless a sample at the window begin replaces it.
      uint64_t w0 = rec_.config().window_begin;
      if (t.has_initial && (counters.empty() || counters.front().first != w0)) sample(w0, t.initial_value);
      for (auto [cycle, i] : counters) sample(cycle, ev[i].value());
    }
  }

  const TraceRecorder& rec_;
  StreamBuffer out_;
  std::vector<std::string> escaped_;
  bool first_ = true;
};

}  // namespace

void write_perfetto(const TraceRecorder& recorder, std::ostream& out) {
  PerfettoStream(recorder, out).write();
}

void write_perfetto_file(const TraceRecorder& recorder, const std::string& path) {
  write_trace_file(path, "Perfetto trace", [&](std::ostream& os) { write_perfetto(recorder, os); });
}

}  // namespace tlmcraft::traces
