// Shared helpers for the models tests: a fresh SystemC context per test and a minimal
// TLM initiator that sends single transactions.
#pragma once
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/sim_context.h"

namespace tlmcraft::models::testing {

// Every test elaborates its own modules in a brand-new simulation context.
class SimTest : public ::testing::Test {
 protected:
  void SetUp() override { fresh_sim_context(); }
  // Finishes elaboration so that socket bindings resolve; simulation time stays 0.
  static void elaborate() {
    // Nothing is scheduled yet; the kernel's "no activity" warning would only be noise.
    sc_core::sc_report_handler::set_actions(sc_core::SC_ID_NO_SC_START_ACTIVITY_, sc_core::SC_DO_NOTHING);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
};

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket;
  explicit Initiator(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") {}

  // Sends one transaction; returns the response status and updates `delay`.
  tlm::tlm_response_status send(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len,
                                sc_core::sc_time& delay) {
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(data);
    t.set_data_length(len);
    t.set_streaming_width(len);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    socket->b_transport(t, delay);
    return t.get_response_status();
  }
  unsigned dbg(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(data);
    t.set_data_length(len);
    return socket->transport_dbg(t);
  }
};

inline uint64_t ns(const sc_core::sc_time& t) { return t.value() / sc_core::sc_time(1, sc_core::SC_NS).value(); }

}  // namespace tlmcraft::models::testing
