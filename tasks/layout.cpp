#include "tasks/layout.h"

#include <cstdio>
#include <stdexcept>

#include "tasks/layout_registry.h"

namespace tlmcraft::tasks {

const TensorPlacement& PlatformLayout::placement(const std::string& name) const {
  for (const auto& t : tensors_)
    if (t.name == name) return t;
  throw std::out_of_range("the layout has no tensor '" + name + "'");
}

nlohmann::json PlatformLayout::to_json() const {
  nlohmann::json j;
  j["platform"] = platform_name(platform());
  j["tensors"] = nlohmann::json::array();
  for (const auto& t : tensors_) {
    nlohmann::json e{{"name", t.name},         {"role", role_name(t.role)}, {"memory", t.memory},
                     {"address", t.address},   {"format", t.format},        {"shape", t.shape},
                     {"view", t.view},         {"strides", t.strides},      {"elements", t.elements},
                     {"bytes", t.bytes}};
    if (t.precision >= 0) e["precision"] = t.precision;
    if (t.scale >= 0) e["scale"] = t.scale;
    if (!t.a_register.empty()) e["a_register"] = t.a_register;
    j["tensors"].push_back(e);
  }
  j["constants"] = nlohmann::json::array();
  for (const auto& c : constants_)
    j["constants"].push_back({{"memory", c.memory}, {"index", c.index}, {"value", c.value}, {"meaning", c.meaning}});
  j["scratch"] = nlohmann::json::array();
  for (const auto& s : scratch_) {
    nlohmann::json e{{"memory", s.memory}, {"begin", s.begin}, {"purpose", s.purpose}};
    e["end"] = s.end == UINT64_MAX ? nlohmann::json(nullptr) : nlohmann::json(s.end);
    j["scratch"].push_back(e);
  }
  return j;
}

std::string PlatformLayout::scratch_text() const {
  std::string o =
      "\nBesides its outputs a kernel may change only this memory (everything else, in every memory, must hold\n"
      "after the run exactly what it held before: inputs, other tensors, unused space and the poisoned guard\n"
      "bytes around each output; any change fails the trial, naming the address):\n";
  for (const auto& s : scratch_) {
    o += "  " + s.memory;
    if (s.begin != 0 || s.end != UINT64_MAX)
      o += " bytes " + hex_text(s.begin) + (s.end == UINT64_MAX ? " to the end" : " .. " + hex_text(s.end - 1));
    o += ": " + s.purpose + "\n";
  }
  return o;
}

bool has_layout(PlatformId p) { return find_layout(p) != nullptr; }

std::unique_ptr<PlatformLayout> make_layout(const TaskSpec& task, PlatformId p, const Params& params) {
  if (!task.supports(p))
    throw std::invalid_argument("task '" + task.name + "' is not supported on " + platform_name(p));
  if (const LayoutRegistration* r = find_layout(p)) return r->make(task, params);
  throw std::invalid_argument(std::string("no memory layout is implemented for platform ") + platform_name(p) + " yet");
}

std::string hex_text(uint64_t v, int min_digits) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%0*llx", min_digits, (unsigned long long)v);
  return b;
}

std::string dims_text(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? " x " : "") + std::to_string(v[i]);
  return s;
}

std::string pad_right(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::vector<uint8_t> read_output_bytes(const MemoryReader& read, const std::string& layout, const TensorPlacement& p) {
  std::vector<uint8_t> bytes = read(p.memory, p.address, p.bytes);
  if (bytes.size() != p.bytes)
    throw std::runtime_error(layout + " layout: reading output '" + p.name + "' returned " + std::to_string(bytes.size()) +
                             " bytes, expected " + std::to_string(p.bytes));
  return bytes;
}

DecodedOutputs decode_poisoned_outputs(const std::vector<TensorPlacement>& tensors, const MemoryReader& read,
                                       const std::string& layout, const OutputEncoding& encoding) {
  DecodedOutputs d;
  for (const auto& pl : tensors) {
    if (pl.role != Role::Output) continue;
    const std::vector<uint8_t> bytes = read_output_bytes(read, layout, pl);
    const size_t eb = encoding.element_bytes(pl.format);
    Tensor t(pl.name, pl.shape);
    std::vector<uint8_t> unwritten(pl.elements, 0);
    for (size_t i = 0; i < pl.elements; ++i) {
      uint32_t bits = 0;
      bool poison = true;
      for (size_t b = 0; b < eb; ++b) {
        const size_t at = i * eb + b;
        bits |= uint32_t(bytes[at]) << (8 * b);
        poison = poison && bytes[at] == encoding.poison_byte(at);
      }
      t.data[i] = encoding.value(bits, eb);
      unwritten[i] = poison ? 1 : 0;
    }
    d.tensors.push_back(std::move(t));
    d.unwritten.push_back(std::move(unwritten));
  }
  return d;
}

std::vector<int64_t> default_view(const std::vector<int64_t>& shape, int64_t row) {
  if (shape.size() == 1 && shape[0] > row && shape[0] % row == 0) return {shape[0] / row, row};
  return shape;
}

}  // namespace tlmcraft::tasks
