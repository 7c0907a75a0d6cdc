// An append-only vector stored in fixed-size blocks. Recording millions of trace events
// into a std::vector would copy everything at each doubling and briefly hold twice the
// memory; blocks never move, so growth costs one allocation per block.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

namespace tlmcraft::traces {

template <typename T, size_t kBlockBits = 15>
class ChunkedVector {
 public:
  static constexpr size_t kBlock = size_t{1} << kBlockBits;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](size_t i) const { return blocks_[i >> kBlockBits][i & (kBlock - 1)]; }
  T& operator[](size_t i) { return blocks_[i >> kBlockBits][i & (kBlock - 1)]; }

  void push_back(const T& value) {
    if ((size_ >> kBlockBits) == blocks_.size()) add_block();
    (*this)[size_++] = value;
  }

  // Makes room for n (<= kBlock) elements in one block, so they can be read through a
  // pointer to the first; skips the rest of the current block if they do not fit there.
  // Returns the index of the first element.
  size_t append_contiguous(size_t n) {
    if (n == 0) return size_;
    size_t offset = size_ & (kBlock - 1);
    if (offset != 0 && offset + n > kBlock) size_ += kBlock - offset;
    if ((size_ >> kBlockBits) == blocks_.size()) add_block();
    size_t first = size_;
    size_ += n;
    return first;
  }

 private:
  void add_block() { blocks_.emplace_back(new T[kBlock]); }

  std::vector<std::unique_ptr<T[]>> blocks_;
  size_t size_ = 0;
};

}  // namespace tlmcraft::traces
