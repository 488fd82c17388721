//! Deterministic YAML output, byte-identical to controller-gen's.
//!
//! controller-gen marshals every object to JSON (Go `encoding/json`), reads that back with
//! `gopkg.in/yaml.v2` v2.4.0 and marshals it again with yaml.v2. [`to_yaml`] and
//! [`to_yaml_documents`] render a [`serde_json::Value`] exactly as that pipeline does:
//! keys sorted with yaml.v2's order ([`key_order`]), yaml.v2's scalar styles and number
//! spelling, libyaml's block layout, and long scalars folded at width 80.

mod yaml;

pub use yaml::{key_order, to_yaml, to_yaml_documents};
