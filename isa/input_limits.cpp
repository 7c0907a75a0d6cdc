#include "isa/input_limits.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "common/env_limits.h"

namespace tlmcraft::isa {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string too_large(uint64_t bytes, const std::string& what) {
  return what + " is " + std::to_string(bytes) + " bytes, over the kernel size limit of " +
         std::to_string(max_kernel_bytes()) + " bytes (raise it with TLMCRAFT_MAX_KERNEL_BYTES)";
}

}  // namespace

uint64_t max_kernel_bytes() { return env_positive_number("TLMCRAFT_MAX_KERNEL_BYTES", kDefaultMaxKernelBytes); }
size_t max_diagnostics() { return static_cast<size_t>(env_positive_number("TLMCRAFT_MAX_DIAGNOSTICS", kDefaultMaxDiagnostics)); }

std::string read_kernel_file(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading must not wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": cannot open kernel file: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    throw std::runtime_error(path + ": cannot read kernel file: " + std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw std::runtime_error(path + ": a kernel must be a regular file, this is " + kind_of(st.st_mode));
  }
  const uint64_t limit = max_kernel_bytes();
  if (static_cast<uint64_t>(st.st_size) > limit) {
    ::close(fd);
    throw std::runtime_error(path + ": " + too_large(static_cast<uint64_t>(st.st_size), "the kernel file"));
  }
  std::string text;
  char buf[65536];
  for (;;) {  // at most limit + 1 bytes, in case the file grows while we read
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      throw std::runtime_error(path + ": cannot read kernel file: " + std::strerror(e));
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > limit) {
      ::close(fd);
      throw std::runtime_error(path + ": " + too_large(text.size(), "the kernel file"));
    }
  }
  ::close(fd);
  return text;
}

void check_kernel_size(size_t bytes, const std::string& what) {
  if (bytes > max_kernel_bytes()) throw std::runtime_error(too_large(bytes, what));
}

static bool is_cap_note(const Diagnostic& d) {
  return d.severity == Severity::Note && d.message.rfind("... and ", 0) == 0 && d.message.find("diagnostics") != std::string::npos;
}

void cap_diagnostics(std::vector<Diagnostic>& diags, size_t max, bool known_complete) {
  if (diags.size() <= max && known_complete) return;
  // Already capped by the producer (which stopped early): keep its note.
  if (diags.size() == max + 1 && is_cap_note(diags.back())) return;
  const size_t dropped = diags.size() > max ? diags.size() - max : 0;
  const std::string file = diags.empty() ? std::string() : diags.front().file;
  if (diags.size() > max) diags.resize(max);
  Diagnostic note;
  note.severity = Severity::Note;
  note.file = file;
  note.message = known_complete ? "... and " + std::to_string(dropped) + " more diagnostics"
                                : "... and more diagnostics (stopped after " + std::to_string(max) + ")";
  note.hint = "fix these first; TLMCRAFT_MAX_DIAGNOSTICS raises the limit of " + std::to_string(max);
  diags.push_back(note);
}

}  // namespace tlmcraft::isa
