"""Answer layer: grounded composers (extractive + model), the claim verifier and rendering.

Public API: `compose.compose_for` / `should_compose`, `extractive.ExtractiveComposer`,
`model.ModelComposer`, `verifier.ClaimVerifier`, `gated.GatedEvidence`,
`render.render_answer_text` / `citation_order`. See DESIGN.md and seed 000.
"""
