#include "models/sim_context.h"

#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace tlmcraft::models {

namespace {

// Contexts this process made and has since replaced. Each is deleted as soon as nothing
// lives in it (its modules' destructors still use it), so a long-running process (the MCP
// server, bench) does not keep one module tree per evaluation.
std::vector<sc_core::sc_simcontext*>& retired_contexts() {
  // Never destroyed: contexts still in use at exit stay reachable (not reported as leaks).
  static auto* contexts = new std::vector<sc_core::sc_simcontext*>();
  return *contexts;
}

bool is_empty(const sc_core::sc_simcontext* c) {
  return sc_core::sc_get_top_level_objects(c).empty() && sc_core::sc_get_top_level_events(c).empty();
}

void delete_empty_retired_contexts() {
  auto& retired = retired_contexts();
  for (auto it = retired.begin(); it != retired.end();) {
    if (!is_empty(*it)) {
      ++it;
      continue;
    }
    delete *it;
    it = retired.erase(it);
  }
}

}  // namespace

void fresh_sim_context() {
  static std::mutex m;  // SystemC is single-threaded; this only keeps the bookkeeping sane
  std::lock_guard<std::mutex> lock(m);
  // Respect an explicit user setting; otherwise hide the banner.
  ::setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  // Only contexts this function made: SystemC's default one holds libsystemc's static
  // kernel events, whose destructors use it at exit.
  static sc_core::sc_simcontext* ours = nullptr;
  if (ours != nullptr && ours == sc_core::sc_curr_simcontext) retired_contexts().push_back(ours);
  ours = new sc_core::sc_simcontext();
  sc_core::sc_curr_simcontext = ours;
  sc_core::sc_default_global_context = ours;
  delete_empty_retired_contexts();
}

size_t retired_sim_contexts() { return retired_contexts().size(); }

Clock::Clock(const sc_core::sc_time& period) : period_(period) {
  if (period_ == sc_core::SC_ZERO_TIME)
    throw std::invalid_argument("clock period must be greater than zero");
}

sc_core::sc_time Clock::to_time(uint64_t cycles) const {
  // sc_time * double would go through floating point; build from the raw value instead.
  return sc_core::sc_time::from_value(period_.value() * cycles);
}

uint64_t Clock::to_cycles_ceil(const sc_core::sc_time& t) const {
  const uint64_t p = period_.value();
  return (t.value() + p - 1) / p;
}

uint64_t Clock::to_cycles_floor(const sc_core::sc_time& t) const {
  return t.value() / period_.value();
}

sc_core::sc_time Clock::delay_until(uint64_t cycle) const {
  const sc_core::sc_time at = to_time(cycle);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  return at > now ? at - now : sc_core::SC_ZERO_TIME;
}

}  // namespace tlmcraft::models

// libsystemc references sc_main; tlmcraft executables have their own main(), so this one
// is never called. The models target forces it into every link (--undefined=sc_main).
int sc_main(int, char**) { return 0; }
