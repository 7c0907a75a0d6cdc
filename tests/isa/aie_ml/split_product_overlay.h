// The split-precision product the silu, gelu, rmsnorm and layernorm baselines write as a
// VMUL.E.BF16 then a VMAC.E.BF16 on the same accumulator (d = a * hi + a * lo in fp32),
// as one composed op of the vector slot with VMAC latency: an AIE-ML overlay several tests add.
#pragma once

namespace tlmcraft::test {

inline constexpr const char* kAieMulSplitOverlay = R"(
  - mnemonic: VMULS.E.BF16
    slot: vec
    latency: vmac
    doc: "Product of 16 bf16 lanes by a constant split into bf16 hi + lo: d = a hi + a lo in fp32."
    operands:
      - {name: d, class: bm, role: write, format: fp32}
      - {name: a, class: w, format: bf16}
      - {name: hi, class: w, format: bf16}
      - {name: lo, class: w, format: bf16}
    compose:
      temps: [{name: t, class: bm}]
      steps:
        - "VMUL.E.BF16 t, a, hi"
        - "VMAC.E.BF16 d, t, a, lo"
)";

}  // namespace tlmcraft::test
