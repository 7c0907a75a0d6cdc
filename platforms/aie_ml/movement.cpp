#include "platforms/aie_ml/movement.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <yaml-cpp/yaml.h>

namespace tlmcraft::aie_ml {

std::string TileRef::name() const {
  switch (kind) {
    case TileKind::Compute: return "tile(" + std::to_string(column) + "," + std::to_string(row) + ")";
    case TileKind::Mem: return "mem" + std::to_string(column);
    case TileKind::Shim: return "shim" + std::to_string(column);
  }
  return "?";
}

uint32_t TileRef::array_row() const {
  switch (kind) {
    case TileKind::Shim: return 0;
    case TileKind::Mem: return 1;
    case TileKind::Compute: return 2 + row;
  }
  return 0;
}

uint32_t RouteSpec::hops() const {
  const auto d = [](uint32_t a, uint32_t b) { return a > b ? a - b : b - a; };
  return d(from_tile.column, to_tile.column) + d(from_tile.array_row(), to_tile.array_row());
}

BdWalker::BdWalker(const BdSpec& bd) : bd_(&bd), total_(bd.length / 4), idx_(bd.dims.size(), 0) {}

int64_t BdWalker::next() {
  const uint64_t i = done_++;
  const size_t n = bd_->dims.size();
  if (n == 0) return static_cast<int64_t>(i);
  int64_t off = 0;
  bool pad = false;
  for (size_t d = 0; d < n; ++d) {
    const DimSpec& dim = bd_->dims[d];
    const uint64_t k = idx_[d];
    if (k < dim.pad_before || (d + 1 < n && k >= dim.pad_before + dim.size)) pad = true;
    else off += static_cast<int64_t>(k - dim.pad_before) * dim.stride;
  }
  for (size_t d = 0; d < n; ++d) {  // odometer
    const uint64_t span = bd_->dims[d].pad_before + bd_->dims[d].size + bd_->dims[d].pad_after;
    if (++idx_[d] < span || d + 1 == n) break;
    idx_[d] = 0;
  }
  return pad ? -1 : off;
}

std::vector<int64_t> bd_word_offsets(const BdSpec& bd) {
  BdWalker w(bd);
  std::vector<int64_t> out(w.total());
  for (auto& o : out) o = w.next();
  return out;
}

namespace {

struct Parser {
  const std::string& file;
  uint32_t first_line;
  const AieConfig& cfg;
  std::vector<isa::Diagnostic>& diags;
  bool ok = true;

  uint32_t line_of(const YAML::Node& n) const {
    const auto m = n.Mark();
    return m.line < 0 ? first_line : first_line + static_cast<uint32_t>(m.line);
  }
  void error(const YAML::Node& n, const std::string& msg, const std::string& hint = "", const std::string& token = "") {
    isa::Diagnostic d;
    d.file = file;
    d.line = line_of(n);
    const auto m = n.Mark();
    d.col = m.column < 0 ? 1 : static_cast<uint32_t>(m.column + 1);
    d.token = token.empty() && n.IsScalar() ? n.Scalar() : token;
    d.message = msg;
    d.hint = hint;
    diags.push_back(d);
    ok = false;
  }

  bool integer(const YAML::Node& parent, const char* key, int64_t lo, int64_t hi, int64_t& v, bool required = true) {
    const YAML::Node n = parent[key];
    if (!n) {
      if (required) error(parent, std::string("missing key '") + key + "'");
      return false;
    }
    if (!n.IsScalar()) {
      error(n, std::string("'") + key + "' must be an integer");
      return false;
    }
    const std::string s = n.Scalar();
    char* end = nullptr;
    errno = 0;
    const long long x = std::strtoll(s.c_str(), &end, 0);
    if (s.empty() || *end != '\0' || errno) {
      error(n, std::string("'") + key + "' must be an integer, got '" + s + "'");
      return false;
    }
    if (x < lo || x > hi) {
      error(n, std::string("'") + key + "' = " + s + " is out of range [" + std::to_string(lo) + ", " +
                   std::to_string(hi) + "]");
      return false;
    }
    v = x;
    return true;
  }

