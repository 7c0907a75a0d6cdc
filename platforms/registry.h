// Creates platforms by name. Each platform registers itself (its pack's
// register_<p>_pack(), or a plugin's entry point, platforms/plugins.h); nothing here
// names a platform. docs/platform-sdk.md, "Registering a platform".
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/platform_catalog.h"
#include "platforms/platform.h"

namespace tlmcraft {

// Builds a platform from a config name ("default") or YAML path and KEY=VALUE overrides;
// throws InputError for a bad config.
using PlatformFactory =
    std::function<std::unique_ptr<Platform>(const std::string& config, const std::vector<std::string>& overrides)>;

struct PlatformRegistration {
  PlatformInfo info;     // name, ISA names, listing rank, data folder (common/platform_catalog.h)
  PlatformFactory make;  // required
};

// Registers a platform under info.name. Throws std::invalid_argument for an invalid or
// duplicate name or an empty factory.
void register_platform(PlatformRegistration registration);

// Every registered platform's name, in listing order (plugins included).
std::vector<std::string> platform_names();
// The first platform in listing order: what --platform defaults to.
std::string default_platform();
// The ISA descriptions (isa/<name>/<name>.yaml, see isa_yaml_path) a platform's assembler
// reads; empty for a platform whose decoder is compiled in. For provenance hashes.
std::vector<std::string> platform_isa_names(const std::string& name);
// Every ISA an overlay given to this platform may extend: isa_names and overlay_only_isas.
std::vector<std::string> platform_overlay_isas(const std::string& name);
// The folder those descriptions live in when not in the data folder (PlatformInfo::isa_dir;
// "" for the data folder's isa/ or an unknown platform): isa::isa_yaml_path's home_dir.
std::string platform_isa_dir(const std::string& name);
// `config` is a config name (e.g. "default") or a YAML path; overrides are KEY=VALUE.
// Throws InputError for an unknown platform or a bad config.
std::unique_ptr<Platform> make_platform(const std::string& name, const std::string& config = "default",
                                        const std::vector<std::string>& overrides = {});

}  // namespace tlmcraft
