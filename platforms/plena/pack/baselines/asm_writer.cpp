#include "platforms/plena/pack/baselines/asm_writer.h"

#include <stdexcept>

namespace tlmcraft::tasks::plena {

std::string gp(int r) { return "gp" + std::to_string(r); }

void AsmWriter::op(const std::string& text, const std::string& comment) {
  std::string line = std::string(2 * indent_, ' ') + text;
  if (!comment.empty()) {
    if (line.size() < 36) line.resize(36, ' ');
    line += " ; " + comment;
  }
  out_ << line << "\n";
}

void AsmWriter::comment(const std::string& text) { out_ << std::string(2 * indent_, ' ') << "; " << text << "\n"; }

void AsmWriter::add_const(int rd, int rs, uint64_t value, const std::string& comment) {
  constexpr uint64_t kImm18 = (1u << 18) - 1;
  if (value >> 32) throw std::out_of_range("constant does not fit 32 bits");
  if (value <= kImm18) {
    op("S_ADDI_INT " + gp(rd) + ", " + gp(rs) + ", " + std::to_string(value), comment);
    return;
  }
  if (rd == rs) throw std::invalid_argument("large constant added in place needs a scratch register");
  op("S_LUI_INT " + gp(rd) + ", " + std::to_string(value >> 12), comment);
  if (value & 0xFFF) op("S_ADDI_INT " + gp(rd) + ", " + gp(rd) + ", " + std::to_string(value & 0xFFF));
  if (rs != 0) op("S_ADD_INT " + gp(rd) + ", " + gp(rd) + ", " + gp(rs));
}

void AsmWriter::set_addr(int ad, int tmp, uint64_t value, const std::string& comment) {
  set(tmp, value, comment);
  op("C_SET_ADDR_REG a" + std::to_string(ad) + ", gp0, " + gp(tmp));  // {high, low}
}

void AsmWriter::loop_start(int counter, uint32_t count, const std::string& comment) {
  op("C_LOOP_START " + gp(counter) + ", " + std::to_string(count), comment);
  ++indent_;
}

void AsmWriter::loop_end(int counter) {
  --indent_;
  op("C_LOOP_END " + gp(counter));
}

}  // namespace tlmcraft::tasks::plena