  void check_keys(const YAML::Node& n, std::initializer_list<const char*> known) {
    for (const auto& kv : n) {
      const std::string k = kv.first.Scalar();
      if (std::none_of(known.begin(), known.end(), [&](const char* s) { return k == s; })) {
        std::string list;
        for (const char* s : known) list += (list.empty() ? "" : ", ") + std::string(s);
        error(kv.first, "unknown key '" + k + "'", "known keys: " + list, k);
      }
    }
  }

  const TileKindConfig& kind_cfg(TileKind k) const {
    return k == TileKind::Compute ? cfg.compute : k == TileKind::Mem ? cfg.mem_tile : cfg.shim;
  }

  // [c, r] = compute tile; "memC" / "shimC".
  bool tile(const YAML::Node& n, TileRef& t) {
    if (!n) return false;
    if (n.IsSequence()) {
      if (n.size() != 2) {
        error(n, "a compute tile is [column, row]");
        return false;
      }
      int64_t c, r;
      if (!scalar_int(n[0], c) || !scalar_int(n[1], r)) {
        error(n, "a compute tile is [column, row] with integer coordinates");
        return false;
      }
      if (c < 0 || r < 0 || c >= cfg.columns || r >= cfg.rows) {
        error(n, "compute tile [" + std::to_string(c) + ", " + std::to_string(r) + "] is outside the " +
                     std::to_string(cfg.columns) + " x " + std::to_string(cfg.rows) + " grid");
        return false;
      }
      t = TileRef{TileKind::Compute, static_cast<uint32_t>(c), static_cast<uint32_t>(r)};
      return true;
    }
    if (n.IsScalar()) {
      const std::string s = n.Scalar();
      TileKind k;
      std::string num;
      if (s.rfind("mem", 0) == 0) k = TileKind::Mem, num = s.substr(3);
      else if (s.rfind("shim", 0) == 0) k = TileKind::Shim, num = s.substr(4);
      else {
        error(n, "unknown tile '" + s + "'", "use [column, row] for a compute tile, memC or shimC");
        return false;
      }
      int64_t c;
      YAML::Node tmp(num);
      if (num.empty() || !scalar_int(tmp, c) || c < 0 || c >= cfg.columns) {
        error(n, "tile '" + s + "': column must be 0.." + std::to_string(cfg.columns - 1));
        return false;
      }
      t = TileRef{k, static_cast<uint32_t>(c), 0};
      return true;
    }
    error(n, "a tile is [column, row], memC or shimC");
    return false;
  }

  static bool scalar_int(const YAML::Node& n, int64_t& v) {
    if (!n.IsScalar()) return false;
    const std::string s = n.Scalar();
    char* end = nullptr;
    errno = 0;
    v = std::strtoll(s.c_str(), &end, 0);
    return !s.empty() && *end == '\0' && !errno;
  }

  bool channel(const YAML::Node& n, const TileRef& t, ChannelRef& ch) {
    if (!n || !n.IsScalar()) {
      error(n ? n : YAML::Node(), "expected a DMA channel like mm2s0 or s2mm1");
      return false;
    }
    const std::string s = n.Scalar();
    std::string num;
    if (s.rfind("mm2s", 0) == 0) ch.mm2s = true, num = s.substr(4);
    else if (s.rfind("s2mm", 0) == 0) ch.mm2s = false, num = s.substr(4);
    else {
      error(n, "unknown channel '" + s + "'", "channels are mm2sN (memory to stream) or s2mmN (stream to memory)");
      return false;
    }
    int64_t i;
    const uint32_t count = ch.mm2s ? kind_cfg(t.kind).mm2s_channels : kind_cfg(t.kind).s2mm_channels;
    YAML::Node tmp(num);
    if (num.empty() || !scalar_int(tmp, i) || i < 0 || i >= count) {
      error(n, t.name() + " has no channel '" + s + "'",
            t.name() + " has " + std::to_string(count) + (ch.mm2s ? " MM2S" : " S2MM") + " channels");
      return false;
    }
    ch.index = static_cast<uint32_t>(i);
    return true;
  }

