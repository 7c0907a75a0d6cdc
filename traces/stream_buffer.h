// A string buffer flushed to an ostream in large blocks: trace writers emit millions of
// small pieces, and per-piece ostream calls would dominate their run time.
#pragma once
#include <charconv>
#include <cstdint>
#include <fstream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tlmcraft::traces {

class StreamBuffer {
 public:
  explicit StreamBuffer(std::ostream& out) : out_(out) { buf_.reserve(kBlock + 256); }
  ~StreamBuffer() { flush(); }
  StreamBuffer& operator<<(std::string_view s) {
    buf_.append(s.data(), s.size());
    if (buf_.size() >= kBlock) flush();
    return *this;
  }
  StreamBuffer& operator<<(char c) {
    buf_.push_back(c);
    return *this;
  }
  StreamBuffer& operator<<(uint64_t v) { return number(v); }
  StreamBuffer& operator<<(int64_t v) { return number(v); }
  StreamBuffer& operator<<(uint32_t v) { return number(v); }
  StreamBuffer& operator<<(int v) { return number(v); }
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

 private:
  template <typename T>
  StreamBuffer& number(T v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    return *this << std::string_view(tmp, static_cast<size_t>(r.ptr - tmp));
  }
  static constexpr size_t kBlock = 1 << 16;
  std::ostream& out_;
  std::string buf_;
};

// Opens `path` for writing, writes through `write`, and reports failures with the path.
template <typename Write>
void write_trace_file(const std::string& path, const char* what, Write&& write) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw std::runtime_error(std::string("cannot open ") + what + " file '" + path + "' for writing");
  write(file);
  file.flush();
  if (!file) throw std::runtime_error(std::string("error while writing ") + what + " file '" + path + "'");
}

}  // namespace tlmcraft::traces
