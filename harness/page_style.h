// The head of the single-file report pages (sweep, co-design, compare): one stylesheet for
// what they share (type, headings, tables, numbers, cells marked faster/slower/fail,
// muted text, code), so the pages look alike and the CSS lives in one place.
#pragma once
#include <string>

namespace tlmcraft::harness {

extern const char* const kPageStyle;

// "<!DOCTYPE html>...<style>kPageStyle + extra_css</style></head><body><h1>title</h1>",
// the title HTML-escaped.
std::string page_head(const std::string& title, const std::string& extra_css = "");

}  // namespace tlmcraft::harness
