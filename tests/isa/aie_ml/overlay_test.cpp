// AIE-ML's own schema with overlays (isa/isa_overlay.h merged before isa_table.cpp's parser)
// and strict keys: `fused:` (a PLENA form) or a misspelt key on an op is an error naming
// file:line:col, in the shipped file's schema and in an overlay alike.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <algorithm>
#include <fstream>
#include <sstream>

#include "isa/aie_ml/isa_tables.h"
#include "isa/isa_spec.h"

namespace tlmcraft::isa::aie_ml {
namespace {

namespace fs = std::filesystem;

class AieOverlay : public ::testing::Test {
 protected:
  fs::path dir = fs::temp_directory_path() / ("tlmcraft-aie-overlay-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string p = (dir / name).string();
    std::ofstream(p) << text;
    return p;
  }
  static std::string base() { return isa_yaml_path_in("", "aie_ml"); }
  static std::string error_of(const std::vector<std::string>& overlays) {
    try {
      load_aie_isa(base(), overlays);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  }
};

// The shipped VADD.32 entry, as an overlay replacing it, with `extra` added to the map.
std::string vadd32(const std::string& extra) {
  return "isa: aie_ml\nops:\n  - {mnemonic: VADD.32, replace: true, slot: vec, operands: \"x, x, x\", dst: 1, "
         "latency: valu, doc: \"Add 16 32-bit lanes (wraps).\", operation: \"d[i] = a[i] + b[i]\"" +
         extra + "}\n";
}

TEST_F(AieOverlay, ReplacingAnOpWithTheSameTextLoads) {
  const AieIsaDetails shipped = load_aie_isa(base(), {});
  const AieIsaDetails d = load_aie_isa(base(), {write("same.yaml", vadd32(""))});
  EXPECT_EQ(d.isa.ops.size(), shipped.isa.ops.size());
  EXPECT_EQ(d.isa.find("VADD.32")->doc, "Add 16 32-bit lanes (wraps).");
}

TEST_F(AieOverlay, FusedOnAnOpIsAnUnknownKey) {
  const std::string p = write("fused.yaml", vadd32(", fused: [\"VADD.32 x0, x1, x2\"]"));
  // The entry is one flow mapping on line 3; the message points at the `fused` key in it.
  const std::string line3 = vadd32(", fused: [\"VADD.32 x0, x1, x2\"]").substr(std::string("isa: aie_ml\nops:\n").size());
  const size_t col = line3.find("fused") + 1;
  EXPECT_EQ(error_of({p}), p + ":3:" + std::to_string(col) +
                               ": unknown key 'fused' in op VADD.32 (known keys: mnemonic, slot, alt_slots, alt_operands, operands, "
                               "dst, rw, access, latency, ii, real, doc, operation, macs, format, actions, compose, semantics, replaces, commutative); "
                               "AIE-ML has no `fused:`: an op built from existing ops is written with `compose: {temps, "
                               "steps}` (docs/isa-extensions.md)\n");
}

TEST_F(AieOverlay, MisspeltKeyInAnEditedCopyIsAnError) {
  // An edited copy of the whole file (what --isa-dir reads): `latncy` instead of `latency`.
  std::ifstream in(base());
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  const size_t at = text.find("{mnemonic: VADD.32,");
  ASSERT_NE(at, std::string::npos);
  const size_t key = text.find("latency:", at);
  text.replace(key, 8, "latncy:");
  const std::string p = write("aie_ml.yaml", text);
  const int line = int(std::count(text.begin(), text.begin() + long(key), '\n')) + 1;
  const int col = int(key - text.rfind('\n', key));
  try {
    parse_aie_isa(text, p);
    FAIL() << "accepted a misspelt key";
  } catch (const std::runtime_error& e) {
    const std::string first = std::string(e.what()).substr(0, std::string(e.what()).find('\n'));
    EXPECT_EQ(first, p + ":" + std::to_string(line) + ":" + std::to_string(col) +
                         ": unknown key 'latncy' in op VADD.32 (known keys: mnemonic, slot, alt_slots, alt_operands, operands, dst, "
                         "rw, access, latency, ii, real, doc, operation, macs, format, actions, compose, semantics, replaces, commutative)");
  }
}

TEST_F(AieOverlay, LatencyClassesMergeByName) {
  std::ifstream in(base());
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const size_t at = text.find("\n  valu:") + 1;  // the shipped entry; its value is the flow map
  const int line = int(std::count(text.begin(), text.begin() + long(at), '\n')) + 1;
  const int col = int(text.find('{', at) - at) + 1;
  const std::string p = write("lat.yaml", "isa: aie_ml\nlatency_classes:\n  valu: {cycles: 3, doc: \"slower\"}\n");
  EXPECT_EQ(error_of({p}), p + ":3:3: latency_classes entry valu is already defined (" + base() + ":" +
                               std::to_string(line) + ":" + std::to_string(col) + "): give the entry `replace: true` to replace it");
  // With replace: true the class takes the overlay's cycles.
  const std::string q =
      write("lat2.yaml", "isa: aie_ml\nlatency_classes:\n  valu: {cycles: 3, doc: \"slower\", replace: true}\n");
  EXPECT_EQ(load_aie_isa(base(), {q}).isa.latency.at("valu"), 3u);
}

}  // namespace
}  // namespace tlmcraft::isa::aie_ml
