#include "harness/memory_guard.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
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
  for (Snapshot& s : snapshots_) {
    for (const MemoryExtents& m : now) {
      if (m.memory != s.memory) continue;
      for (const auto& [off, len] : m.ranges) {
        const bool needed = std::any_of(s.protected_ranges.begin(), s.protected_ranges.end(),
                                        [&](const Interval& p) { return p.begin < off + len && p.end > off; });
        if (needed) s.extents.emplace_back(off, platform.read_memory(s.memory, off / s.unit, len));
      }
    }
  }
}

std::string MemoryGuard::label(const Snapshot& s, uint64_t offset) const {
  for (const Interval& l : s.labels)
    if (offset >= l.begin && offset < l.end) return l.what;
  return "unused memory";
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
    for (const Range& r : merged) {
      const bool needed = std::any_of(s.protected_ranges.begin(), s.protected_ranges.end(),
                                      [&](const Interval& p) { return p.begin < r.second && p.end > r.first; });
      if (!needed) continue;
      const std::vector<uint8_t> after = platform.read_memory(s.memory, r.first / s.unit, r.second - r.first);
      std::vector<uint8_t> before(after.size(), 0);  // bytes in no extent were zero
      for (const auto& [off, bytes] : s.extents) {
        const uint64_t b = std::max(off, r.first), e = std::min(off + bytes.size(), r.second);
        if (b < e) std::memcpy(before.data() + (b - r.first), bytes.data() + (b - off), e - b);
      }
      for (const Interval& p : s.protected_ranges) {
        const uint64_t b = std::max(p.begin, r.first), e = std::min(p.end, r.second);
        if (b >= e || std::memcmp(before.data() + (b - r.first), after.data() + (b - r.first), e - b) == 0) continue;
        for (uint64_t i = b; i < e; ++i) {
          if (before[i - r.first] == after[i - r.first]) continue;
          if (w.changed_bytes++ == 0) {
            w.first = i;
            w.words_at = std::max(r.first, i & ~uint64_t(3));
            const uint64_t n = std::min<uint64_t>(16, r.second - w.words_at);
            w.before.assign(before.begin() + (w.words_at - r.first), before.begin() + (w.words_at - r.first + n));
            w.after.assign(after.begin() + (w.words_at - r.first), after.begin() + (w.words_at - r.first + n));
            w.where = label(s, i);
          }
          w.last = i;
        }
      }
    }
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
