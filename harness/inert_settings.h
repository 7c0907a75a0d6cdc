// Warnings for platform-config overrides (--set, --grid) that cannot change any result in
// the configuration they are applied to. A platform lists them as data in its config:
//   inert_settings: [{when: {timing.mode: serial}, keys: [timing.dma, ...]}, ...]
// (PLENA's serial timing ignores the DMA queue model, docs/suite.md). Shared code: it names
// no platform and knows no key but `inert_settings`.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlmcraft::harness {

// One warning per override KEY=VALUE (naming KEY, so a --grid over values warns once) whose KEY is, or lies under, a listed key of a rule
// whose `when` holds in `config` (the effective config, overrides applied), e.g.
// "--set timing.dma.prefetch.bytes_per_cycle has no effect: timing.dma is not used
// while timing.mode is serial".
std::vector<std::string> inert_setting_warnings(const nlohmann::json& config, const std::vector<std::string>& overrides);

}  // namespace tlmcraft::harness
