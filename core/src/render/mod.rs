//! Deterministic YAML output.
