// Where tlmcraft finds its run-time data: ISA descriptions, platform configs, task specs,
// baseline templates, the Coral runtime, model presets and the docs the agent greps. All of
// it lives under one folder whose layout mirrors the source tree (isa/, platforms/, tasks/,
// models/, docs/), found in this order:
//   1. $TLMCRAFT_DATA_DIR when set;
//   2. share/tlmcraft in the running executable's folder or the nearest folder above it:
//      <prefix>/share/tlmcraft for an installed <prefix>/bin/tlmcraft, and <build>/share/tlmcraft
//      (staged at configure time, a link to the source tree) for every binary of a build tree.
// No path is compiled in, so an installed tree can be moved (docs/install.md).
#pragma once
#include <stdexcept>
#include <string>

namespace tlmcraft::data {

// The environment variable that names the data folder explicitly.
inline constexpr const char* kDataDirVariable = "TLMCRAFT_DATA_DIR";

// No data folder could be found; the message names where it looked and what to set.
struct DataDirError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The data folder (absolute, symbolic links resolved). Throws DataDirError.
std::string data_dir();

// `relative` (e.g. "isa/plena/plena.yaml") inside the data folder. Throws DataDirError.
std::string data_path(const std::string& relative);

// The folder named by the environment variable `override_variable` when it is set and not
// empty (a user's own task specs or templates), else `relative` inside the data folder.
std::string data_path_or_env(const char* override_variable, const std::string& relative);

// The lookup itself, for tests: `env_value` is $TLMCRAFT_DATA_DIR (nullptr when unset) and
// `executable` the running program's path ("" when unknown).
std::string find_data_dir(const char* env_value, const std::string& executable);

}  // namespace tlmcraft::data
