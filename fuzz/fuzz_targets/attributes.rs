//! Attribute arguments (the bytes, as text) into every attribute parser of the engine:
//! `kube_marker`, `rbac`, `webhook`, `webhook_configuration` and serde's.

#![no_main]

#[path = "../../core/tests/support/properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(args) = std::str::from_utf8(data) {
        properties::every_attribute(args);
    }
    proc_macro2::extra::invalidate_current_thread_spans();
});
