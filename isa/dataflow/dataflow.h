// The dataflow view of a kernel that instruction extensions share on every ISA:
// a list of operations, each reading and writing named storage (a register, a
// scratchpad row addressed through a register, a flag), with the control-flow
// edges liveness needs. A platform turns its kernel text into this view (its
// own adapter); the pattern matcher (pattern_match.h) and the candidate miner
// (subgraphs.h) work on it without knowing the ISA. Names of storage are opaque
// strings: two operands touch the same storage exactly when their names are
// equal (an adapter must name aliases alike, or say it cannot).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace tlmcraft::isa::dataflow {

enum class Access { Read, Write, ReadWrite, Literal };

struct Operand {
  Access access = Access::Literal;
  std::string storage;  // Read / Write / ReadWrite: the storage name ("gp3",
                        // "row@gp3", "x5")
  std::string text;     // as written in the kernel (the literal itself for Literal)
  // A memory operand reached through a register: that register's storage name
  // ("gp3" for the row "VRAM@s3+0"); empty otherwise. The op reads it.
  std::string address;
  bool reads() const { return access == Access::Read || access == Access::ReadWrite; }
  bool writes() const { return access == Access::Write || access == Access::ReadWrite; }
};

struct Op {
  std::string mnemonic;
  std::vector<Operand> operands;  // in assembly order
  // Storage read or written beyond the operands (a mask register, the
  // accumulators); "SPACE@*" stands for every storage named "SPACE@..." (a
  // range the adapter cannot name).
  std::vector<std::string> implicit_reads, implicit_writes;
  size_t line = 0;  // 1-based kernel source line (0: none)
  // Control flow: an op that may continue somewhere other than the next op
  // lists those indices in `jumps_to`; `falls_through` is false for an
  // unconditional jump or a stop.
  std::vector<size_t> jumps_to;
  bool falls_through = true;
  // Nothing is moved across a barrier (control flow, a DMA, a fence, a call).
  bool barrier = false;
  // Two operand positions whose order does not change the result (a + b, a * b);
  // -1: none. The matcher binds them in either order.
  int commutes_a = -1, commutes_b = -1;
};

// True when `op` reads (writes) the storage `name`, through an operand, an
// operand's address register or implicitly.
bool reads_storage(const Op& op, const std::string& name);
bool writes_storage(const Op& op, const std::string& name);

// True when the value held in `name` just before ops[from] may be read by some
// path of the program starting at `from` before it is written again. Paths
// follow fall-through and `jumps_to`; reaching the end of the program means the
// value is dead.
bool live_at(const std::vector<Op>& ops, size_t from, const std::string& name);

}  // namespace tlmcraft::isa::dataflow
