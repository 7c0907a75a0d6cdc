#include "platforms/plugins.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <sstream>

#include "common/registration.h"

namespace tlmcraft {
namespace {

namespace fs = std::filesystem;

using EntryPoint = void (*)(const PluginContext*);
constexpr const char* kEntryPoint = "tlmcraft_register_plugin";
constexpr const char* kPluginPathVariable = "TLMCRAFT_PLUGIN_PATH";

// The *.so files of a folder, in name order.
std::vector<std::string> shared_objects_in(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".so" && !e.is_directory()) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

void add_unique(std::vector<std::string>& files, const std::string& file) {
  const std::string absolute = fs::absolute(file).lexically_normal().string();
  if (std::find(files.begin(), files.end(), absolute) == files.end()) files.push_back(absolute);
}

}  // namespace

std::vector<std::string> plugin_files(const char* plugin_path_env, const std::string& executable) {
  std::vector<std::string> files;
  if (plugin_path_env) {
    std::stringstream entries(plugin_path_env);
    std::string entry;
    while (std::getline(entries, entry, ':')) {
      if (entry.empty()) continue;
      std::error_code ec;
      if (fs::is_directory(entry, ec)) {
        for (const auto& f : shared_objects_in(entry)) add_unique(files, f);
      } else if (fs::is_regular_file(entry, ec)) {
        add_unique(files, entry);
      } else {
        throw PluginError(std::string(kPluginPathVariable) + ": '" + entry + "' is neither a file nor a folder");
      }
    }
  }
  if (!executable.empty()) {
    const fs::path installed = fs::path(executable).parent_path().parent_path() / "lib" / "tlmcraft" / "plugins";
    std::error_code ec;
    if (fs::is_directory(installed, ec))
      for (const auto& f : shared_objects_in(installed)) add_unique(files, f);
  }
  return files;
}

void load_plugin(const std::string& path) {
  // RTLD_GLOBAL: a plugin's symbols (typeinfo of its classes) are seen by later plugins too.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) throw PluginError("plugin " + path + ": cannot load: " + dlerror());
  dlerror();
  auto entry = reinterpret_cast<EntryPoint>(dlsym(handle, kEntryPoint));
  if (const char* err = dlerror(); err || !entry)
    throw PluginError("plugin " + path + ": no entry point " + kEntryPoint + " (" + (err ? err : "null") + ")");
  const std::string dir = fs::path(path).parent_path().string();
  const PluginContext context{kPluginApiVersion, path.c_str(), dir.c_str()};
  try {
    entry(&context);
  } catch (const std::exception& e) {
    throw PluginError("plugin " + path + ": registration failed: " + e.what());
  }
  // The handle stays open: the plugin's code runs until the process ends.
}

std::vector<std::string> load_plugins() {
  ensure_builtin_registrations();  // built-in names first: a plugin may not take one
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const std::vector<std::string> files = plugin_files(std::getenv(kPluginPathVariable), ec ? "" : self.string());
  for (const auto& f : files) load_plugin(f);
  return files;
}

}  // namespace tlmcraft
