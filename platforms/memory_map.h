// A platform's named memories, declared once: name, size, address unit (stated in
// messages), whether the harness may read or write it, and where its bytes live. The
// platform base (platform_base.h) derives memories(), memory_extents() and the checked
// read_memory/write_memory from it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/dram.h"
#include "platforms/platform.h"

namespace tlmcraft {

struct MemoryRegion {
  std::string name;
  uint64_t bytes = 0;              // size
  uint64_t unit = 1;               // bytes per address step of read_memory/write_memory
  std::string unit_name = "byte";  // one address step, for messages: "bf16 element", "u32 word"
  bool harness_reads = true;       // read_memory allowed
  bool harness_writes = true;      // write_memory allowed
  uint8_t* data = nullptr;         // dense host storage (bytes long), or ...
  models::Dram* dram = nullptr;    // ... a sparse DRAM that allocates pages as they are written
};

class MemoryMap {
 public:
  MemoryMap(std::string platform, std::vector<MemoryRegion> regions);

  std::vector<std::string> names() const;
  // Throws InputError naming the platform, the known memories, or the range and its units.
  void write(const std::string& memory, uint64_t addr, const std::vector<uint8_t>& bytes) const;
  std::vector<uint8_t> read(const std::string& memory, uint64_t addr, uint64_t len) const;
  std::vector<MemoryExtents> extents() const;
  const MemoryRegion& region(const std::string& memory) const;

 private:
  // The byte offset of [addr, +len bytes) in `r`, or an InputError naming both units.
  uint64_t checked_offset(const MemoryRegion& r, uint64_t addr, uint64_t len) const;

  std::string platform_;
  std::vector<MemoryRegion> regions_;
};

}  // namespace tlmcraft
