//! The kubegen engine: the single source of truth for every schema, CRD and RBAC rule.
//!
//! An internal crate: depend on `kubegen` (the package `kubegen-rs`), which re-exports what a
//! user needs and pins this crate with `=`. The items here serve kubegen's derive and CLI; they
//! change with them, in any release.
//!
//! Data flows through the modules in this order:
//! `parse` (Rust syntax → [`model`]) → [`schema`] (model → OpenAPI schema, with [`known`]
//! types' schemas) → [`check`] (values, structural and CEL rules) → [`crd`] / [`rbac`] /
//! [`webhook`] (Kubernetes objects) → [`render`] (YAML); [`diff`] compares two CRDs for upgrade
//! safety, [`docs`] writes API reference pages, and [`apply`] plans each type's apply
//! configuration from the model and extracts what one field manager owns. [`names`] holds the
//! naming rules every stage shares.
//!
//! The modules are layers by what each uses, which is not the data flow: the checks sit under
//! the stages that apply them as they build (`schema` reports a bad default as it builds it),
//! the schema node, [`model::Schema`], is part of the model, and the parser is on top, since
//! it checks each marker's value as it reads it. The layers are listed above the module
//! declarations, and `gen-cli/tests/layers.rs` checks them.

#![deny(missing_docs)]

// Layers, lowest first: a module uses only modules of the layers before its own
// (`gen-cli/tests/layers.rs` checks this list).
// 1. names, render: the naming rules every stage shares; YAML output
// 2. model: types, fields, markers, resources and the schema node
// 3. check: the rules on values, schemas and CEL, which the stages after it apply
// 4. known: the schemas of std, chrono, jiff and Kubernetes types
// 5. schema: model → OpenAPI schema
// 6. rbac, webhook: RBAC rules and webhook configurations from the model
// 7. crd: CRD objects from the schemas (and a conversion webhook)
// 8. diff, docs: upgrade safety of one CRD against another; API reference pages
// 9. parse: Rust syntax → model, each marker's value checked as it is read
// 10. apply: apply configurations planned from parsed types
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
