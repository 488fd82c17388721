//! The kubegen engine: the single source of truth for every schema, CRD and RBAC rule.
//!
//! Data flows through the modules in this order:
//! `parse` (Rust syntax → [`model`]) → [`schema`] (model → OpenAPI schema, with [`known`]
//! types' schemas) → [`check`] (values, structural and CEL rules) → [`crd`] / [`rbac`] /
//! [`webhook`] (Kubernetes objects) → [`render`] (YAML); [`diff`] compares two CRDs for upgrade
//! safety, [`docs`] writes API reference pages, and [`apply`] plans each type's apply
//! configuration from the model and extracts what one field manager owns. [`names`] holds the
//! naming rules every stage shares. Each module uses only those before it (the schema node,
//! [`model::Schema`], is part of the model), and `gen-cli/tests/layers.rs` keeps it so.

#![deny(missing_docs)]

pub mod apply;
pub mod check;
pub mod crd;
pub mod diff;
#[cfg(feature = "k8s")]
pub mod docs;
pub mod known;
pub mod model;
pub mod names;
#[cfg(feature = "parse")]
pub mod parse;
pub mod rbac;
pub mod render;
pub mod schema;
pub mod webhook;
