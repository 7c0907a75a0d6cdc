#include "common/data_dir.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace tlmcraft::data {
namespace {

namespace fs = std::filesystem;

bool is_folder(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

std::string resolved(const fs::path& p) {
  std::error_code ec;
  const fs::path c = fs::canonical(p, ec);
  return (ec ? p : c).string();
}

// The running program, symbolic links resolved by the kernel ("" when /proc is missing).
std::string running_executable() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.string();
}

}  // namespace

std::string find_data_dir(const char* env_value, const std::string& executable) {
  if (env_value && *env_value) {
    if (!is_folder(env_value))
      throw DataDirError(std::string(kDataDirVariable) + "='" + env_value +
                         "': no such directory (it must name the folder holding isa/, platforms/ and tasks/)");
    return resolved(env_value);
  }
  if (!executable.empty()) {
    // The nearest ancestor wins, so a build tree inside an installed prefix uses its own data.
    for (fs::path dir = fs::path(executable).parent_path(); !dir.empty(); dir = dir.parent_path()) {
      if (is_folder(dir / "share" / "tlmcraft")) return resolved(dir / "share" / "tlmcraft");
      if (dir == dir.root_path()) break;
    }
  }
  const std::string where = executable.empty() ? std::string("(the running program's path is unknown)")
                                                : "in " + fs::path(executable).parent_path().string() +
                                                      " or any folder above it";
  throw DataDirError("cannot find the tlmcraft data folder (ISA descriptions, platform configs, tasks): no share/tlmcraft " +
                     where + "; set " + kDataDirVariable + " to <install prefix>/share/tlmcraft");
}

std::string data_dir() { return find_data_dir(std::getenv(kDataDirVariable), running_executable()); }

std::string data_path(const std::string& relative) { return data_dir() + "/" + relative; }

std::string data_path_or_env(const char* override_variable, const std::string& relative) {
  const char* value = std::getenv(override_variable);
  return value && *value ? std::string(value) : data_path(relative);
}

}  // namespace tlmcraft::data
