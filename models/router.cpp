#include "models/router.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "models/timing_extension.h"
#include "models/yaml_config.h"

namespace tlmcraft::models {

namespace {
std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}
// "'name' [base, end)" with end computed without overflow for display.
std::string describe(const RouteEntry& e) {
  std::ostringstream os;
  os << "'" << e.name << "' [" << hex(e.base) << ", ";
  if (e.size > UINT64_MAX - e.base)
    os << "2^64";
  else
    os << hex(e.base + e.size);
  os << ")";
  return os.str();
}
}  // namespace

void RouterConfig::validate() const {
  const std::string p = "router '" + name + "': ";
  if (map.empty()) throw ConfigError(p + "address map is empty");
  if (clock_period == sc_core::SC_ZERO_TIME) throw ConfigError(p + "clock period must be greater than zero");
  std::set<std::string> names;
  for (const RouteEntry& e : map) {
    if (e.name.empty()) throw ConfigError(p + "map entry at " + hex(e.base) + " has no name");
    if (!names.insert(e.name).second) throw ConfigError(p + "map entry name '" + e.name + "' is used twice");
    if (e.size == 0) throw ConfigError(p + "map entry '" + e.name + "' has size 0");
    if (e.size - 1 > UINT64_MAX - e.base)
      throw ConfigError(p + "map entry '" + e.name + "' at " + hex(e.base) + " with size " + hex(e.size) +
                        " runs past the end of the 64-bit address space");
  }
  std::vector<const RouteEntry*> sorted;
  for (const RouteEntry& e : map) sorted.push_back(&e);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->base < b->base; });
  for (size_t i = 1; i < sorted.size(); ++i) {
    const RouteEntry& a = *sorted[i - 1];
    const RouteEntry& b = *sorted[i];
    if (b.base - a.base < a.size)
      throw ConfigError(p + "map entry " + describe(b) + " overlaps " + describe(a));
  }
}

uint32_t RouterConfig::target_count() const {
  uint32_t n = 0;
  for (const RouteEntry& e : map) n = std::max(n, e.target + 1);
  return n;
}

RouterConfig RouterConfig::from_yaml(const YAML::Node& node, const std::string& where) {
  YamlMap m(node, where);
  RouterConfig c;
  c.name = m.str("name", c.name);
  c.hop_latency = m.u64("hop_latency", c.hop_latency);
  c.clock_period = m.clock_period(c.clock_period);
  const YAML::Node list = m.node("map");
  if (!list.IsSequence()) throw ConfigError(m.at("map") + ": expected a list of {name, base, size, target}");
  for (const YAML::Node& item : list) {
    YamlMap em(item, where);
    RouteEntry e;
    e.name = em.str("name", "");
    e.base = em.u64("base");
    e.size = em.u64("size");
    const uint64_t t = em.u64("target");
    if (t > 1024) throw ConfigError(em.at("target") + ": target index " + std::to_string(t) + " is too large");
    e.target = static_cast<uint32_t>(t);
    em.finish();
    c.map.push_back(e);
  }
  return finish_config(m, c, where);
}

nlohmann::json RouterConfig::to_json() const {
  nlohmann::json entries = nlohmann::json::array();
  for (const RouteEntry& e : map)
    entries.push_back({{"name", e.name}, {"base", e.base}, {"size", e.size}, {"target", e.target}});
  return {{"name", name},
          {"hop_latency", hop_latency},
          {"map", entries},
          {"clock_period_ps", picoseconds(clock_period)}};
}

Router::Router(sc_core::sc_module_name name, const RouterConfig& config)
    : sc_core::sc_module(name), target_socket("target_socket"), cfg_(config), clock_(config.clock_period) {
  cfg_.validate();
  sorted_ = cfg_.map;
  std::sort(sorted_.begin(), sorted_.end(), [](const RouteEntry& a, const RouteEntry& b) { return a.base < b.base; });
  forwarded_.assign(sorted_.size(), 0);
  target_socket.register_b_transport(this, &Router::b_transport);
  target_socket.register_transport_dbg(this, &Router::transport_dbg);
  target_socket.register_get_direct_mem_ptr(this, &Router::get_direct_mem_ptr);
  for (uint32_t i = 0; i < cfg_.target_count(); ++i) {
    const std::string sname = "initiator_" + std::to_string(i);
    initiators_.emplace_back(new tlm_utils::simple_initiator_socket_tagged<Router>(sname.c_str()));
    initiators_.back()->register_invalidate_direct_mem_ptr(this, &Router::invalidate_direct_mem_ptr, static_cast<int>(i));
  }
}

