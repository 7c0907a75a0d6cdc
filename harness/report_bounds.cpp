#include "harness/report_bounds.h"

#include <cstdio>
#include <cstdlib>

namespace tlmcraft {
namespace {

using nlohmann::json;

// Length of the valid UTF-8 sequence starting at s[i], 0 if invalid (overlongs,
// surrogates and code points above U+10FFFF are invalid).
size_t utf8_length(const std::string& s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

bool needs_fixing(const std::string& s) {
  if (s.size() > kMaxReportString) return true;
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8_length(s, i);
    if (n == 0) return true;
    i += n;
  }
  return false;
}

std::string fixed(const std::string& s) {
  std::string out = escape_invalid_utf8(s);
  if (out.size() > kMaxReportString) {
    size_t cut = kMaxReportString;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
    const size_t rest = out.size() - cut;
    out = out.substr(0, cut) + "... (" + std::to_string(rest) + " more characters)";
  }
  return out;
}

void cut_arrays(json& v) {
  if (v.is_array()) {
    if (v.size() > kMaxReportArrayWhenCut) {
      const size_t dropped = v.size() - kMaxReportArrayWhenCut;
      v.erase(v.begin() + static_cast<long>(kMaxReportArrayWhenCut), v.end());
      v.push_back("... and " + std::to_string(dropped) + " more (report cut to its size limit)");
    }
  }
  if (v.is_structured())
    for (auto& e : v) cut_arrays(e);
}

}  // namespace

size_t max_report_bytes() {
  const char* v = std::getenv("TLMCRAFT_MAX_REPORT_BYTES");
  if (!v || !*v) return kDefaultMaxReportBytes;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  return end && *end == '\0' && n > 0 ? static_cast<size_t>(n) : kDefaultMaxReportBytes;
}

std::string escape_invalid_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t n = utf8_length(text, i);
    if (n == 0) {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned char>(text[i]));
      out += buf;
      ++i;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

void sanitize_strings(json& value) {
  if (value.is_string()) {
    const std::string& s = value.get_ref<const std::string&>();
    if (needs_fixing(s)) value = fixed(s);
  } else if (value.is_array()) {
    for (auto& e : value) sanitize_strings(e);
  } else if (value.is_object()) {
    // Keys with bad bytes are rebuilt; the rest are sanitised in place.
    bool bad_key = false;
    for (auto it = value.begin(); it != value.end(); ++it) bad_key = bad_key || needs_fixing(it.key());
    if (bad_key) {
      json rebuilt = json::object();
      for (auto it = value.begin(); it != value.end(); ++it) rebuilt[fixed(it.key())] = std::move(it.value());
      value = std::move(rebuilt);
    }
    for (auto& e : value) sanitize_strings(e);
  }
}

void bound_report(json& report, size_t max_bytes) {
  sanitize_strings(report);
  const size_t bytes = report.dump().size();
  if (bytes <= max_bytes) return;
  cut_arrays(report);
  if (report.is_object())
    report["report_truncated"] = "the report had " + std::to_string(bytes) + " bytes, over the limit of " +
                                 std::to_string(max_bytes) + " (TLMCRAFT_MAX_REPORT_BYTES); long arrays were cut";
}

}  // namespace tlmcraft
