#include "traces/perfetto_writer.h"

#include <algorithm>
#include <map>
#include <queue>
#include <set>

#include <nlohmann/json.hpp>

#include "traces/stream_buffer.h"

namespace tlmcraft::traces {

std::string cycles_to_us(uint64_t cycles, const TraceClock& clock) {
  // fs = cycles x period can exceed 64 bits; 1 us = 1e9 fs.
  unsigned __int128 fs = static_cast<unsigned __int128>(cycles) * clock.period_fs;
  unsigned __int128 whole = fs / 1'000'000'000u;
  uint64_t frac = static_cast<uint64_t>(fs % 1'000'000'000u);
  std::string s;
  do {
    s.push_back(static_cast<char>('0' + static_cast<int>(whole % 10)));
    whole /= 10;
  } while (whole);
  std::reverse(s.begin(), s.end());
  if (frac) {
    std::string f = std::to_string(frac);
    f.insert(0, 9 - f.size(), '0');
    while (f.back() == '0') f.pop_back();
    s += '.';
    s += f;
  }
  return s;
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
  std::string us(uint64_t cycle) const { return cycles_to_us(cycle, rec_.config().clock); }

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
    std::vector<uint32_t> slices, counters, instants;
    for (uint32_t i : events) {
      switch (ev[i].kind) {
        case EventKind::Slice: slices.push_back(i); break;
        case EventKind::Counter: counters.push_back(i); break;
        case EventKind::Instant: instants.push_back(i); break;
      }
    }
    auto cb = [&](uint32_t i) { return rec_.clip_begin(ev[i].begin); };
    auto ce = [&](uint32_t i) { return rec_.clip_end(ev[i].end); };
    auto at = [&](uint32_t a, uint32_t b) { return ev[a].begin < ev[b].begin; };
    // Begin order, longer first, so an enclosing slice precedes the ones nested in it.
    std::stable_sort(slices.begin(), slices.end(), [&](uint32_t a, uint32_t b) {
      return cb(a) != cb(b) ? cb(a) < cb(b) : ce(a) > ce(b);
    });
    std::stable_sort(counters.begin(), counters.end(), at);
    std::stable_sort(instants.begin(), instants.end(), at);

    // Lanes: each slice takes the lowest lane whose previous slice ended by its begin, so
    // slices on one lane never overlap (identical slices go to different lanes).
    std::vector<uint32_t> lane_of(slices.size());
    uint32_t lane_count = 0;
    std::set<uint32_t> free_lanes;
    using Busy = std::pair<uint64_t, uint32_t>;  // (end, lane)
    std::priority_queue<Busy, std::vector<Busy>, std::greater<Busy>> busy;
    for (size_t n = 0; n < slices.size(); ++n) {
      uint64_t b = cb(slices[n]);
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
      busy.push({ce(slices[n]), lane});
    }
    size_t lanes = std::max<size_t>(lane_count, slices.empty() && instants.empty() ? 0 : 1);
    int first_tid = next_tid;
    for (size_t l = 0; l < lanes; ++l)
      write_thread(pid, next_tid++, l == 0 ? t.name : t.name + " #" + std::to_string(l + 1));

    for (size_t n = 0; n < slices.size(); ++n) {
      const TraceEvent& e = ev[slices[n]];
      uint64_t b = cb(slices[n]);
      begin_event() << "\"ph\":\"X\",\"pid\":" << pid << ",\"tid\":" << first_tid + static_cast<int>(lane_of[n])
                    << ",\"name\":" << esc(e.name) << ",\"ts\":" << us(b) << ",\"dur\":" << us(ce(slices[n]) - b)
                    << ",\"args\":{\"begin_cycle\":" << e.begin << ",\"end_cycle\":" << e.end;
      write_args(e);
      out_ << "}}";
    }
    for (uint32_t i : instants) {
      const TraceEvent& e = ev[i];
      begin_event() << "\"ph\":\"i\",\"s\":\"t\",\"pid\":" << pid << ",\"tid\":" << first_tid
                    << ",\"name\":" << esc(e.name) << ",\"ts\":" << us(e.begin) << ",\"args\":{\"cycle\":"
                    << e.begin;
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
      if (t.has_initial && (counters.empty() || ev[counters.front()].begin != w0)) sample(w0, t.initial_value);
      for (uint32_t i : counters) sample(ev[i].begin, ev[i].value());
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
