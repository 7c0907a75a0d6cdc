#include "harness/page_style.h"

#include "harness/html_report.h"

namespace tlmcraft::harness {

const char* const kPageStyle = R"css(
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2228}
h1{font-size:22px}h2{font-size:18px;margin:24px 0 8px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid #d0d5da;padding:3px 8px;text-align:left}
th{background:#f3f5f7}td.num{text-align:right;font-variant-numeric:tabular-nums}
td.slower{background:#fbe9dc}td.faster{background:#e3f1e4}td.fail{background:#f7d7d7}
.muted{color:#6a737d}code{font-size:12px}code.common{color:#6a737d}
)css";

std::string page_head(const std::string& title, const std::string& extra_css) {
  const std::string t = html_escape(title);
  return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + t + "</title><style>" + kPageStyle +
         extra_css + "</style></head><body><h1>" + t + "</h1>";
}

}  // namespace tlmcraft::harness
