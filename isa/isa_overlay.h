// ISA overlays: small YAML files merged, in order, over a shipped ISA description
// (docs/isa-extensions.md, "The overlay file"). The merge works on yaml-cpp node trees,
// before any ISA parser runs, so every ISA (the generic schema of isa_spec.h and AIE-ML's
// own) gets the same rules. Each file is parsed on its own with its lines shifted past the
// previous files' (a SourceMap), so a node's Mark tells which file and line it came from
// and every message points into the file that holds the offending text.
#pragma once
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace tlmcraft::isa {

// Where the lines of the merged document came from: file k's line L is document line
// first_line[k] + L. File 0 is the base description.
class SourceMap {
 public:
  // Registers a file of `line_count` lines; returns the document line its first line gets.
  int add_file(const std::string& path, int line_count);
  // "file:line:col" (1-based) of a document position, e.g. a YAML::Mark's line and column.
  std::string where(int doc_line0, int col0) const;
  std::string where(const YAML::Mark& m) const { return where(m.line, m.column); }
  // "file:line" of a 1-based document line (an InstructionSpec::line).
  std::string where_line(int doc_line1) const;
  // The file holding a 0-based document line and the 1-based line within it.
  const std::string& file_of(int doc_line0) const;
  int local_line(int doc_line0) const;
  // Every file, base first.
  std::vector<std::string> files() const;
  bool empty() const { return files_.empty(); }

 private:
  struct File {
    std::string path;
    int first_line = 0;  // 0-based document line of its line 1
  };
  std::vector<File> files_;
  int next_line_ = 0;
  size_t index_of(int doc_line0) const;
};

// Thrown for a bad overlay or base; what() lists every problem, one per line, each
// "file:line:col: reason".
struct OverlayError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What an ISA's parser accepts at the top level of an overlay: the list sections whose
// entries it appends. Entries are identified by `mnemonic` or `name` (or `letter`).
struct OverlaySchema {
  std::string isa_name;                    // what `isa:` must say ("plena"); "" = the base's `name:`
  std::vector<std::string> list_sections;  // "instructions", "latency_classes", ...
  // Sections that are maps in the base (AIE-ML's `latency_classes: {vmac: {...}}`): an
  // overlay's entries are added by key; an existing key needs `replace: true`.
  std::vector<std::string> map_sections;
};

// The base description merged with its overlays. `root` is the merged tree; `sources`
// maps its marks back to files.
struct MergedIsaDocument {
  YAML::Node root;
  SourceMap sources;
};

// Reads `base_path` and merges every overlay over it, in order. Throws OverlayError naming file:line:col for a YAML syntax error, an
// unreadable file, a wrong or missing `isa:`, an unknown top-level key, an entry that is
// not a map, or an entry whose mnemonic/name exists already without `replace: true`.
MergedIsaDocument merge_isa_overlays(const std::string& base_path, const std::vector<std::string>& overlays,
                                     const OverlaySchema& schema);
// The same with the base given as text (`base_file` names it in messages).
MergedIsaDocument merge_isa_overlays_text(const std::string& base_text, const std::string& base_file,
                                          const std::vector<std::string>& overlays, const OverlaySchema& schema);

// The `isa:` value of an overlay file (for an entry point to check it against its
// platform before anything runs), and in `where` the "file:line:col" of that value;
// throws OverlayError naming file:line:col.
std::string overlay_isa_name(const std::string& overlay_path, std::string* where = nullptr);

}  // namespace tlmcraft::isa
