// The data-movement section of an AIE-ML kernel (YAML after `.movement`): semaphore locks,
// buffers, DMA buffer descriptors and stream routes. Parsed and checked against the array
// configuration, with file:line diagnostics. Format: docs/platforms/aie-ml.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "isa/program.h"
#include "platforms/aie_ml/aie_config.h"

namespace tlmcraft::aie_ml {

enum class TileKind : uint8_t { Compute, Mem, Shim };

struct TileRef {
  TileKind kind = TileKind::Compute;
  uint32_t column = 0;
  uint32_t row = 0;  // compute tiles only
  bool operator==(const TileRef& o) const { return kind == o.kind && column == o.column && row == o.row; }
  std::string name() const;     // "tile(0,1)", "mem0", "shim2"
  uint32_t array_row() const;   // physical row: shim 0, memory tiles 1, compute rows from 2
};

struct LockInit {
  TileRef tile;
  uint32_t id = 0;
  uint32_t value = 0;
  uint32_t line = 0;
};

struct BufferSpec {
  std::string name;
  TileRef tile;
  uint64_t address = 0;  // tile-local byte address (shim: DDR byte offset)
  uint64_t size = 0;
  uint32_t line = 0;
};

struct LockUse {
  bool enabled = false;
  bool equal = false;  // acquire-equal instead of acquire-greater-equal
  uint32_t id = 0;
  int32_t value = 0;
};

// One address-generator dimension in 32-bit words, innermost first. Padding (memory-tile
// MM2S only) inserts zero words before/after the `size` real ones.
struct DimSpec {
  uint32_t size = 1;
  int64_t stride = 1;
  uint32_t pad_before = 0, pad_after = 0;
};

struct ChannelRef {
  bool mm2s = true;
  uint32_t index = 0;
  std::string name() const { return std::string(mm2s ? "mm2s" : "s2mm") + std::to_string(index); }
};

struct BdSpec {
  std::string name;
  TileRef tile;
  ChannelRef channel;
  int buffer = -1;       // index into MovementSpec::buffers
  uint64_t offset = 0;   // bytes from the buffer's start
  uint64_t length = 0;   // bytes moved over the stream (multiple of 4)
  std::vector<DimSpec> dims;  // empty = linear
  int next = -1;         // index into MovementSpec::bds, -1 = end of chain
  LockUse acquire, release;
  uint32_t line = 0;
};

struct RouteSpec {
  TileRef from_tile;
  ChannelRef from;  // an MM2S channel
  TileRef to_tile;
  ChannelRef to;    // an S2MM channel
  uint32_t line = 0;
  uint32_t hops() const;  // Manhattan distance between the two tiles' switches
};

struct MovementSpec {
  std::vector<LockInit> locks;
  std::vector<BufferSpec> buffers;
  std::vector<BdSpec> bds;
  std::vector<RouteSpec> routes;
  bool empty() const { return locks.empty() && buffers.empty() && bds.empty() && routes.empty(); }
};

// Parses `text` whose first line is file line `first_line`. Returns false and appends
// diagnostics ("file:line: cause") on any error; `out` is then incomplete.
bool parse_movement(const std::string& text, const std::string& file, uint32_t first_line, const AieConfig& cfg,
                    MovementSpec& out, std::vector<isa::Diagnostic>& diags);

// Walks a BD's address generator: the 32-bit word offset (from the BD's start address) of
// each streamed word in order, -1 for a padding (zero) word. Every dimension but the
// outermost wraps after its padded size; the outermost keeps counting.
class BdWalker {
 public:
  BdWalker() = default;
  explicit BdWalker(const BdSpec& bd);
  uint64_t total() const { return total_; }  // words = length / 4
  uint64_t done() const { return done_; }
  bool finished() const { return done_ == total_; }
  int64_t next();

 private:
  const BdSpec* bd_ = nullptr;
  uint64_t total_ = 0, done_ = 0;
  std::vector<uint64_t> idx_;
};

// All word offsets of a BD (for tests and small BDs).
std::vector<int64_t> bd_word_offsets(const BdSpec& bd);

// Longest BD accepted (bytes): bounds the parse-time walk over every word.
constexpr uint64_t kMaxBdBytes = 64ull << 20;

}  // namespace tlmcraft::aie_ml
