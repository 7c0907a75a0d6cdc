#include "bench/coral_fidelity/elf_writer.h"

#include <elf.h>

#include <cstring>

namespace tlmcraft::bench {

namespace {

template <typename T>
void put(std::vector<uint8_t>& out, size_t at, const T& value) {
  std::memcpy(out.data() + at, &value, sizeof value);
}

}  // namespace

std::vector<uint8_t> write_elf32(const isa::Program& program) {
  const size_t n = program.segments.size();
  const size_t headers = sizeof(Elf32_Ehdr) + n * sizeof(Elf32_Phdr);
  size_t size = headers;
  for (const auto& s : program.segments) size += s.bytes.size();
  std::vector<uint8_t> out(size, 0);

  Elf32_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS32;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_EXEC;
  eh.e_machine = EM_RISCV;
  eh.e_version = EV_CURRENT;
  eh.e_entry = static_cast<Elf32_Addr>(program.entry);
  eh.e_phoff = sizeof(Elf32_Ehdr);
  eh.e_ehsize = sizeof(Elf32_Ehdr);
  eh.e_phentsize = sizeof(Elf32_Phdr);
  eh.e_phnum = static_cast<Elf32_Half>(n);
  put(out, 0, eh);

  size_t data_at = headers;
  for (size_t i = 0; i < n; ++i) {
    const isa::Segment& s = program.segments[i];
    Elf32_Phdr ph{};
    ph.p_type = PT_LOAD;
    ph.p_offset = static_cast<Elf32_Off>(data_at);
    ph.p_vaddr = ph.p_paddr = static_cast<Elf32_Addr>(s.address);
    ph.p_filesz = static_cast<Elf32_Word>(s.bytes.size());
    ph.p_memsz = static_cast<Elf32_Word>(std::max<uint64_t>(s.mem_size, s.bytes.size()));
    ph.p_flags = PF_R | (s.writable ? PF_W : 0) | (s.executable ? PF_X : 0);
    ph.p_align = 4;
    put(out, sizeof(Elf32_Ehdr) + i * sizeof(Elf32_Phdr), ph);
    if (!s.bytes.empty()) std::memcpy(out.data() + data_at, s.bytes.data(), s.bytes.size());
    data_at += s.bytes.size();
  }
  return out;
}

}  // namespace tlmcraft::bench
