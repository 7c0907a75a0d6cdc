// An output stream that gzip-compresses (zlib, RFC 1952) into a file, so a trace
// written as "run.json.gz" is a standard gzip file (gunzip, zcat, and the Perfetto UI
// and chrome://tracing open it directly).
#pragma once
#include <fstream>
#include <memory>
#include <ostream>
#include <string>

namespace tlmcraft::traces {

class GzipFileStream : public std::ostream {
 public:
  // Throws std::runtime_error naming the path when it cannot be opened.
  explicit GzipFileStream(const std::string& path);
  ~GzipFileStream() override;
  // Finishes the gzip stream; throws std::runtime_error naming the path on a write error.
  void close();

 private:
  class Buffer;
  std::unique_ptr<Buffer> buf_;
  std::string path_;
};

// True when the path ends in ".gz".
bool wants_gzip(const std::string& path);

}  // namespace tlmcraft::traces
