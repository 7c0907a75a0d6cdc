#include "traces/profile.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace tlmcraft::traces {

namespace {

double ratio(uint64_t part, uint64_t total) { return total ? static_cast<double>(part) / total : 0.0; }

std::string percent(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", r * 100.0);
  return buf;
}

std::string pad(std::string s, size_t width, bool right) {
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

void sort_tracks(std::vector<TrackProfile>& tracks) {
  std::stable_sort(tracks.begin(), tracks.end(), [](const TrackProfile& a, const TrackProfile& b) {
    return a.busy_cycles != b.busy_cycles ? a.busy_cycles > b.busy_cycles : a.name < b.name;
  });
}

}  // namespace

Profile profile_from_recorder(const TraceRecorder& rec, uint64_t total_cycles, size_t top_n) {
  const TraceConfig& cfg = rec.config();
  Profile p;
  p.span_begin = cfg.window_begin;
  p.span_end = total_cycles > 0 ? std::min(cfg.window_end, total_cycles) : rec.last_cycle();
  p.span_end = std::max(p.span_end, p.span_begin);
  p.total_cycles = p.span_end - p.span_begin;
  p.truncated = rec.truncated();
  p.dropped_events = rec.dropped();

  struct Totals {
    uint64_t count = 0, cycles = 0;
  };
  std::unordered_map<uint64_t, Totals> by_name;  // key: track << 32 | name id
  std::vector<std::vector<uint32_t>> per_track = rec.events_by_track();
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (size_t k = 0; k < per_track.size(); ++k) {
    const TraceTrack& t = rec.tracks()[k];
    if (!t.enabled || !t.has(EventKind::Slice)) continue;
    TrackProfile tp;
    tp.name = t.full_name;
    spans.clear();
    for (uint32_t i : per_track[k]) {
      const TraceEvent& e = rec.events()[i];
      if (e.kind != EventKind::Slice) continue;
      uint64_t b = std::max(e.begin, p.span_begin), en = std::min(e.end, p.span_end);
      bool inside = e.begin == e.end ? (e.begin >= p.span_begin && e.begin < p.span_end) : b < en;
      if (!inside) continue;
      ++tp.slices;
      tp.slice_cycles += en - b;
      Totals& n = by_name[(static_cast<uint64_t>(k) << 32) | e.name];
      ++n.count;
      n.cycles += en - b;
      if (en > b) spans.push_back({b, en});
    }
    // Busy cycles: the length of the union of the slices.
    std::sort(spans.begin(), spans.end());
    uint64_t cur_b = 0, cur_e = 0;
    bool open = false;
    for (auto [b, e] : spans) {
      if (open && b <= cur_e) {
        cur_e = std::max(cur_e, e);
        continue;
      }
      if (open) tp.busy_cycles += cur_e - cur_b;
      cur_b = b;
      cur_e = e;
      open = true;
    }
    if (open) tp.busy_cycles += cur_e - cur_b;
    tp.utilisation = ratio(tp.busy_cycles, p.total_cycles);
    p.tracks.push_back(std::move(tp));
  }
  sort_tracks(p.tracks);

  for (const auto& [key, totals] : by_name) {
    NameProfile n;
    n.track = rec.tracks()[key >> 32].full_name;
    n.name = rec.text(static_cast<uint32_t>(key & 0xffffffffu));
    n.count = totals.count;
    n.cycles = totals.cycles;
    n.share = ratio(n.cycles, p.total_cycles);
    p.top.push_back(std::move(n));
  }
  std::sort(p.top.begin(), p.top.end(), [](const NameProfile& a, const NameProfile& b) {
    if (a.cycles != b.cycles) return a.cycles > b.cycles;
    if (a.count != b.count) return a.count > b.count;
    return a.track != b.track ? a.track < b.track : a.name < b.name;
  });
  if (p.top.size() > top_n) p.top.resize(top_n);
  return p;
}

Profile profile_from_counters(std::vector<TrackProfile> tracks, uint64_t total_cycles) {
  Profile p;
  p.span_end = p.total_cycles = total_cycles;
  for (TrackProfile& t : tracks) t.utilisation = ratio(t.busy_cycles, total_cycles);
  sort_tracks(tracks);
  p.tracks = std::move(tracks);
  return p;
}

std::string Profile::to_text() const {
  std::string s = "cycles " + std::to_string(span_begin) + ".." + std::to_string(span_end) + " (" +
                  std::to_string(total_cycles) + " cycles)\n";
  size_t w = 5;
  for (const TrackProfile& t : tracks) w = std::max(w, t.name.size());
  s += pad("track", w, false) + "  " + pad("busy", 10, true) + "  " + pad("util", 6, true) + "  " +
       pad("slices", 8, true) + '\n';
  for (const TrackProfile& t : tracks)
    s += pad(t.name, w, false) + "  " + pad(std::to_string(t.busy_cycles), 10, true) + "  " +
         pad(percent(t.utilisation), 6, true) + "  " + pad(std::to_string(t.slices), 8, true) + '\n';
  if (!top.empty()) {
    size_t wt = 0, wn = 0;
    for (const NameProfile& n : top) {
      wt = std::max(wt, n.track.size());
      wn = std::max(wn, n.name.size());
    }
    s += "top slices by cycles:\n";
    for (const NameProfile& n : top)
      s += "  " + pad(n.track, wt, false) + "  " + pad(n.name, wn, false) + "  " +
           pad(std::to_string(n.cycles), 10, true) + " cycles  " + pad(std::to_string(n.count), 8, true) +
           "x  " + pad(percent(n.share), 6, true) + '\n';
  }
  if (truncated)
    s += "note: trace truncated, " + std::to_string(dropped_events) +
         " events dropped; figures cover recorded events only\n";
  return s;
}

nlohmann::json Profile::to_json() const {
  nlohmann::json j;
  j["span"] = {span_begin, span_end};
  j["total_cycles"] = total_cycles;
  j["tracks"] = nlohmann::json::array();
  for (const TrackProfile& t : tracks)
    j["tracks"].push_back({{"name", t.name},
                           {"busy_cycles", t.busy_cycles},
                           {"utilisation", t.utilisation},
                           {"slices", t.slices},
                           {"slice_cycles", t.slice_cycles}});
  j["top"] = nlohmann::json::array();
  for (const NameProfile& n : top)
    j["top"].push_back(
        {{"track", n.track}, {"name", n.name}, {"count", n.count}, {"cycles", n.cycles}, {"share", n.share}});
  j["truncated"] = truncated;
  j["dropped_events"] = dropped_events;
  return j;
}

}  // namespace tlmcraft::traces
