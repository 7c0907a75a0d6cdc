#include "platforms/coral/elf_image.h"

#include <elf.h>

#include <algorithm>
#include <cstring>

namespace tlmcraft::coral {
namespace {

template <typename T>
bool read_at(const std::vector<uint8_t>& f, uint64_t off, T& out) {
  if (off > f.size() || sizeof(T) > f.size() - off) return false;
  std::memcpy(&out, f.data() + off, sizeof(T));
  return true;
}

}  // namespace

std::string read_elf_image(const std::vector<uint8_t>& f, isa::Program& p) {
  Elf32_Ehdr eh;
  if (!read_at(f, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return "not an ELF file";
  if (eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
    return "not a 32-bit little-endian ELF file";
  if (eh.e_machine != EM_RISCV) return "not a RISC-V ELF file (e_machine " + std::to_string(eh.e_machine) + ")";
  if (eh.e_phentsize != sizeof(Elf32_Phdr) && eh.e_phnum > 0) return "unexpected program header size";

  p.segments.clear();
  p.symbols.clear();
  p.entry = eh.e_entry;
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf32_Phdr ph;
    if (!read_at(f, uint64_t(eh.e_phoff) + uint64_t(i) * sizeof(Elf32_Phdr), ph)) return "truncated program headers";
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    if (ph.p_filesz > ph.p_memsz) return "segment file size exceeds its memory size";
    if (uint64_t(ph.p_offset) + ph.p_filesz > f.size()) return "segment extends past the end of the file";
    isa::Segment s;
    s.address = ph.p_vaddr;
    s.bytes.assign(f.begin() + ph.p_offset, f.begin() + ph.p_offset + ph.p_filesz);
    s.mem_size = ph.p_memsz;
    s.executable = (ph.p_flags & PF_X) != 0;
    s.writable = (ph.p_flags & PF_W) != 0;
    p.segments.push_back(std::move(s));
  }

  // Symbols: the first SHT_SYMTAB and its string table.
  if (eh.e_shentsize == sizeof(Elf32_Shdr)) {
    for (unsigned i = 0; i < eh.e_shnum; ++i) {
      Elf32_Shdr sh;
      if (!read_at(f, uint64_t(eh.e_shoff) + uint64_t(i) * sizeof(Elf32_Shdr), sh)) return "truncated section headers";
      if (sh.sh_type != SHT_SYMTAB) continue;
      Elf32_Shdr strsh;
      if (!read_at(f, uint64_t(eh.e_shoff) + uint64_t(sh.sh_link) * sizeof(Elf32_Shdr), strsh)) return "bad symbol string table";
      for (uint64_t off = sh.sh_offset; off + sizeof(Elf32_Sym) <= uint64_t(sh.sh_offset) + sh.sh_size; off += sizeof(Elf32_Sym)) {
        Elf32_Sym sym;
        if (!read_at(f, off, sym)) break;
        const unsigned type = ELF32_ST_TYPE(sym.st_info);
        if ((type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE) || sym.st_name == 0 || sym.st_shndx == SHN_UNDEF)
          continue;
        const uint64_t name_off = uint64_t(strsh.sh_offset) + sym.st_name;
        if (name_off >= f.size()) continue;
        const char* name = reinterpret_cast<const char*>(f.data() + name_off);
        const size_t len = strnlen(name, f.size() - name_off);
        std::string n(name, len);
        if (n.empty() || n[0] == '.' || n.rfind("$x", 0) == 0 || n.rfind("$d", 0) == 0) continue;  // local labels, mapping symbols
        p.symbols.emplace_back(std::move(n), sym.st_value);
      }
      break;
    }
  }
  std::stable_sort(p.symbols.begin(), p.symbols.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return "";
}

}  // namespace tlmcraft::coral
