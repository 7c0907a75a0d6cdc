// Merges ISA overlays over a base description at the YAML-node level (isa_overlay.h).
#include "isa/isa_overlay.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace tlmcraft::isa {

// ---- SourceMap ---------------------------------------------------------------------------

int SourceMap::add_file(const std::string& path, int line_count) {
  files_.push_back({path, next_line_});
  const int first = next_line_;
  next_line_ += std::max(line_count, 1) + 1;  // one spare line: a mark just past a file's end stays in it
  return first;
}

size_t SourceMap::index_of(int doc_line0) const {
  size_t k = 0;
  for (size_t i = 0; i < files_.size(); ++i)
    if (files_[i].first_line <= doc_line0) k = i;
  return k;
}

const std::string& SourceMap::file_of(int doc_line0) const {
  static const std::string none;
  return files_.empty() ? none : files_[index_of(doc_line0)].path;
}

int SourceMap::local_line(int doc_line0) const {
  if (files_.empty() || doc_line0 < 0) return 1;
  return doc_line0 - files_[index_of(doc_line0)].first_line + 1;
}

std::string SourceMap::where(int doc_line0, int col0) const {
  return file_of(doc_line0) + ":" + std::to_string(local_line(doc_line0)) + ":" + std::to_string(std::max(col0, 0) + 1);
}

std::string SourceMap::where_line(int doc_line1) const {
  return file_of(doc_line1 - 1) + ":" + std::to_string(local_line(doc_line1 - 1));
}

std::vector<std::string> SourceMap::files() const {
  std::vector<std::string> out;
  for (const auto& f : files_) out.push_back(f.path);
  return out;
}

// ---- reading -----------------------------------------------------------------------------

namespace {

constexpr size_t kMaxOverlayBytes = 16u << 20;

std::string read_file(const std::string& path, const char* what) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) throw OverlayError(path + ": cannot open the " + what + " (no such file)");
  if (!S_ISREG(st.st_mode)) throw OverlayError(path + ": the " + what + " is not a regular file");
  if (size_t(st.st_size) > kMaxOverlayBytes)
    throw OverlayError(path + ": the " + what + " is over 16 MB (" + std::to_string(st.st_size) + " bytes)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw OverlayError(path + ": cannot open the " + what);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int line_count(const std::string& text) { return int(std::count(text.begin(), text.end(), '\n')) + 1; }

// Parses `text` as the file registered next in `sources`: its marks carry document lines.
YAML::Node parse_shifted(const std::string& text, const std::string& path, SourceMap& sources, int* first_line = nullptr) {
  const int first = sources.add_file(path, line_count(text));
  if (first_line) *first_line = first;
  try {
    return YAML::Load(std::string(size_t(first), '\n') + text);
  } catch (const YAML::Exception& e) {
    throw OverlayError(sources.where(e.mark) + ": YAML syntax error: " + e.msg);
  }
}

// A node's position; a node without one (an empty document) points at its file's line 1.
std::string where(const SourceMap& sources, const YAML::Node& n, int file_first_line) {
  const YAML::Mark m = n.Mark();
  return m.line < 0 ? sources.where(file_first_line, 0) : sources.where(m);
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// The key an entry is known by: mnemonic (instructions, ops), name, or letter (classes).
const char* identity_key(const YAML::Node& entry) {
  for (const char* k : {"mnemonic", "name", "letter"})
    if (entry[k] && entry[k].IsScalar()) return k;
  return nullptr;
}

class OverlayMerger {
 public:
  OverlayMerger(MergedIsaDocument& doc, const OverlaySchema& schema) : doc_(doc), schema_(schema) {}

  void merge(const YAML::Node& overlay, int first_line) {
    first_line_ = first_line;
    if (!overlay.IsMap()) {
      fail(overlay, "an ISA overlay must be a mapping: `isa: " + schema_.isa_name + "` and the sections it adds to (" +
                        join(known_keys()) + ")");
      return;
    }
    if (!check_isa_key(overlay)) return;  // an overlay for another ISA: its entries would only add noise
    for (auto it = overlay.begin(); it != overlay.end(); ++it) {
      const std::string key = it->first.Scalar();
      if (key == "isa") continue;
      if (contains(schema_.list_sections, key)) merge_list(key, it->second);
      else if (contains(schema_.map_sections, key)) merge_map(key, it->second);
      else
        fail(it->first, "unknown top-level key '" + key + "' in an ISA overlay (known keys: " + join(known_keys()) + ")");
    }
  }

  const std::vector<std::string>& errors() const { return errors_; }

 private:
  MergedIsaDocument& doc_;
  const OverlaySchema& schema_;
  std::vector<std::string> errors_;
  int first_line_ = 0;

  static bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  }
  std::vector<std::string> known_keys() const {
    std::vector<std::string> k{"isa"};
    k.insert(k.end(), schema_.list_sections.begin(), schema_.list_sections.end());
    k.insert(k.end(), schema_.map_sections.begin(), schema_.map_sections.end());
    return k;
  }
  void fail(const YAML::Node& n, const std::string& msg) { errors_.push_back(where(doc_.sources, n, first_line_) + ": " + msg); }

  bool check_isa_key(const YAML::Node& overlay) {
    const YAML::Node isa = overlay["isa"];
    if (!isa) {
      fail(overlay, "missing required key 'isa' (the ISA this overlay extends, e.g. `isa: " + schema_.isa_name + "`)");
      return false;
    }
    if (!isa.IsScalar() || isa.Scalar() != schema_.isa_name) {
      fail(isa, "this overlay extends ISA '" + (isa.IsScalar() ? isa.Scalar() : std::string("?")) +
                    "', but it is applied to ISA '" + schema_.isa_name + "'");
      return false;
    }
    return true;
  }

  // `replace: true` on an entry: read and taken out (the ISA parser does not know the key).
  bool take_replace(YAML::Node entry) {
    const YAML::Node r = entry["replace"];
    if (!r) return false;
    const std::string v = r.IsScalar() ? r.Scalar() : "";
    if (v != "true" && v != "false") fail(r, "'replace' must be true or false, got '" + v + "'");
    entry.remove("replace");
    return v == "true";
  }

  void merge_list(const std::string& key, const YAML::Node& entries) {
    if (!entries.IsSequence()) return fail(entries, "'" + key + "' must be a list of entries, as in the ISA description");
    YAML::Node base = doc_.root[key];
    if (!base || base.IsNull()) {
      doc_.root[key] = YAML::Node(YAML::NodeType::Sequence);
      base = doc_.root[key];
    }
    if (!base.IsSequence()) return fail(entries, "'" + key + "' is not a list in the ISA description");
    for (const auto& e : entries) {
      if (!e.IsMap()) {
        fail(e, "each '" + key + "' entry must be a mapping (key: value)");
        continue;
      }
      YAML::Node entry = e;
      const bool replace = take_replace(entry);
      const char* id_key = identity_key(entry);
      const int existing = id_key ? find_entry(base, id_key, entry[id_key].Scalar()) : -1;
      if (existing >= 0 && replace) {
        base[size_t(existing)] = entry;
      } else if (existing >= 0) {
        fail(entry[id_key], std::string(id_key) + " " + entry[id_key].Scalar() + " is already defined (" +
                                where(doc_.sources, base[size_t(existing)], 0) +
                                "): give the entry `replace: true` to replace it");
      } else if (replace) {
        fail(entry, "'replace: true' but " + key + " has no entry " + (id_key ? entry[id_key].Scalar() : "with this name") +
                        " to replace");
      } else {
        base.push_back(entry);
      }
    }
  }

  static int find_entry(const YAML::Node& list, const char* id_key, const std::string& id) {
    for (size_t i = 0; i < list.size(); ++i) {
      const YAML::Node e = list[i];
      if (e.IsMap() && e[id_key] && e[id_key].IsScalar() && e[id_key].Scalar() == id) return int(i);
    }
    return -1;
  }

  void merge_map(const std::string& key, const YAML::Node& entries) {
    if (!entries.IsMap()) return fail(entries, "'" + key + "' must be a mapping of name: entry, as in the ISA description");
    YAML::Node base = doc_.root[key];
    if (!base || base.IsNull()) {
      doc_.root[key] = YAML::Node(YAML::NodeType::Map);
      base = doc_.root[key];
    }
    for (auto it = entries.begin(); it != entries.end(); ++it) {
      const std::string name = it->first.Scalar();
      YAML::Node value = it->second;
      const bool replace = value.IsMap() && take_replace(value);
      if (base[name] && !replace)
        fail(it->first, key + " entry " + name + " is already defined (" + where(doc_.sources, base[name], 0) +
                            "): give the entry `replace: true` to replace it");
      else if (!base[name] && replace)
        fail(it->first, "'replace: true' but " + key + " has no entry " + name + " to replace");
      else
        base[name] = value;
    }
  }
};

}  // namespace

