// The interface every virtual platform offers to the harness and the CLI: load a kernel,
// put inputs in memory, run with limits, read outputs and statistics back.
#pragma once
#include <cstdint>
#include <memory>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "isa/program.h"

namespace tlmcraft {

struct RunLimits {
  uint64_t max_instructions = 10'000'000;  // the paper's limit
  uint64_t max_cycles = 1'000'000'000;
  double wall_seconds = 60.0;              // host time limit; 0 = none
};

struct TraceOptions {
  std::string vcd_path;       // empty = off
  std::string perfetto_path;  // empty = off
  uint64_t window_begin = 0;  // cycle window kept in traces
  uint64_t window_end = UINT64_MAX;
  std::string scopes;                        // "tile_0_2,array": track-name prefixes kept; empty = all
  uint64_t perfetto_max_bytes = 40'000'000;  // size budget: aggregate beyond it; 0 = none
};

enum class StopReason { Halted, InstructionLimit, CycleLimit, WallTimeout, Fault };
const char* to_string(StopReason);

struct UnitStats {
  std::string name;
  uint64_t instructions = 0;   // instructions executed by the unit
  uint64_t busy_cycles = 0;    // cycles the unit was occupied
  uint64_t stall_cycles = 0;   // cycles instructions waited before issuing to it
};

struct LineStats {
  uint32_t line = 0;
  uint64_t executions = 0;
  uint64_t cycles = 0;  // issue-to-issue cycles attributed to the line
};

// An added instruction (an ISA overlay's) in the program run: its words and their executions.
struct AddedInstructionUse {
  uint64_t static_count = 0;
  uint64_t executions = 0;
};

struct RunResult {
  StopReason stop = StopReason::Halted;
  std::string message;      // fault or limit text naming PC, source line and instruction
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  std::map<std::string, uint64_t> instructions_by_class;
  std::vector<UnitStats> units;
  // Multiply-accumulates by operand format ("int8", "bf16", ...), for energy tables that
  // price a MAC by its format; a platform lists every format it has (zero when unused).
  std::map<std::string, uint64_t> macs_by_format;
  // Energy actions ("vector.mul.bf16", "vram.read_bytes", ...: isa/actions.h) the run
  // performed; every action the platform can perform is listed, zero when unused.
  std::map<std::string, uint64_t> actions;
  std::vector<LineStats> lines;   // per source line, sorted by cycles descending
  nlohmann::json memory;          // per-memory traffic statistics
  // The cycle the run's last off-chip transfer completes in memory (writes the controller
  // still buffered included), when the platform tracks it: it may lie after `cycles`,
  // which counts only what the core waits for (docs/report-schema.md).
  std::optional<uint64_t> last_transfer_cycle;
  // Per added instruction's mnemonic, where the platform places them at build: the uses
  // the co-design tools count from the suite's own runs (empty: none, or not counted).
  std::map<std::string, AddedInstructionUse> added_instructions;
  double host_seconds = 0;
  bool ok() const { return stop == StopReason::Halted; }
  nlohmann::json to_json() const;
};

// Where one memory may hold non-zero bytes, for the harness's check that a kernel
// changed nothing outside its outputs (harness/memory_guard.h): `unit` bytes per address
// step of read_memory/write_memory, `bytes` its size, and the byte ranges (offset, length)
// outside which every byte is zero: a dense memory is one range, a sparse DRAM lists the
// pages it has allocated.
struct MemoryExtents {
  std::string memory;
  uint64_t unit = 1;
  uint64_t bytes = 0;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
};

// What a task tells the assembler about kernels that leave parts out: the layout's
// kernel defaults (AIE-ML: the `.movement` section used when a kernel file has none;
// Coral: the #defines compiled in front of a C kernel). Empty: the kernel states all.
struct KernelContext {
  std::string task_defaults;
  // Host time allowed for assembling, in seconds (0 = none): the run's wall-clock limit
  // (`--timeout`), so a hostile kernel file cannot hold the caller in the assembler.
  double wall_seconds = 0;
};

// Thrown for bad input (config, addresses given by the user): the CLI maps it to exit 2.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Platform {
 public:
  virtual ~Platform() = default;
  virtual std::string name() const = 0;
  // Assembles kernel text for a task (context); on failure returns no program and fills
  // diags. The program is complete: load() needs nothing else.
  virtual bool assemble(const std::string& source, const std::string& file_name, const KernelContext& context,
                        isa::Program& out, std::vector<isa::Diagnostic>& diags) const = 0;
  // A kernel that states everything itself (no task context).
  bool assemble(const std::string& source, const std::string& file_name, isa::Program& out,
                std::vector<isa::Diagnostic>& diags) const {
    return assemble(source, file_name, KernelContext{}, out, diags);
  }
  // Elaborates a fresh platform (memories empty) with the program; a second load replaces
  // the first. run() before any load(), or twice without a load() between, is an InputError.
  virtual void load(const isa::Program& program) = 0;
  // Named memories (e.g. "hbm", "vram"); addresses in that memory's own units.
  virtual std::vector<std::string> memories() const = 0;
  virtual void write_memory(const std::string& memory, uint64_t addr, const std::vector<uint8_t>& bytes) = 0;
  virtual std::vector<uint8_t> read_memory(const std::string& memory, uint64_t addr, uint64_t len) const = 0;
  // Every named memory's extents (MemoryExtents), in memories() order.
  virtual std::vector<MemoryExtents> memory_extents() const = 0;
  virtual RunResult run(const RunLimits& limits, const TraceOptions& traces) = 0;
  virtual nlohmann::json config() const = 0;  // the effective platform configuration
};

}  // namespace tlmcraft
