// Carries an access's absolute issue time and, on return, its absolute completion time.
//
// Loosely-timed TLM expresses timing as sc_time_stamp() + delay, which cannot describe an
// access issued at a time already behind the simulation kernel (a controller that runs
// ahead with a local offset, or a caller outside any process). tlmcraft initiators attach
// this extension so targets time the access from the absolute issue time; results then do
// not depend on when b_transport is called. Targets without it use sc_time_stamp()+delay.
#pragma once
#include <systemc>
#include <tlm>

namespace tlmcraft::models {

struct TimingExtension : tlm::tlm_extension<TimingExtension> {
  sc_core::sc_time issue;  // absolute time the access reaches the current hop
  sc_core::sc_time done;   // absolute time the access completes (set by the target)
  bool done_set = false;

  tlm::tlm_extension_base* clone() const override { return new TimingExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const TimingExtension&>(other);
  }
};

// Absolute arrival time of a transaction at a target.
inline sc_core::sc_time arrival_time(tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay) {
  if (auto* ext = trans.get_extension<TimingExtension>()) return ext->issue;
  return sc_core::sc_time_stamp() + delay;
}

// Records the absolute completion time and sets the LT delay annotation to match
// (clamped to zero if the completion is already in the kernel's past).
inline void annotate_completion(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay,
                                const sc_core::sc_time& done) {
  if (auto* ext = trans.get_extension<TimingExtension>()) {
    ext->done = done;
    ext->done_set = true;
  }
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  delay = done > now ? done - now : sc_core::SC_ZERO_TIME;
}

}  // namespace tlmcraft::models