MergedIsaDocument merge_isa_overlays_text(const std::string& base_text, const std::string& base_file,
                                          const std::vector<std::string>& overlays, const OverlaySchema& schema) {
  MergedIsaDocument doc;
  doc.root = parse_shifted(base_text, base_file, doc.sources);
  if (overlays.empty()) return doc;
  if (!doc.root.IsMap()) return doc;  // the ISA parser reports a base that is not a mapping
  OverlaySchema named = schema;
  if (named.isa_name.empty() && doc.root["name"] && doc.root["name"].IsScalar()) named.isa_name = doc.root["name"].Scalar();
  OverlayMerger merger(doc, named);
  for (const auto& path : overlays) {
    const std::string text = read_file(path, "ISA overlay");
    int first = 0;
    const YAML::Node overlay = parse_shifted(text, path, doc.sources, &first);
    merger.merge(overlay, first);
  }
  if (!merger.errors().empty()) {
    std::string all;
    for (const auto& e : merger.errors()) all += (all.empty() ? "" : "\n") + e;
    throw OverlayError(all);
  }
  return doc;
}

MergedIsaDocument merge_isa_overlays(const std::string& base_path, const std::vector<std::string>& overlays,
                                     const OverlaySchema& schema) {
  return merge_isa_overlays_text(read_file(base_path, "ISA description"), base_path, overlays, schema);
}

std::string overlay_isa_name(const std::string& overlay_path, std::string* where_out) {
  SourceMap sources;
  const YAML::Node root = parse_shifted(read_file(overlay_path, "ISA overlay"), overlay_path, sources);
  const YAML::Node isa = root.IsMap() ? root["isa"] : YAML::Node();
  if (!isa || !isa.IsScalar() || isa.Scalar().empty())
    throw OverlayError(where(sources, isa ? isa : root, 0) +
                       ": missing required key 'isa' (the ISA this overlay extends, e.g. `isa: plena`)");
  if (where_out) *where_out = where(sources, isa, 0);
  return isa.Scalar();
}

}  // namespace tlmcraft::isa