  bool lock_use(const YAML::Node& n, const TileRef& t, LockUse& u, bool release) {
    if (!n) return true;
    if (!n.IsMap()) {
      error(n, std::string(release ? "release" : "acquire") + " must be a mapping {lock: ID, value: V}");
      return false;
    }
    check_keys(n, {"lock", "value", "mode"});
    int64_t id, v;
    const uint32_t locks = kind_cfg(t.kind).locks;
    if (!integer(n, "lock", 0, locks - 1, id)) return false;
    if (!integer(n, "value", release ? -63 : -63, 63, v)) return false;
    u.enabled = true;
    u.id = static_cast<uint32_t>(id);
    u.value = static_cast<int32_t>(v);
    if (n["mode"]) {
      const std::string m = n["mode"].Scalar();
      if (release || (m != "ge" && m != "eq")) {
        error(n["mode"], release ? "a release has no mode" : "acquire mode must be 'ge' or 'eq'");
        return false;
      }
      u.equal = m == "eq";
    }
    return true;
  }

  const YAML::Node list(const YAML::Node& root, const char* key) {
    const YAML::Node n = root[key];
    if (n && !n.IsSequence() && !n.IsNull()) {
      error(n, std::string("'") + key + "' must be a list");
      return YAML::Node();
    }
    return n;
  }
};

}  // namespace

namespace {

bool parse_movement_impl(const std::string& text, const std::string& file, uint32_t first_line, const AieConfig& cfg,
                         MovementSpec& out, std::vector<isa::Diagnostic>& diags) {
  out = MovementSpec{};
  Parser p{file, first_line, cfg, diags};
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    isa::Diagnostic d;
    d.file = file;
    // An error at the end of the text (an unclosed flow) is marked one line past its last
    // line; name the last line instead.
    const uint32_t last_line = first_line + static_cast<uint32_t>(std::max<ptrdiff_t>(
                                                std::count(text.begin(), text.end(), '\n') - (text.empty() || text.back() == '\n'), 0));
    d.line = std::min(last_line, first_line + static_cast<uint32_t>(std::max(0, e.mark.line)));
    d.col = static_cast<uint32_t>(std::max(0, e.mark.column) + 1);
    d.message = "data-movement YAML: " + e.msg;
    diags.push_back(d);
    return false;
  }
  if (!root || root.IsNull()) return true;
  if (!root.IsMap()) {
    p.error(root, "the data-movement section must be a mapping with locks, buffers, bds and routes");
    return false;
  }
  p.check_keys(root, {"locks", "buffers", "bds", "routes"});

  std::set<std::pair<std::string, uint32_t>> lock_seen;
  if (const YAML::Node ls = p.list(root, "locks"))
    for (const auto& n : ls) {
      if (!n.IsMap()) { p.error(n, "a lock is {tile: T, id: N, init: V}"); continue; }
      p.check_keys(n, {"tile", "id", "init"});
      LockInit l;
      l.line = p.line_of(n);
      if (!p.tile(n["tile"], l.tile)) { if (!n["tile"]) p.error(n, "missing key 'tile'"); continue; }
      int64_t id, v = 0;
      if (!p.integer(n, "id", 0, p.kind_cfg(l.tile.kind).locks - 1, id)) continue;
      if (n["init"] && !p.integer(n, "init", 0, 63, v)) continue;
      l.id = static_cast<uint32_t>(id);
      l.value = static_cast<uint32_t>(v);
      if (!lock_seen.insert({l.tile.name(), l.id}).second)
        p.error(n, "lock " + std::to_string(id) + " of " + l.tile.name() + " is initialised twice");
      out.locks.push_back(l);
    }

