#include "platforms/memory_map.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace tlmcraft {

namespace {

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// "65536 bf16 elements of 2 bytes" / "32768 bytes"
std::string capacity(const MemoryRegion& r) {
  if (r.unit == 1) return std::to_string(r.bytes) + " bytes";
  return std::to_string(r.bytes / r.unit) + " " + r.unit_name + "s of " + std::to_string(r.unit) + " bytes";
}

}  // namespace

MemoryMap::MemoryMap(std::string platform, std::vector<MemoryRegion> regions)
    : platform_(std::move(platform)), regions_(std::move(regions)) {}

std::vector<std::string> MemoryMap::names() const {
  std::vector<std::string> out;
  for (const auto& r : regions_) out.push_back(r.name);
  return out;
}

const MemoryRegion& MemoryMap::region(const std::string& memory) const {
  for (const auto& r : regions_)
    if (r.name == memory) return r;
  std::string known;
  for (const auto& r : regions_) known += (known.empty() ? "" : ", ") + r.name;
  throw InputError(platform_ + ": unknown memory '" + memory + "' (known: " + known + ")");
}

uint64_t MemoryMap::checked_offset(const MemoryRegion& r, uint64_t addr, uint64_t len) const {
  const bool inside = addr <= r.bytes / r.unit && len <= r.bytes - addr * r.unit;
  if (!inside)
    throw InputError(platform_ + ": " + r.name + " address " + hex(addr) + " + " + std::to_string(len) +
                     " bytes is outside the memory (" + capacity(r) + "; an address counts " + r.unit_name + "s)");
  return addr * r.unit;
}

void MemoryMap::write(const std::string& memory, uint64_t addr, const std::vector<uint8_t>& bytes) const {
  const MemoryRegion& r = region(memory);
  if (!r.harness_writes) throw InputError(platform_ + ": memory '" + memory + "' cannot be written by the harness");
  const uint64_t off = checked_offset(r, addr, bytes.size());
  if (bytes.empty()) return;
  if (r.data) std::memcpy(r.data + off, bytes.data(), bytes.size());
  else r.dram->write_bytes(off, bytes.data(), bytes.size());
}

std::vector<uint8_t> MemoryMap::read(const std::string& memory, uint64_t addr, uint64_t len) const {
  const MemoryRegion& r = region(memory);
  if (!r.harness_reads) throw InputError(platform_ + ": memory '" + memory + "' cannot be read by the harness");
  const uint64_t off = checked_offset(r, addr, len);
  std::vector<uint8_t> out(len);
  if (len == 0) return out;
  if (r.data) std::memcpy(out.data(), r.data + off, len);
  else r.dram->read_bytes(off, out.data(), len);
  return out;
}

std::vector<MemoryExtents> MemoryMap::extents() const {
  std::vector<MemoryExtents> out;
  for (const auto& r : regions_) {
    MemoryExtents e{r.name, r.unit, r.bytes, {}};
    if (r.data) {
      e.ranges.emplace_back(0, r.bytes);
    } else {
      const uint64_t page = r.dram->config().page_bytes;
      for (uint64_t off : r.dram->allocated_page_offsets()) e.ranges.emplace_back(off, std::min(page, r.bytes - off));
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace tlmcraft
