// Out-of-tree platforms as plugins: shared objects the `tlmcraft` executable loads at
// start-up (dlopen) from
//   1. every entry of $TLMCRAFT_PLUGIN_PATH (colon-separated; a .so file, or a folder whose
//      *.so files load in name order), then
//   2. <prefix>/lib/tlmcraft/plugins/*.so next to the running executable (the installed
//      plugin folder; the CMake package gives it as TLMCRAFT_PLUGIN_DIR).
//
// The plugin entry point. A plugin defines exactly this one function:
//
//   extern "C" void tlmcraft_register_plugin(const tlmcraft::PluginContext* context);
//
// (declare it with TLMCRAFT_PLUGIN_ENTRY below). It registers what the plugin brings, by
// the same calls the in-tree packs make: register_platform() (platforms/registry.h; set
// PlatformInfo::data_dir to the plugin's data folder to add task sections, see
// tasks/spec.h apply_task_overlay), tasks::register_layout(), tasks::register_baselines(),
// tasks::register_numerics(), isa::register_isa_tools(), and the search agent's
// transformations of its kernels, agent::search::register_candidate_generator()
// (agent/search/search_transformations.h). It throws (any std::exception) to
// refuse loading; the error names the plugin. A plugin links against the tlmcraft
// executable (CMake: target_link_libraries(myplugin PRIVATE tlmcraft::plugin_api)), never
// against the tlmcraft static libraries, so it uses the registries inside the executable
// (one copy). It must be built against the same tlmcraft version (the API is C++ and not
// stable across minor versions): context->api_version guards it.
// docs/platform-sdk.md, "Plugins".
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace tlmcraft {

// Bumped whenever a registration structure changes layout (2: the search agent's
// SearchContext and CandidateGeneratorRegistration).
inline constexpr int kPluginApiVersion = 2;

struct PluginContext {
  int api_version;          // kPluginApiVersion of the loading executable
  const char* plugin_path;  // the .so being loaded (absolute)
  const char* plugin_dir;   // its folder: where a plugin usually keeps its data
};

// A plugin that could not be loaded: what() names the file and the cause (dlerror(), the
// missing entry point or the registration's exception). The CLI exits with code 2.
struct PluginError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The plugin files to load, in order: $TLMCRAFT_PLUGIN_PATH's entries expanded, then the
// installed plugin folder of `executable` (its ../lib/tlmcraft/plugins; "" skips it).
// Throws PluginError for a path entry that does not exist.
std::vector<std::string> plugin_files(const char* plugin_path_env, const std::string& executable);

// Loads one plugin and runs its entry point. Throws PluginError.
void load_plugin(const std::string& path);

// The built-in registrations, then every plugin of plugin_files(getenv(...), the running
// executable). Returns the files loaded. Throws PluginError at the first failure.
std::vector<std::string> load_plugins();

}  // namespace tlmcraft

#define TLMCRAFT_PLUGIN_ENTRY extern "C" __attribute__((visibility("default"))) void tlmcraft_register_plugin