  std::map<std::string, int> buffer_index;
  if (const YAML::Node bs = p.list(root, "buffers"))
    for (const auto& n : bs) {
      if (!n.IsMap()) { p.error(n, "a buffer is {name: N, tile: T, address: A, size: S}"); continue; }
      p.check_keys(n, {"name", "tile", "address", "size"});
      BufferSpec b;
      b.line = p.line_of(n);
      if (!n["name"] || !n["name"].IsScalar()) { p.error(n, "a buffer needs a name"); continue; }
      b.name = n["name"].Scalar();
      if (!p.tile(n["tile"], b.tile)) { if (!n["tile"]) p.error(n, "missing key 'tile'"); continue; }
      const uint64_t cap = b.tile.kind == TileKind::Shim ? cfg.ddr.capacity_bytes
                           : b.tile.kind == TileKind::Mem ? cfg.mem_tile.memory_bytes
                                                          : cfg.compute.memory_bytes;
      int64_t a, s;
      if (!p.integer(n, "address", 0, static_cast<int64_t>(cap) - 1, a)) continue;
      if (!p.integer(n, "size", 4, static_cast<int64_t>(cap), s)) continue;
      if (a % 4 || s % 4) { p.error(n, "buffer '" + b.name + "': address and size must be multiples of 4 (32-bit words)"); continue; }
      if (static_cast<uint64_t>(a + s) > cap) {
        p.error(n, "buffer '" + b.name + "' [" + std::to_string(a) + ", " + std::to_string(a + s) + ") exceeds " +
                       b.tile.name() + "'s " + std::to_string(cap) + "-byte memory");
        continue;
      }
      b.address = static_cast<uint64_t>(a);
      b.size = static_cast<uint64_t>(s);
      if (buffer_index.count(b.name)) { p.error(n["name"], "buffer '" + b.name + "' is defined twice"); continue; }
      buffer_index[b.name] = static_cast<int>(out.buffers.size());
      out.buffers.push_back(b);
    }

