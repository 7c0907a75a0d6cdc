// Builds PLENA assembly text the way a template compiler does: one instruction per line
// with a comment, constants materialised with S_ADDI_INT / S_LUI_INT.
#pragma once
#include <cstdint>
#include <sstream>
#include <string>

namespace tlmcraft::tasks::plena {

class AsmWriter {
 public:
  // Appends "MNEMONIC operands ; comment".
  void op(const std::string& text, const std::string& comment = "");
  void comment(const std::string& text);
  void blank() { out_ << "\n"; }
  // gp[rd] = gp[rs] + value for any 32-bit value (S_ADDI_INT, or S_LUI_INT + S_ADDI_INT + S_ADD_INT).
  void add_const(int rd, int rs, uint64_t value, const std::string& comment = "");
  // gp[rd] = value.
  void set(int rd, uint64_t value, const std::string& comment = "") { add_const(rd, 0, value, comment); }
  // a[ad] = value (byte address below 2^32).
  void set_addr(int ad, int tmp, uint64_t value, const std::string& comment = "");
  void loop_start(int counter, uint32_t count, const std::string& comment = "");
  void loop_end(int counter);
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
  int indent_ = 0;
};

std::string gp(int r);

}  // namespace tlmcraft::tasks::plena
