#include "traces/perfetto_budget.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace tlmcraft::traces {

namespace {

using Model = PerfettoSizeModel;

struct TrackEvents {
  std::vector<std::pair<uint64_t, uint64_t>> slices;  // clipped (begin, end), sorted
  std::vector<uint64_t> counters;                     // sample cycles, sorted
  uint64_t arg_bytes = 0, fixed_bytes = 0;            // slice args; instants
};

std::vector<TrackEvents> collect(const TraceRecorder& rec) {
  std::vector<TrackEvents> tracks(rec.tracks().size());
  const auto& ev = rec.events();
  for (size_t i = 0; i < ev.size(); ++i) {
    const TraceEvent& e = ev[i];
    TrackEvents& t = tracks[e.track];
    switch (e.kind) {
      case EventKind::Slice:
        t.slices.push_back({rec.clip_begin(e.begin), rec.clip_end(e.end)});
        t.arg_bytes += e.arg_count * Model::kArg;
        break;
      case EventKind::Counter: t.counters.push_back(e.begin); break;
      case EventKind::Instant: t.fixed_bytes += Model::kInstant + e.arg_count * Model::kArg; break;
    }
  }
  for (TrackEvents& t : tracks) {
    std::sort(t.slices.begin(), t.slices.end());
    std::sort(t.counters.begin(), t.counters.end());
  }
  return tracks;
}

// Estimated JSON bytes with bin width `bin`.
uint64_t estimate(const TraceRecorder& rec, const std::vector<TrackEvents>& tracks, uint64_t bin) {
  uint64_t bytes = 0;
  for (const TrackEvents& t : tracks) {
    bytes += t.fixed_bytes;
    if (bin == 1) {
      bytes += t.slices.size() * Model::kSlice + t.arg_bytes + t.counters.size() * Model::kCounter;
      continue;
    }
    uint64_t last_bin = UINT64_MAX;
    for (auto [b, e] : t.slices) {
      if (e - b >= bin) {
        bytes += Model::kSlice + 2 * Model::kArg;
      } else if (b / bin != last_bin) {
        bytes += Model::kSummary;
        last_bin = b / bin;
      }
    }
    last_bin = UINT64_MAX;
    for (uint64_t c : t.counters)
      if (c / bin != last_bin) {
        bytes += 2 * Model::kCounter;
        last_bin = c / bin;
      }
  }
  bytes += (bin == 1 ? rec.flows().size() : binned_flows(rec, bin).size()) * Model::kFlow;
  return bytes;
}

}  // namespace

uint64_t choose_bin_cycles(const TraceRecorder& rec, uint64_t max_bytes) {
  if (max_bytes == 0) return 1;
  const std::vector<TrackEvents> tracks = collect(rec);
  if (estimate(rec, tracks, 1) <= max_bytes) return 1;
  // The estimate falls as the bins widen: binary search over the exponent.
  int lo = 1, hi = 40;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (estimate(rec, tracks, uint64_t{1} << mid) <= max_bytes)
      hi = mid;
    else
      lo = mid + 1;
  }
  return uint64_t{1} << lo;
}

std::vector<OutSlice> binned_slices(const TraceRecorder& rec, const std::vector<uint32_t>& slices, uint64_t bin,
                                    std::vector<SliceSummary>& summaries) {
  const auto& ev = rec.events();
  std::vector<OutSlice> out;
  out.reserve(slices.size());
  for (uint32_t i : slices) out.push_back({rec.clip_begin(ev[i].begin), rec.clip_end(ev[i].end), i, 0});
  auto order = [](const OutSlice& a, const OutSlice& b) {
    return std::tie(a.begin, b.end, a.index) < std::tie(b.begin, a.end, b.index);
  };
  std::sort(out.begin(), out.end(), order);
  if (bin <= 1) return out;

  std::vector<OutSlice> kept;
  size_t n = 0;
  while (n < out.size()) {
    if (out[n].end - out[n].begin >= bin) {
      kept.push_back(out[n++]);
      continue;
    }
    // The short slices beginning in this bin (long ones in it are kept separately).
    const uint64_t b = out[n].begin / bin;
    std::vector<size_t> group;
    for (; n < out.size() && out[n].begin / bin == b; ++n) {
      if (out[n].end - out[n].begin >= bin)
        kept.push_back(out[n]);
      else
        group.push_back(n);
    }
    if (group.size() == 1) {
      kept.push_back(out[group[0]]);
      continue;
    }
    SliceSummary s;
    OutSlice o{out[group[0]].begin, out[group[0]].end, OutSlice::kSummary, static_cast<uint32_t>(summaries.size())};
    std::vector<std::pair<uint32_t, uint32_t>> counts;  // (name, count)
    for (size_t g : group) {
      o.end = std::max(o.end, out[g].end);
      ++s.count;
      s.slice_cycles += out[g].end - out[g].begin;
      const uint32_t name = ev[out[g].index].name;
      auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == name; });
      if (it == counts.end())
        counts.push_back({name, 1});
      else
        ++it->second;
    }
    s.one_name = counts.size() == 1;
    std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& c) { return a.second > c.second; });
    counts.resize(std::min<size_t>(counts.size(), 3));
    s.names = std::move(counts);
    summaries.push_back(std::move(s));
    kept.push_back(o);
  }
  std::sort(kept.begin(), kept.end(), order);
  return kept;
}

std::vector<std::pair<uint64_t, int64_t>> binned_counter(const std::vector<std::pair<uint64_t, int64_t>>& samples,
                                                         uint64_t bin) {
  if (bin <= 1) return samples;
  std::vector<std::pair<uint64_t, int64_t>> out;
  size_t n = 0;
  while (n < samples.size()) {
    const uint64_t b = samples[n].first / bin;
    size_t peak = n, last = n;
    for (; n < samples.size() && samples[n].first / bin == b; ++n) {
      if (samples[n].second > samples[peak].second) peak = n;
      last = n;
    }
    out.push_back(samples[peak]);
    if (last != peak) out.push_back(samples[last]);
  }
  return out;
}

std::vector<uint32_t> binned_flows(const TraceRecorder& rec, uint64_t bin) {
  std::vector<uint32_t> out;
  std::set<std::tuple<uint32_t, uint32_t, uint64_t>> seen;
  const auto& flows = rec.flows();
  for (uint32_t i = 0; i < flows.size(); ++i) {
    const TraceFlow& f = flows[i];
    if (bin <= 1 || seen.insert({f.from_track, f.to_track, f.from_cycle / bin}).second) out.push_back(i);
  }
  return out;
}

}  // namespace tlmcraft::traces