  std::map<std::string, int> bd_index;
  std::vector<std::pair<YAML::Node, std::string>> nexts;  // resolved after all BDs are known
  if (const YAML::Node bs = p.list(root, "bds"))
    for (const auto& n : bs) {
      if (!n.IsMap()) { p.error(n, "a BD is {name, tile, channel, buffer, offset, length, dims, next, acquire, release}"); continue; }
      p.check_keys(n, {"name", "tile", "channel", "buffer", "offset", "length", "dims", "next", "acquire", "release"});
      BdSpec bd;
      bd.line = p.line_of(n);
      if (!n["name"] || !n["name"].IsScalar()) { p.error(n, "a BD needs a name"); continue; }
      bd.name = n["name"].Scalar();
      if (!p.tile(n["tile"], bd.tile)) { if (!n["tile"]) p.error(n, "missing key 'tile'"); continue; }
      if (!p.channel(n["channel"], bd.tile, bd.channel)) continue;
      if (!n["buffer"] || !n["buffer"].IsScalar()) { p.error(n, "BD '" + bd.name + "' needs a buffer"); continue; }
      const auto bi = buffer_index.find(n["buffer"].Scalar());
      if (bi == buffer_index.end()) { p.error(n["buffer"], "unknown buffer '" + n["buffer"].Scalar() + "'"); continue; }
      bd.buffer = bi->second;
      const BufferSpec& buf = out.buffers[bd.buffer];
      if (!(buf.tile == bd.tile)) {
        p.error(n["buffer"], "buffer '" + buf.name + "' is in " + buf.tile.name() + ", not in " + bd.tile.name(),
                "a DMA reaches only its own tile's memory");
        continue;
      }
      int64_t off = 0, len = 0;
      if (n["offset"] && !p.integer(n, "offset", 0, static_cast<int64_t>(buf.size) - 1, off)) continue;
      if (!p.integer(n, "length", 4, static_cast<int64_t>(kMaxBdBytes), len)) continue;
      if (off % 4 || len % 4) { p.error(n, "BD '" + bd.name + "': offset and length must be multiples of 4"); continue; }
      bd.offset = static_cast<uint64_t>(off);
      bd.length = static_cast<uint64_t>(len);
      bool dims_ok = true;
      if (const YAML::Node ds = n["dims"]) {
        if (!ds.IsSequence()) { p.error(ds, "dims must be a list of {size, stride[, pad_before, pad_after]}"); continue; }
        const uint32_t max_dims = p.kind_cfg(bd.tile.kind).dma_dims;
        if (ds.size() > max_dims) {
          p.error(ds, bd.tile.name() + " DMA addresses at most " + std::to_string(max_dims) + " dimensions, got " +
                          std::to_string(ds.size()));
          continue;
        }
        for (const auto& d : ds) {
          DimSpec dim;
          int64_t size, stride, pb = 0, pa = 0;
          if (d.IsSequence() && d.size() == 2) {
            if (!Parser::scalar_int(d[0], size) || !Parser::scalar_int(d[1], stride) || size < 1) {
              p.error(d, "a dimension [size, stride] needs integers with size >= 1");
              dims_ok = false;
              break;
            }
          } else if (d.IsMap()) {
            p.check_keys(d, {"size", "stride", "pad_before", "pad_after"});
            if (!p.integer(d, "size", 1, 1 << 20, size) || !p.integer(d, "stride", -(1 << 20), 1 << 20, stride) ||
                (d["pad_before"] && !p.integer(d, "pad_before", 0, 63, pb)) ||
                (d["pad_after"] && !p.integer(d, "pad_after", 0, 63, pa))) {
              dims_ok = false;
              break;
            }
            if ((pb || pa) && !(bd.tile.kind == TileKind::Mem && bd.channel.mm2s)) {
              p.error(d, "zero padding is a memory-tile MM2S feature", "remove pad_before/pad_after");
              dims_ok = false;
              break;
            }
          } else {
            p.error(d, "a dimension is [size, stride] or {size, stride, pad_before, pad_after}");
            dims_ok = false;
            break;
          }
          dim.size = static_cast<uint32_t>(size);
          dim.stride = stride;
          dim.pad_before = static_cast<uint32_t>(pb);
          dim.pad_after = static_cast<uint32_t>(pa);
          bd.dims.push_back(dim);
        }
      }
      if (!dims_ok) continue;
      // Every word the BD touches must stay inside its buffer.
      int64_t lo = 0, hi = -1;
      for (BdWalker walk(bd); !walk.finished();)
        if (const int64_t w = walk.next(); w >= 0) lo = std::min(lo, w), hi = std::max(hi, w);
      const int64_t first = static_cast<int64_t>(bd.offset) + lo * 4, last = static_cast<int64_t>(bd.offset) + hi * 4 + 4;
      if (first < 0 || (hi >= 0 && static_cast<uint64_t>(last) > buf.size)) {
        p.error(n, "BD '" + bd.name + "' reaches bytes [" + std::to_string(first) + ", " + std::to_string(last) +
                       ") of buffer '" + buf.name + "' (size " + std::to_string(buf.size) + ")",
                "check offset, length and dims");
        continue;
      }
      if (!p.lock_use(n["acquire"], bd.tile, bd.acquire, false)) continue;
      if (!p.lock_use(n["release"], bd.tile, bd.release, true)) continue;
      if (bd.acquire.enabled && !bd.acquire.equal && bd.acquire.value < 0) {
        p.error(n["acquire"], "acquire value must be >= 0");
        continue;
      }
      if (bd_index.count(bd.name)) { p.error(n["name"], "BD '" + bd.name + "' is defined twice"); continue; }
      bd_index[bd.name] = static_cast<int>(out.bds.size());
      if (n["next"]) nexts.push_back({n["next"], bd.name});
      out.bds.push_back(bd);
    }
  for (const auto& [node, name] : nexts) {
    BdSpec& bd = out.bds[bd_index[name]];
    const auto it = bd_index.find(node.Scalar());
    if (it == bd_index.end()) { p.error(node, "unknown BD '" + node.Scalar() + "' in next"); continue; }
    const BdSpec& nx = out.bds[it->second];
    if (!(nx.tile == bd.tile) || nx.channel.mm2s != bd.channel.mm2s || nx.channel.index != bd.channel.index) {
      p.error(node, "BD '" + nx.name + "' runs on " + nx.tile.name() + " " + nx.channel.name() + ", not on " +
                        bd.tile.name() + " " + bd.channel.name(),
              "a chain stays on one channel");
      continue;
    }
    bd.next = it->second;
  }

