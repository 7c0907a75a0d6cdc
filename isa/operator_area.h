// Area of the arithmetic operators an added instruction's datapath is built from, 45 nm,
// from Horowitz, ISSCC 2014 [H14] (docs/energy-area.md, "Sources"): one table for every
// ISA, keyed like the energy actions (isa/actions.h: add mul mac cmp logic convert move
// exp log sqrt rsqrt recip div, formats int8 int16 int32 int64 bf16 fp16 fp32; i8 i16
// i32 i64 f16 f32 accepted). Measured points: adders int8 36, int32 137, fp16 1360,
// fp32 4184 um2; multipliers int8 282, int32 3495, fp16 1640, fp32 7700 um2. Derived
// (the arithmetic is the derivation): int16 log-linear between the 8- and 32-bit points
// (adder 70.2, multiplier 992.8 um2, as the energy table does); int64 add = two 32-bit
// adders; bf16 priced as fp16 (an upper bound: an 8-bit significand multiplier is
// smaller); a MAC = the multiplier plus the accumulator's adder (int8 -> int32,
// int16/int32 -> int64, bf16/fp16 -> fp32); a compare, a logic op and a format conversion
// = one adder of the format (assumptions); a move = 0; exp and log = 2 multipliers + 2
// adders (range reduction and a polynomial), recip, sqrt and rsqrt = 2 multipliers + 1
// adder (a Newton-Raphson step), div = recip + 1 multiplier (assumptions). Pipeline
// registers: flip-flop 4.522 um2 (DFF_X1) and 2:1 multiplexer 1.862 um2 (MUX2_X1) of the
// NanGate 45 nm Open Cell Library [N45].
#pragma once
#include <string>

namespace tlmcraft::isa {

constexpr double kFlipFlopUm2 = 4.522, kMux2Um2 = 1.862;  // [N45]

// The area of one operator `op` on values of `format`, um2; false when the table does
// not price it.
bool operator_area_um2(const std::string& op, const std::string& format, double& um2);

// A MAC on `format` accumulating in `accumulator` (a format): the multiplier plus the
// accumulator's adder. operator_area_um2("mac") accumulates as above; a platform whose
// MAC accumulates at the element width (Coral's vmacc) passes `format` twice.
bool mac_area_um2(const std::string& format, const std::string& accumulator, double& um2);

// The same for an action name "<unit>.<op>.<format>" (the unit is ignored).
bool action_area_um2(const std::string& action, double& um2);

// One more write port on a register file of `registers` x `bits` flip-flops: each bit's
// input gets a 2:1 multiplexer choosing the new port's data over the existing port's
// [N45] (a flip-flop file writes a bit through its input multiplexer; the port's address
// decoder and enables are control logic, which the area model leaves out,
// docs/energy-area.md "Not modelled"). 16 x 32 bits: 512 x 1.862 = 953.3 um2.
double register_write_port_um2(int registers, int bits);

}  // namespace tlmcraft::isa
