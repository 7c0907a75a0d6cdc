#include "models/sim_context.h"

#include <cstdlib>
#include <stdexcept>

namespace tlmcraft::models {

void fresh_sim_context() {
  // Respect an explicit user setting; otherwise hide the banner.
  ::setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext();
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
}

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
