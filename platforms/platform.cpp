#include "platforms/platform.h"

namespace tlmcraft {

const char* to_string(StopReason r) {
  switch (r) {
    case StopReason::Halted: return "halted";
    case StopReason::InstructionLimit: return "instruction_limit";
    case StopReason::CycleLimit: return "cycle_limit";
    case StopReason::WallTimeout: return "wall_timeout";
    case StopReason::Fault: return "fault";
  }
  return "unknown";
}

nlohmann::json RunResult::to_json() const {
  nlohmann::json j;
  j["stop"] = to_string(stop);
  j["message"] = message;
  j["cycles"] = cycles;
  j["instructions"] = instructions;
  j["instructions_by_class"] = instructions_by_class;
  auto& u = j["units"] = nlohmann::json::array();
  for (const auto& s : units) {
    double util = cycles ? double(s.busy_cycles) / double(cycles) : 0.0;
    u.push_back({{"name", s.name}, {"instructions", s.instructions}, {"busy_cycles", s.busy_cycles},
                 {"stall_cycles", s.stall_cycles}, {"utilisation", util}});
  }
  j["macs_by_format"] = nlohmann::json(macs_by_format);  // an object, empty when not counted
  j["actions"] = nlohmann::json(actions);                // an object, empty when not counted
  auto& l = j["lines"] = nlohmann::json::array();
  for (const auto& s : lines)
    l.push_back({{"line", s.line}, {"executions", s.executions}, {"cycles", s.cycles}});
  j["memory"] = memory.is_null() ? nlohmann::json::object() : memory;
  if (last_transfer_cycle) j["last_transfer_cycle"] = *last_transfer_cycle;
  if (!added_instructions.empty()) {
    auto& a = j["added_instructions"] = nlohmann::json::object();
    for (const auto& [mnemonic, use] : added_instructions)
      a[mnemonic] = {{"static", use.static_count}, {"executions", use.executions}};
  }
  j["host_seconds"] = host_seconds;
  return j;
}

}  // namespace tlmcraft
