// Simulation-context and clock helpers shared by every model and platform.
#pragma once
#include <cstddef>
#include <cstdint>

#include <systemc>

namespace tlmcraft::models {

// Makes a brand-new sc_simcontext the current and default one, so a process can elaborate
// and simulate platforms repeatedly (SystemC forbids module creation after a context
// has started simulating). Also hides the SystemC banner unless the user asked for it.
// The contexts it replaced are deleted as soon as nothing lives in them any more (no
// top-level object or event: modules' destructors use their context), at this or a
// later call; destroy a platform's modules before making the next context.
void fresh_sim_context();

// Contexts fresh_sim_context replaced that still hold objects (not yet deleted).
size_t retired_sim_contexts();

// A clock period; all model times are whole cycles of it. Conversions are exact integer
// arithmetic on sc_time's raw value (default resolution 1 ps), never floating point.
class Clock {
 public:
  Clock() : period_(1, sc_core::SC_NS) {}
  explicit Clock(const sc_core::sc_time& period);
  const sc_core::sc_time& period() const { return period_; }
  sc_core::sc_time to_time(uint64_t cycles) const;
  // Time -> cycle; a time inside a cycle rounds up to the next edge (an access arriving
  // mid-cycle is handled at the next clock edge).
  uint64_t to_cycles_ceil(const sc_core::sc_time& t) const;
  uint64_t to_cycles_floor(const sc_core::sc_time& t) const;
  // The current simulation time in cycles (rounded up).
  uint64_t now_cycles() const { return to_cycles_ceil(sc_core::sc_time_stamp()); }
  // Delay from the current simulation time to `cycle`; zero if that cycle is already past.
  sc_core::sc_time delay_until(uint64_t cycle) const;

 private:
  sc_core::sc_time period_;
};

}  // namespace tlmcraft::models
