"""Evidence layer: governance gates, per-slot coverage, conflicts → DecisionResult.

Public API: `EvidenceEvaluator` (evaluator), `response_status` (status), `body_supports`
and `amount_rules` (body). See DESIGN.md and seed 000 证据资格与结论校验.
"""
