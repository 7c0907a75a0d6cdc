#include "harness/svg_scatter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "harness/html_report.h"

namespace tlmcraft::harness {
namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

constexpr double kWidth = 720, kHeight = 420, kLeft = 90, kRight = 30, kTop = 20, kBottom = 50;

void axis_ticks(std::ostringstream& os, const ScatterAxis& a, bool horizontal) {
  for (const double v : a.ticks()) {
    const std::string label = html_escape(a.tick_label(v));
    if (horizontal) {
      const double x = a.at(v, kLeft, kWidth - kRight);
      os << "<line class=\"grid\" x1=\"" << x << "\" y1=\"" << kHeight - kBottom << "\" x2=\"" << x << "\" y2=\"" << kTop
         << "\"/><text class=\"tick x\" x=\"" << x << "\" y=\"" << kHeight - kBottom + 16 << "\" text-anchor=\"middle\">"
         << label << "</text>";
    } else {
      const double y = a.at(v, kHeight - kBottom, kTop);
      os << "<line class=\"grid\" x1=\"" << kLeft << "\" y1=\"" << y << "\" x2=\"" << kWidth - kRight << "\" y2=\"" << y
         << "\"/><text class=\"tick y\" x=\"" << kLeft - 6 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">" << label
         << "</text>";
    }
  }
}

}  // namespace

const char* const kScatterStyle =
    "svg text{font:11px system-ui,sans-serif;fill:#1d2228}.axis{stroke:#8a939c}.axis.collapsed{stroke-dasharray:4 3}"
    ".grid{stroke:#eceff1}.point{fill:#8a939c}.point.pareto{fill:#c62828}";

ScatterAxis::ScatterAxis(const std::vector<double>& values) {
  lo = min = *std::min_element(values.begin(), values.end());
  hi = max = *std::max_element(values.begin(), values.end());
  const double span = hi - lo;
  if (span <= 1e-12 * std::max(1.0, std::fabs(hi))) {
    constant = true;
    lo -= 0.5;
    hi += 0.5;
    digits = 3;
    return;
  }
  lo -= 0.05 * span;
  hi += 0.05 * span;
  // Digits for a tick step of span/4, then more until every tick label differs.
  digits = std::max(0, int(std::ceil(-std::log10(span / 4.0))) + 1);
  for (; digits < 12; ++digits) {
    std::set<std::string> labels;
    for (const double v : ticks()) labels.insert(tick_label(v));
    if (labels.size() == ticks().size()) break;
  }
}

std::vector<double> ScatterAxis::ticks() const {
  if (constant) return {min};
  std::vector<double> out;
  for (int i = 0; i < 5; ++i) out.push_back(min + (max - min) * i / 4);
  return out;
}

std::string ScatterAxis::tick_label(double v) const { return fixed(v, digits) + (constant ? " (all equal)" : ""); }

std::string svg_scatter(const std::string& id, const std::vector<ScatterPoint>& pts, const std::string& x_title,
                        const std::string& y_title) {
  std::vector<double> xs, ys;
  for (const ScatterPoint& p : pts) xs.push_back(p.x), ys.push_back(p.y);
  const ScatterAxis ax(xs), ay(ys);
  std::ostringstream os;
  os << "<svg id=\"" << html_escape(id) << "\" width=\"" << kWidth << "\" height=\"" << kHeight << "\" role=\"img\">";
  axis_ticks(os, ax, true);
  axis_ticks(os, ay, false);
  os << "<line class=\"axis" << (ax.constant ? " collapsed" : "") << "\" x1=\"" << kLeft << "\" y1=\"" << kHeight - kBottom
     << "\" x2=\"" << kWidth - kRight << "\" y2=\"" << kHeight - kBottom << "\"/><line class=\"axis"
     << (ay.constant ? " collapsed" : "") << "\" x1=\"" << kLeft << "\" y1=\"" << kTop << "\" x2=\"" << kLeft
     << "\" y2=\"" << kHeight - kBottom << "\"/>";
  for (const ScatterPoint& p : pts) {
    const double x = ax.at(p.x, kLeft, kWidth - kRight), y = ay.at(p.y, kHeight - kBottom, kTop);
    const std::string title = p.detail.empty() ? p.label : p.label + ": " + p.detail;
    os << "<circle class=\"point" << (p.pareto ? " pareto" : "") << "\" cx=\"" << x << "\" cy=\"" << y
       << "\" r=\"5\"><title>" << html_escape(title) << "</title></circle>";
    // Labels of points in the right half run leftwards, so they stay inside the chart.
    const bool right_half = x > (kLeft + kWidth - kRight) / 2;
    os << "<text class=\"label\" x=\"" << (right_half ? x - 7 : x + 7) << "\" y=\"" << y - 7 << "\""
       << (right_half ? " text-anchor=\"end\"" : "") << ">" << html_escape(p.label) << "</text>";
  }
  const auto titled = [](const std::string& t, const ScatterAxis& a) {
    return a.constant ? t + ": does not vary (collapsed axis)" : t;
  };
  os << "<text class=\"axis-title x\" x=\"" << (kLeft + kWidth - kRight) / 2 << "\" y=\"" << kHeight - 8
     << "\" text-anchor=\"middle\">" << html_escape(titled(x_title, ax)) << "</text><text class=\"axis-title y\" "
     << "transform=\"translate(16," << (kTop + kHeight - kBottom) / 2 << ") rotate(-90)\" text-anchor=\"middle\">"
     << html_escape(titled(y_title, ay)) << "</text></svg>";
  return os.str();
}

}  // namespace tlmcraft::harness
