// A labelled SVG scatter chart with honest axes, shared by the report pages (sweep,
// co-design): every point carries visible text (not only a hover title), each axis spans
// its values' own range with tick labels of enough digits to be distinct, and a quantity
// that does not vary is drawn as a collapsed axis that says so.
#pragma once
#include <string>
#include <vector>

namespace tlmcraft::harness {

// CSS for the classes the chart uses (grid, axis, point, point.pareto, label, collapsed).
extern const char* const kScatterStyle;

// An axis over the values' own range (5% margin each side); its ticks span [min, max].
struct ScatterAxis {
  double lo = 0, hi = 1, min = 0, max = 1;  // drawn range; the values' range
  int digits = 2;                           // tick label digits: enough for distinct labels
  bool constant = false;                    // every value equal: one tick, "(all equal)"
  explicit ScatterAxis(const std::vector<double>& values);
  double at(double v, double from, double to) const { return from + (v - lo) / (hi - lo) * (to - from); }
  std::vector<double> ticks() const;             // 5 evenly spaced over [min, max]; 1 when constant
  std::string tick_label(double v) const;        // v with `digits` decimals (+ " (all equal)")
};

struct ScatterPoint {
  std::string label;   // drawn beside the point
  double x = 0, y = 0;
  bool pareto = false;  // drawn red
  std::string detail;   // hover title after the label ("" = the label alone)
};

// The chart as an <svg id="ID">; `pts` must not be empty.
std::string svg_scatter(const std::string& id, const std::vector<ScatterPoint>& pts, const std::string& x_title,
                        const std::string& y_title);

}  // namespace tlmcraft::harness
