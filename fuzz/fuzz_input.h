// Helpers the libFuzzer harnesses share: the input as text, and as a file that config
// loaders (which only take paths) can open without touching the disk.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace tlmcraft::fuzz {

inline std::string as_text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// An in-memory file (memfd) holding some bytes; path() names it for ifstream and
// yaml-cpp. One per process, rewritten on every input.
class MemoryFile {
 public:
  MemoryFile();
  ~MemoryFile();
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  // Replaces the file's contents; returns its path ("/proc/self/fd/N").
  const std::string& write(const uint8_t* data, size_t size);

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace tlmcraft::fuzz