tlm_utils::simple_initiator_socket_tagged<Router>& Router::initiator(uint32_t i) {
  if (i >= initiators_.size())
    throw ConfigError("router '" + cfg_.name + "': no initiator socket " + std::to_string(i) + " (the map uses " +
                      std::to_string(initiators_.size()) + " targets)");
  return *initiators_[i];
}

const RouteEntry* Router::lookup(uint64_t addr) const { return route(addr, 1); }

const RouteEntry* Router::route(uint64_t addr, uint64_t len) const {
  auto it = std::upper_bound(sorted_.begin(), sorted_.end(), addr,
                             [](uint64_t a, const RouteEntry& e) { return a < e.base; });
  if (it == sorted_.begin()) return nullptr;
  const RouteEntry& e = *(it - 1);
  const uint64_t off = addr - e.base;
  if (off >= e.size) return nullptr;
  if (len > 0 && len - 1 > e.size - 1 - off) return nullptr;  // straddles the end of the entry
  return &e;
}

void Router::b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t addr = trans.get_address();
  const RouteEntry* e = route(addr, trans.get_data_length());
  if (!e) {
    ++unmapped_;
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  ++forwarded_[e - sorted_.data()];
  const sc_core::sc_time hop = clock_.to_time(cfg_.hop_latency);
  TimingExtension* ext = trans.get_extension<TimingExtension>();
  if (ext) ext->issue += hop;
  delay += hop;
  trans.set_address(addr - e->base);
  (*initiators_[e->target])->b_transport(trans, delay);
  trans.set_address(addr);
  delay += hop;
  if (ext && ext->done_set) ext->done += hop;
}

unsigned int Router::transport_dbg(int, tlm::tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  const RouteEntry* e = route(addr, trans.get_data_length());
  if (!e) return 0;
  trans.set_address(addr - e->base);
  const unsigned int n = (*initiators_[e->target])->transport_dbg(trans);
  trans.set_address(addr);
  return n;
}

bool Router::get_direct_mem_ptr(int, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const uint64_t addr = trans.get_address();
  const RouteEntry* e = route(addr, 1);
  if (!e) {
    dmi.set_start_address(addr);
    dmi.set_end_address(addr);
    dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_NONE);
    return false;
  }
  trans.set_address(addr - e->base);
  const bool granted = (*initiators_[e->target])->get_direct_mem_ptr(trans, dmi);
  trans.set_address(addr);
  // Back-translate the local range, clipped to the part this entry maps.
  uint64_t lo = dmi.get_start_address(), hi = dmi.get_end_address();
  hi = std::min<uint64_t>(hi, e->size - 1);
  if (lo > hi) lo = hi = addr - e->base;
  if (granted && dmi.get_dmi_ptr()) {
    // The pointer addresses local `start`; moving start up moves the pointer with it.
    dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (lo - dmi.get_start_address()));
  }
  dmi.set_start_address(e->base + lo);
  dmi.set_end_address(e->base + hi);
  const sc_core::sc_time two_hops = clock_.to_time(2 * cfg_.hop_latency);
  dmi.set_read_latency(dmi.get_read_latency() + two_hops);
  dmi.set_write_latency(dmi.get_write_latency() + two_hops);
  return granted;
}

void Router::invalidate_direct_mem_ptr(int target, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (const RouteEntry& e : sorted_) {
    if (static_cast<int>(e.target) != target || start > e.size - 1) continue;
    const uint64_t lo = e.base + start;
    const uint64_t hi = e.base + std::min<uint64_t>(end, e.size - 1);
    for (int i = 0; i < static_cast<int>(target_socket.size()); ++i) target_socket[i]->invalidate_direct_mem_ptr(lo, hi);
  }
}

nlohmann::json Router::stats() const {
  nlohmann::json per = nlohmann::json::object();
  for (size_t i = 0; i < sorted_.size(); ++i) per[sorted_[i].name] = forwarded_[i];
  return {{"name", cfg_.name}, {"forwarded", per}, {"unmapped", unmapped_}};
}

void Router::reset_stats() {
  std::fill(forwarded_.begin(), forwarded_.end(), 0);
  unmapped_ = 0;
}

}  // namespace tlmcraft::models
