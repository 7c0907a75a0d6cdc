#include "traces/gtkwave_files.h"

#include <filesystem>

#include "traces/stream_buffer.h"

namespace tlmcraft::traces {

namespace {

// GTKWave trace flags (its analyzer.h TR_* bits), written in hex in save files.
constexpr unsigned kDec = 0x4, kBin = 0x8, kRightJustify = 0x20, kFileTranslated = 0x2000;
constexpr unsigned kComment = 0x200;  // TR_BLANK: a label row

std::string one_line(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (c == '\n' || c == '\r') c = ' ';
  return out;
}

std::string flags(unsigned f) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[f & 0xF]);
    f >>= 4;
  } while (f);
  return "@" + s;
}

std::string displayed_name(const VcdSignal& s) {
  // GTKWave names a multi-bit VCD variable "name[msb:lsb]".
  return s.width > 1 ? s.path + "[" + std::to_string(s.width - 1) + ":0]" : s.path;
}

std::string track_of(const std::string& path) { return path.substr(0, path.rfind('.')); }

}  // namespace

std::string gtkwave_filter_path(const std::string& vcd_path) { return vcd_path + ".names.txt"; }

std::string gtkwave_save_path(const std::string& vcd_path) {
  const std::string ext = ".vcd";
  if (vcd_path.size() > ext.size() && vcd_path.compare(vcd_path.size() - ext.size(), ext.size(), ext) == 0)
    return vcd_path.substr(0, vcd_path.size() - ext.size()) + ".gtkw";
  return vcd_path + ".gtkw";
}

void write_gtkwave_filter(const VcdLayout& layout, std::ostream& out) {
  out << "0 idle\n";
  for (size_t i = 0; i < layout.slice_names.size(); ++i)
    out << i + 1 << ' ' << (layout.slice_names[i].empty() ? "?" : one_line(layout.slice_names[i])) << '\n';
}

void write_gtkwave_save(const VcdLayout& layout, const std::string& vcd_path, const std::string& filter_path,
                        std::ostream& out) {
  out << "[*] GTKWave save file written by tlmcraft: slice values show as instruction names\n";
  out << "[dumpfile] \"" << vcd_path << "\"\n";
  out << "[timestart] 0\n";
  std::string last_track;
  for (const VcdSignal& s : layout.signals) {
    const std::string track = track_of(s.path);
    if (track != last_track) {
      out << flags(kComment) << "\n-" << track << '\n';
      last_track = track;
    }
    switch (s.kind) {
      case VcdSignal::Kind::Busy:
      case VcdSignal::Kind::Event: out << flags(kBin | kRightJustify) << '\n'; break;
      case VcdSignal::Kind::Slice:
        out << flags(kDec | kRightJustify | kFileTranslated) << '\n';
        // "^1 file": file filter 1 for this trace (GTKWave's own save files repeat the path).
        out << "^1 " << filter_path << '\n';
        break;
      case VcdSignal::Kind::Value: out << flags(kDec | kRightJustify) << '\n'; break;
    }
    out << displayed_name(s) << '\n';
  }
}

void write_gtkwave_files(const VcdLayout& layout, const std::string& vcd_path) {
  const std::string filter = gtkwave_filter_path(vcd_path);
  const std::string abs_vcd = std::filesystem::absolute(vcd_path).string();
  const std::string abs_filter = std::filesystem::absolute(filter).string();
  write_trace_file(filter, "GTKWave filter", [&](std::ostream& os) { write_gtkwave_filter(layout, os); });
  write_trace_file(gtkwave_save_path(vcd_path), "GTKWave save",
                   [&](std::ostream& os) { write_gtkwave_save(layout, abs_vcd, abs_filter, os); });
}

}  // namespace tlmcraft::traces
