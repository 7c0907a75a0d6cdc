#include "traces/gzip_stream.h"

#include <stdexcept>
#include <streambuf>
#include <vector>

#include <zlib.h>

namespace tlmcraft::traces {

class GzipFileStream::Buffer : public std::streambuf {
 public:
  explicit Buffer(const std::string& path) : file_(path, std::ios::binary | std::ios::trunc), in_(1 << 16), out_(1 << 16) {
    if (!file_) return;
    // windowBits 15 + 16: a gzip header and trailer instead of a raw zlib stream.
    ok_ = deflateInit2(&z_, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    setp(in_.data(), in_.data() + in_.size());
  }
  ~Buffer() override {
    if (ok_) deflateEnd(&z_);
  }
  bool opened() const { return file_.is_open() && ok_; }
  bool finish() {
    if (finished_) return good_;
    finished_ = true;
    good_ = compress(Z_FINISH) && static_cast<bool>(file_.flush());
    return good_;
  }

 protected:
  int_type overflow(int_type ch) override {
    if (!compress(Z_NO_FLUSH)) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return 0; }  // data is compressed in blocks; finish() ends the stream

 private:
  // Compresses what is buffered; with Z_FINISH, also ends the gzip stream.
  bool compress(int flush) {
    z_.next_in = reinterpret_cast<Bytef*>(pbase());
    z_.avail_in = static_cast<uInt>(pptr() - pbase());
    int rc;
    do {
      z_.next_out = reinterpret_cast<Bytef*>(out_.data());
      z_.avail_out = static_cast<uInt>(out_.size());
      rc = deflate(&z_, flush);
      if (rc == Z_STREAM_ERROR) return false;
      file_.write(out_.data(), static_cast<std::streamsize>(out_.size() - z_.avail_out));
      if (!file_) return false;
    } while (z_.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    setp(in_.data(), in_.data() + in_.size());
    return true;
  }

  std::ofstream file_;
  std::vector<char> in_, out_;
  z_stream z_{};
  bool ok_ = false, finished_ = false, good_ = false;
};

GzipFileStream::GzipFileStream(const std::string& path)
    : std::ostream(nullptr), buf_(std::make_unique<Buffer>(path)), path_(path) {
  if (!buf_->opened()) throw std::runtime_error("cannot open gzip file '" + path + "' for writing");
  rdbuf(buf_.get());
}

GzipFileStream::~GzipFileStream() {
  if (buf_) buf_->finish();
}

void GzipFileStream::close() {
  if (!buf_->finish() || !*this) throw std::runtime_error("error while writing gzip file '" + path_ + "'");
}

bool wants_gzip(const std::string& path) {
  return path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
}

}  // namespace tlmcraft::traces
