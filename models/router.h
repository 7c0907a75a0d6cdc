// Address-mapped interconnect: forwards b_transport, transport_dbg and DMI requests from
// any number of initiators to the target owning the address, translating to the
// target's local address (and DMI ranges back), with an optional per-hop latency.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <yaml-cpp/yaml.h>

#include "models/sim_context.h"

namespace tlmcraft::models {

struct RouteEntry {
  std::string name;
  uint64_t base = 0;
  uint64_t size = 0;
  uint32_t target = 0;  // index of the router's initiator socket leading to the target
};

struct RouterConfig {
  std::string name = "router";
  std::vector<RouteEntry> map;
  uint64_t hop_latency = 0;  // cycles added on the request path and again on the response path
  sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);

  // Rejects empty or wrapping entries and overlapping entries (naming both).
  void validate() const;
  // Keys: name, hop_latency, clock_period_ps | clock_period_ns, map: a list of
  // {name, base, size, target}.
  static RouterConfig from_yaml(const YAML::Node& node, const std::string& where);
  nlohmann::json to_json() const;
  uint32_t target_count() const;  // highest target index + 1
};

class Router : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Router> target_socket;  // bind initiators here

  Router(sc_core::sc_module_name name, const RouterConfig& config);

  // The socket for target index i (bind it to the target's socket).
  tlm_utils::simple_initiator_socket_tagged<Router>& initiator(uint32_t i);
  uint32_t targets() const { return static_cast<uint32_t>(initiators_.size()); }
  const RouterConfig& config() const { return cfg_; }
  // The map entry containing addr, or nullptr.
  const RouteEntry* lookup(uint64_t addr) const;

  nlohmann::json stats() const;
  void reset_stats();

 private:
  void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(int target, sc_dt::uint64 start, sc_dt::uint64 end);
  // The entry containing [addr, addr+len), or nullptr when unmapped or straddling.
  const RouteEntry* route(uint64_t addr, uint64_t len) const;

  RouterConfig cfg_;
  Clock clock_;
  std::vector<RouteEntry> sorted_;  // by base
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket_tagged<Router>>> initiators_;
  std::vector<uint64_t> forwarded_;  // transactions per map entry (index into cfg_.map)
  uint64_t unmapped_ = 0;
};

}  // namespace tlmcraft::models
