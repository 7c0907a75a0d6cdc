#include "harness/memory_guard.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>

namespace tlmcraft {
namespace {

using Range = std::pair<uint64_t, uint64_t>;  // [begin, end) byte offsets

bool names(const tasks::ScratchRegion& s, const std::string& memory) {
  if (!s.memory.empty() && s.memory.back() == '*')
    return memory.compare(0, s.memory.size() - 1, s.memory, 0, s.memory.size() - 1) == 0;
  return s.memory == memory;
}

// `from` minus every range of `cut` (both sorted or not; the result is sorted, disjoint).
std::vector<Range> subtract(std::vector<Range> from, std::vector<Range> cut) {
  std::sort(cut.begin(), cut.end());
  std::vector<Range> out;
  for (Range r : from) {
    for (const Range& c : cut) {
      if (c.second <= r.first || c.first >= r.second) continue;
      if (c.first > r.first) out.push_back({r.first, c.first});
      r.first = std::max(r.first, c.second);
      if (r.first >= r.second) break;
    }
    if (r.first < r.second) out.push_back(r);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
  return b;
}

std::string hex_bytes(const std::vector<uint8_t>& v) {
  std::string s;
  char b[4];
  for (size_t i = 0; i < v.size(); ++i) {
    if (i && i % 4 == 0) s += ' ';
    std::snprintf(b, sizeof b, "%02x", v[i]);
    s += b;
  }
  return s;
}

}  // namespace

MemoryGuard::MemoryGuard(Platform& platform, const tasks::PlatformLayout& layout) {
  const std::vector<MemoryExtents> before_guards = platform.memory_extents();
  for (const MemoryExtents& m : before_guards) {
    Snapshot s;
    s.memory = m.memory;
    s.unit = m.unit;
    s.bytes = m.bytes;
    std::vector<Range> scratch, outputs, tensors;
    for (const auto& r : layout.scratch())
      if (names(r, m.memory) && r.begin < m.bytes) scratch.push_back({r.begin, std::min(r.end, m.bytes)});
    for (const auto& t : layout.tensors()) {
      if (t.memory != m.memory) continue;
      const uint64_t b = t.address * m.unit;
      if (b > m.bytes || t.bytes > m.bytes - b)
        throw std::runtime_error("memory guard: tensor '" + t.name + "' lies outside memory " + m.memory);
      tensors.push_back({b, b + t.bytes});
      s.labels.push_back({b, b + t.bytes, std::string(t.role == tasks::Role::Output ? "output" : "input") + " '" + t.name + "'"});
      if (t.role == tasks::Role::Output) outputs.push_back({b, b + t.bytes});
    }
    std::vector<Range> occupied = tensors;
    occupied.insert(occupied.end(), scratch.begin(), scratch.end());
    // Guard bytes on both sides of each output, where nothing else lies.
    for (const auto& t : layout.tensors()) {
      if (t.memory != m.memory || t.role != tasks::Role::Output) continue;
      const uint64_t b = t.address * m.unit, e = b + t.bytes;
      const Range sides[2] = {{b - std::min(b, kGuardBytes), b}, {e, std::min(m.bytes, e + kGuardBytes)}};
      for (int k = 0; k < 2; ++k)
        for (const Range& g : subtract({sides[k]}, occupied)) {
          if (g.first % m.unit || (g.second - g.first) % m.unit) continue;
          platform.write_memory(m.memory, g.first / m.unit, std::vector<uint8_t>(g.second - g.first, kGuardByte));
          s.labels.push_back({g.first, g.second, std::string(k ? "guard after" : "guard before") + " output '" + t.name + "'"});
        }
    }
    std::vector<Range> may_change = outputs;
    may_change.insert(may_change.end(), scratch.begin(), scratch.end());
    for (const Range& r : subtract({{0, m.bytes}}, may_change)) s.protected_ranges.push_back({r.first, r.second, ""});
    if (!s.protected_ranges.empty()) snapshots_.push_back(std::move(s));
  }
  // The guards may have allocated DRAM pages: copy the extents as they are now.
  const std::vector<MemoryExtents> now = platform.memory_extents();
  for (Snapshot& s : snapshots_)
    for (const MemoryExtents& m : now)
      if (m.memory == s.memory)
        for (const auto& [off, len] : m.ranges)
          for_each_chunk(off, off + len, [&](uint64_t b, uint64_t e) {
            if (!touches_protected(s, b, e)) return;
            std::vector<uint8_t> bytes = platform.read_memory(s.memory, b / s.unit, e - b);
            if (std::any_of(bytes.begin(), bytes.end(), [](uint8_t v) { return v != 0; }))
              s.extents.emplace(b, std::move(bytes));
          });
}

bool MemoryGuard::touches_protected(const Snapshot& s, uint64_t begin, uint64_t end) {
  const auto it = std::upper_bound(s.protected_ranges.begin(), s.protected_ranges.end(), begin,
                                   [](uint64_t v, const Interval& p) { return v < p.end; });
  return it != s.protected_ranges.end() && it->begin < end;
}

void MemoryGuard::for_each_chunk(uint64_t begin, uint64_t end, const std::function<void(uint64_t, uint64_t)>& f) {
  while (begin < end) {
    const uint64_t next = std::min(end, (begin / kChunkBytes + 1) * kChunkBytes);
    f(begin, next);
    begin = next;
  }
}

std::string MemoryGuard::label(const Snapshot& s, uint64_t offset) const {
  for (const Interval& l : s.labels)
    if (offset >= l.begin && offset < l.end) return l.what;
  return "unused memory";
}

void MemoryGuard::compare_chunk(const Snapshot& s, uint64_t b, uint64_t e, const std::vector<uint8_t>& after,
                                OutsideWrite& w) const {
  // The copy of exactly this chunk, else one assembled from the overlapping copies (each
  // at most one chunk long; bytes in none were zero).
  const auto exact = s.extents.find(b);
  std::vector<uint8_t> assembled;
  if (exact == s.extents.end() || exact->second.size() != after.size()) {
    assembled.assign(after.size(), 0);
    for (auto it = s.extents.lower_bound(b >= kChunkBytes ? b - kChunkBytes : 0); it != s.extents.end() && it->first < e; ++it) {
      const uint64_t lo = std::max(it->first, b), hi = std::min(it->first + it->second.size(), e);
      if (lo < hi) std::memcpy(assembled.data() + (lo - b), it->second.data() + (lo - it->first), hi - lo);
    }
  }
  const std::vector<uint8_t>& before = assembled.empty() ? exact->second : assembled;
  for (const Interval& p : s.protected_ranges) {
    const uint64_t lo = std::max(p.begin, b), hi = std::min(p.end, e);
    if (lo >= hi || std::memcmp(before.data() + (lo - b), after.data() + (lo - b), hi - lo) == 0) continue;
    for (uint64_t i = lo; i < hi; ++i) {
      if (before[i - b] == after[i - b]) continue;
      if (w.changed_bytes++ == 0) {
        w.first = i;
        w.words_at = std::max(b, i & ~uint64_t(3));
        const uint64_t n = std::min<uint64_t>(16, e - w.words_at);
        w.before.assign(before.begin() + long(w.words_at - b), before.begin() + long(w.words_at - b + n));
        w.after.assign(after.begin() + long(w.words_at - b), after.begin() + long(w.words_at - b + n));
        w.where = label(s, i);
      }
      w.last = i;
    }
  }
}

std::vector<OutsideWrite> MemoryGuard::changes(const Platform& platform) const {
  std::vector<OutsideWrite> out;
  const std::vector<MemoryExtents> now = platform.memory_extents();
  for (const Snapshot& s : snapshots_) {
    std::vector<Range> ranges;
    for (const auto& [off, bytes] : s.extents) ranges.push_back({off, off + bytes.size()});
    for (const MemoryExtents& m : now)
      if (m.memory == s.memory)
        for (const auto& [off, len] : m.ranges) ranges.push_back({off, off + len});
    std::sort(ranges.begin(), ranges.end());
    std::vector<Range> merged;  // disjoint, ascending
    for (const Range& r : ranges) {
      if (!merged.empty() && r.first <= merged.back().second) merged.back().second = std::max(merged.back().second, r.second);
      else merged.push_back(r);
    }
    OutsideWrite w;
    for (const Range& r : merged)
      for_each_chunk(r.first, r.second, [&](uint64_t b, uint64_t e) {
        if (touches_protected(s, b, e)) compare_chunk(s, b, e, platform.read_memory(s.memory, b / s.unit, e - b), w);
      });
    if (w.changed_bytes) {
      w.memory = s.memory;
      w.unit = s.unit;
      out.push_back(std::move(w));
    }
  }
  return out;
}

nlohmann::json OutsideWrite::to_json() const {
  return {{"memory", memory},         {"first", first},          {"last", last},
          {"changed_bytes", changed_bytes}, {"where", where},    {"words_at", words_at},
          {"before", hex_bytes(before)},    {"after", hex_bytes(after)}};
}

std::string OutsideWrite::describe() const {
  std::string s = memory + ": " + std::to_string(changed_bytes) + (changed_bytes == 1 ? " byte" : " bytes") +
                  " changed outside the outputs in bytes [" + hex(first) + ", " + hex(last) + "]";
  if (unit != 1) s += " (address " + hex(first / unit) + ")";
  s += ", first in " + where + "; words at " + hex(words_at) + " were " + hex_bytes(before) + ", now " + hex_bytes(after);
  return s;
}

}  // namespace tlmcraft
