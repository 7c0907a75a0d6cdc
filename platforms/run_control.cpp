#include "platforms/run_control.h"

#include <algorithm>
#include <cstdio>

#include "common/env_limits.h"

namespace tlmcraft {

std::string limit_message(StopReason why, const RunLimits& limits, const std::string& where) {
  std::string what;
  switch (why) {
    case StopReason::InstructionLimit: what = "max instructions limit (" + std::to_string(limits.max_instructions) + ")"; break;
    case StopReason::CycleLimit: what = "max cycles limit (" + std::to_string(limits.max_cycles) + ")"; break;
    case StopReason::WallTimeout: {
      char b[32];
      std::snprintf(b, sizeof b, "%g", limits.wall_seconds);
      what = std::string("wall-clock limit (") + b + " s)";
      break;
    }
    default: what = to_string(why); break;
  }
  return "exceeded " + what + " at " + where;
}

namespace {

// TLMCRAFT_WALL_CLOCK_SCALE=N multiplies every run's wall-clock limit, for hosts N times
// slower than the limits assume (sanitizer builds, valgrind). Counts never depend on it.
RunLimits with_wall_clock_scale(RunLimits limits) {
  limits.wall_seconds *= double(env_positive_number("TLMCRAFT_WALL_CLOCK_SCALE", 1));
  return limits;
}

}  // namespace

RunLimiter::RunLimiter(const RunLimits& limits)
    : limits_(with_wall_clock_scale(limits)), start_(std::chrono::steady_clock::now()) {}

double RunLimiter::host_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void RunLimiter::stop(RunResult& r, StopReason why, const std::string& where) const {
  r.stop = why;
  r.message = limit_message(why, limits_, where);
}

QuantumSync::QuantumSync(double clock_ns, uint64_t quantum)
    : clock_(sc_core::sc_time(clock_ns, sc_core::SC_NS)), base_(clock_.now_cycles()), quantum_(quantum) {}

std::vector<LineStats> LineProfile::sorted() const {
  std::vector<LineStats> out;
  out.reserve(lines_.size());
  for (const auto& [_, l] : lines_) out.push_back(l);
  std::stable_sort(out.begin(), out.end(), [](const LineStats& a, const LineStats& b) { return a.cycles > b.cycles; });
  return out;
}

std::string source_line_text(const std::vector<std::string>& lines, uint32_t line) {
  if (line == 0 || line > lines.size()) return "";
  std::string s = lines[line - 1];
  const size_t first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  s.erase(0, first);
  s.erase(s.find_last_not_of(" \t\r") + 1);
  return s;
}

}  // namespace tlmcraft
