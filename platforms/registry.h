// Creates platforms by name: the only place that knows every platform folder.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "platforms/platform.h"

namespace tlmcraft {

std::vector<std::string> platform_names();
// The ISA descriptions (isa/<name>/<name>.yaml, see isa_yaml_path) a platform's assembler
// reads; empty for Coral, whose RISC-V decoder is compiled in. For provenance hashes.
std::vector<std::string> platform_isa_names(const std::string& name);
// `config` is a config name (e.g. "default") or a YAML path; overrides are KEY=VALUE.
// Throws InputError for an unknown platform or a bad config.
std::unique_ptr<Platform> make_platform(const std::string& name, const std::string& config = "default",
                                        const std::vector<std::string>& overrides = {});

}  // namespace tlmcraft
