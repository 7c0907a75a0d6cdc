// Reports stay valid and bounded whatever the kernel contains: strings with invalid
// UTF-8 (a kernel's bytes, a directory name) keep the bad bytes as "\xNN" text instead of
// making the JSON unencodable; very long strings are cut; a report over the size limit
// (TLMCRAFT_MAX_REPORT_BYTES, default 8 MB) has its long arrays cut, with a note.
#pragma once
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace tlmcraft {

constexpr size_t kDefaultMaxReportBytes = 8u << 20;
constexpr size_t kMaxReportString = 4096;  // characters of one string in a report
constexpr size_t kMaxReportArrayWhenCut = 100;

size_t max_report_bytes();

// `text` with every byte that is not part of valid UTF-8 written as "\xNN".
std::string escape_invalid_utf8(const std::string& text);

// Escapes invalid UTF-8 in every string (keys too) and cuts strings longer than
// kMaxReportString ("... (N more characters)").
void sanitize_strings(nlohmann::json& value);

// sanitize_strings, then, if the dump is larger than `max_bytes`, cuts every array to
// kMaxReportArrayWhenCut entries and records "report_truncated" in the top-level object.
void bound_report(nlohmann::json& report, size_t max_bytes = max_report_bytes());

}  // namespace tlmcraft
