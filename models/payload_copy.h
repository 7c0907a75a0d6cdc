// Byte copies between a TLM payload and model storage that honour byte enables.
#pragma once
#include <cstdint>
#include <cstring>

#include <tlm>

namespace tlmcraft::models {

// Copies n bytes from src to dst, skipping bytes whose byte-enable is off. `be_offset` is
// the position of src/dst[0] within the transaction (byte enables repeat every be_len).
inline void copy_enabled(uint8_t* dst, const uint8_t* src, uint64_t n, const unsigned char* be,
                         unsigned be_len, uint64_t be_offset) {
  if (!be || be_len == 0) {
    std::memcpy(dst, src, n);
    return;
  }
  for (uint64_t i = 0; i < n; ++i)
    if (be[(be_offset + i) % be_len] == TLM_BYTE_ENABLED) dst[i] = src[i];
}

// Checks the payload features our memories do not support. Returns OK or the error to set.
inline tlm::tlm_response_status check_payload_shape(const tlm::tlm_generic_payload& t) {
  if (t.get_streaming_width() != 0 && t.get_streaming_width() < t.get_data_length())
    return tlm::TLM_BURST_ERROR_RESPONSE;  // streaming (FIFO-style) bursts are not modelled
  if (t.get_byte_enable_ptr() && t.get_byte_enable_length() == 0) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  return tlm::TLM_OK_RESPONSE;
}

}  // namespace tlmcraft::models