  std::set<std::string> dest_seen;
  if (const YAML::Node rs = p.list(root, "routes"))
    for (const auto& n : rs) {
      if (!n.IsMap() || !n["from"] || !n["to"]) { p.error(n, "a route is {from: {tile: T, port: mm2sN}, to: {tile: T, port: s2mmN}}"); continue; }
      p.check_keys(n, {"from", "to"});
      RouteSpec r;
      r.line = p.line_of(n);
      bool ok = true;
      for (auto [key, tile, ch] : {std::tuple{"from", &r.from_tile, &r.from}, std::tuple{"to", &r.to_tile, &r.to}}) {
        const YAML::Node e = n[key];
        if (!e.IsMap()) { p.error(e, std::string("'") + key + "' must be {tile: T, port: P}"); ok = false; break; }
        p.check_keys(e, {"tile", "port"});
        if (!p.tile(e["tile"], *tile) || !p.channel(e["port"], *tile, *ch)) { ok = false; break; }
      }
      if (!ok) continue;
      if (!r.from.mm2s || r.to.mm2s) {
        p.error(n, "a route goes from an MM2S port to an S2MM port");
        continue;
      }
      const std::string dest = r.to_tile.name() + "." + r.to.name();
      if (!dest_seen.insert(dest).second) {
        p.error(n, dest + " already has a route into it", "circuit-switched: one source per S2MM channel");
        continue;
      }
      out.routes.push_back(r);
    }

  // A channel with BDs needs a stream: an MM2S a route out, an S2MM a route in.
  for (const BdSpec& bd : out.bds) {
    bool routed = false;
    for (const RouteSpec& r : out.routes)
      if (bd.channel.mm2s ? (r.from_tile == bd.tile && r.from.index == bd.channel.index)
                          : (r.to_tile == bd.tile && r.to.index == bd.channel.index))
        routed = true;
    if (!routed) {
      isa::Diagnostic d;
      d.file = file;
      d.line = bd.line;
      d.col = 1;
      d.token = bd.name;
      d.message = "BD '" + bd.name + "' runs on " + bd.tile.name() + " " + bd.channel.name() + ", which has no route " +
                  (bd.channel.mm2s ? "out" : "in");
      d.hint = "add a route with " + std::string(bd.channel.mm2s ? "from" : "to") + ": {tile: ..., port: " +
               bd.channel.name() + "}";
      diags.push_back(d);
      p.ok = false;
    }
  }

  // Every BD must be reachable from its channel's first BD (the channel starts there).
  std::map<std::string, int> first_bd;
  for (size_t i = 0; i < out.bds.size(); ++i)
    first_bd.emplace(out.bds[i].tile.name() + "." + out.bds[i].channel.name(), static_cast<int>(i));
  std::vector<bool> reached(out.bds.size(), false);
  for (const auto& [key, start] : first_bd)
    for (int b = start; b >= 0 && !reached[b]; b = out.bds[b].next) reached[b] = true;
  for (size_t i = 0; i < out.bds.size(); ++i)
    if (!reached[i]) {
      isa::Diagnostic d;
      d.file = file;
      d.line = out.bds[i].line;
      d.col = 1;
      d.token = out.bds[i].name;
      d.message = "BD '" + out.bds[i].name + "' is never started";
      d.hint = "a channel starts at its first listed BD; chain this one with 'next'";
      diags.push_back(d);
      p.ok = false;
    }
  return p.ok;
}

}  // namespace

bool parse_movement(const std::string& text, const std::string& file, uint32_t first_line, const AieConfig& cfg,
                    MovementSpec& out, std::vector<isa::Diagnostic>& diags) {
  try {
    return parse_movement_impl(text, file, first_line, cfg, out, diags);
  } catch (const YAML::Exception& e) {
    // Shapes the checks above did not anticipate still end in a diagnostic, never a crash.
    isa::Diagnostic d;
    d.file = file;
    // An error at the end of the text (an unclosed flow) is marked one line past its last
    // line; name the last line instead.
    const uint32_t last_line = first_line + static_cast<uint32_t>(std::max<ptrdiff_t>(
                                                std::count(text.begin(), text.end(), '\n') - (text.empty() || text.back() == '\n'), 0));
    d.line = std::min(last_line, first_line + static_cast<uint32_t>(std::max(0, e.mark.line)));
    d.col = static_cast<uint32_t>(std::max(0, e.mark.column) + 1);
    d.message = "data-movement YAML: " + e.msg;
    diags.push_back(d);
    return false;
  }
}

}  // namespace tlmcraft::aie_ml
