// Bounds on untrusted kernel input shared by every platform and command: how large a
// kernel may be, how it is read (only regular files), and how many diagnostics one
// kernel may produce. Defaults can be raised through the environment (names below);
// docs/reliability.md lists every limit.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "isa/program.h"

namespace tlmcraft::isa {

constexpr uint64_t kDefaultMaxKernelBytes = 4u << 20;  // TLMCRAFT_MAX_KERNEL_BYTES (generated AIE-ML kernels reach 2.1 MB)
constexpr size_t kDefaultMaxDiagnostics = 100;         // TLMCRAFT_MAX_DIAGNOSTICS

uint64_t max_kernel_bytes();
size_t max_diagnostics();

// The kernel at `path`: it must be a regular file (not a directory, FIFO or device) of
// at most max_kernel_bytes(). Never blocks on a FIFO. Throws std::runtime_error
// "<path>: <cause>" naming the limit and how to raise it.
std::string read_kernel_file(const std::string& path);

// Throws std::runtime_error if kernel text (from a tool call or the API) is larger than
// max_kernel_bytes(). `what` names it in the message ("kernel source").
void check_kernel_size(size_t bytes, const std::string& what);

// Keeps the first `max` diagnostics and, if there were more, appends one note saying how
// many were dropped ("... and 2900 more diagnostics"). `known_complete` false: the
// producer stopped early, so the count of the rest is unknown.
void cap_diagnostics(std::vector<Diagnostic>& diags, size_t max, bool known_complete = true);

// True once a producer should stop adding diagnostics (it then reports what it has).
inline bool diagnostics_full(const std::vector<Diagnostic>& diags) { return diags.size() >= max_diagnostics(); }

}  // namespace tlmcraft::isa
