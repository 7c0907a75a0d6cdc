#include "fuzz/fuzz_input.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace tlmcraft::fuzz {

MemoryFile::MemoryFile() {
  fd_ = ::memfd_create("tlmcraft-fuzz-input", 0);
  if (fd_ < 0) {
    std::perror("memfd_create");
    std::abort();  // the harness cannot run at all: not a finding
  }
  path_ = "/proc/self/fd/" + std::to_string(fd_);
}

MemoryFile::~MemoryFile() {
  if (fd_ >= 0) ::close(fd_);
}

const std::string& MemoryFile::write(const uint8_t* data, size_t size) {
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, data, size, 0) != ssize_t(size)) {
    std::perror("memfd write");
    std::abort();
  }
  return path_;
}

}  // namespace tlmcraft::fuzz
