#include "platforms/plena/hbm_transfer.h"

#include <cstring>
#include <sstream>

#include "isa/formats/mxfp8.h"

namespace tlmcraft::plena {
namespace sem = tlmcraft::isa::plena;
namespace fmt = tlmcraft::isa::formats;

namespace {

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

}  // namespace

BuiltTransfer build_transfer(const sem::HbmTransfer& t, const PlenaConfig& cfg) {
  BuiltTransfer b;
  const bool to_sram = t.direction == sem::HbmTransfer::Direction::HbmToSram;
  if (t.precision >= cfg.hbm_formats.size()) {
    b.error = "precision " + std::to_string(t.precision) + " has no HBM format (memory.hbm_formats lists " +
              std::to_string(cfg.hbm_formats.size()) + ")";
    return b;
  }
  const HbmFormat format = cfg.hbm_formats[t.precision];
  const uint64_t n = t.total_elements();
  const uint64_t re = t.row_elements;
  const uint64_t span = (t.rows - 1) * t.row_stride + re;  // elements from the first row's start to the last row's end

  // On-chip side: rows of bf16 at the SRAM's pitch.
  const uint64_t sram_base = t.sram == sem::Memory::MSRAM ? kMsramBase : kVramBase;
  const models::DmaSegment sram = models::DmaSegment::strided(
      sram_base + uint64_t(t.sram_addr) * 2, re * 2, t.rows, uint64_t(t.sram_row_pitch) * 2);

  std::vector<models::DmaSegment> hbm;
  if (format == HbmFormat::BF16) {
    const uint64_t first = t.hbm_base + t.hbm_offset * 2;
    hbm.push_back(models::DmaSegment::strided(first, re * 2, t.rows, t.row_stride * 2));
    b.hbm_ranges.push_back({kHbm, first, first + span * 2, !to_sram});
  } else {
    if (t.hbm_offset % 8 || (t.rows > 1 && t.row_stride % 8) || re % 8) {
      b.error = "MXFP8 transfers need element offsets and strides that are multiples of 8 (one scale per 8 elements); "
                "offset " + std::to_string(t.hbm_offset) + ", stride " + std::to_string(t.row_stride);
      return b;
    }
    const uint64_t data = t.hbm_base + t.hbm_offset;
    const uint64_t scales = t.mx_scale_address(t.hbm_offset);
    hbm.push_back(models::DmaSegment::strided(data, re, t.rows, t.row_stride));
    hbm.push_back(models::DmaSegment::strided(scales, re / 8, t.rows, t.row_stride / 8));
    b.hbm_ranges.push_back({kHbm, data, data + span, !to_sram});
    b.hbm_ranges.push_back({kHbm, scales, scales + span / 8, !to_sram});
  }
  for (const auto& r : b.hbm_ranges) {
    if (r.hi > cfg.hbm_size_bytes) {
      b.error = "HBM access [" + hex(r.lo) + ", " + hex(r.hi) + ") is outside HBM (memory.hbm.size_bytes = " +
                hex(cfg.hbm_size_bytes) + ")";
      return b;
    }
  }

  auto& d = b.descriptor;
  if (to_sram) {
    d.src = hbm;
    d.dst = {sram};
    if (format == HbmFormat::MXFP8)
      d.transform = [n](const std::vector<uint8_t>& in, std::vector<uint8_t>& out) {
        out.resize(n * 2);
        std::vector<uint16_t> bf(n);
        fmt::dequantize_mx(in.data(), in.data() + n, n, bf.data());
        std::memcpy(out.data(), bf.data(), n * 2);
      };
  } else {
    d.src = {sram};
    d.dst = hbm;
    if (format == HbmFormat::MXFP8)
      d.transform = [n](const std::vector<uint8_t>& in, std::vector<uint8_t>& out) {
        out.resize(n + n / 8);
        std::vector<uint16_t> bf(n);
        std::memcpy(bf.data(), in.data(), n * 2);
        fmt::quantize_mx_bf16(bf.data(), n, out.data(), out.data() + n);
      };
  }
  return b;
}

}  // namespace tlmcraft::plena
