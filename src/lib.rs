//! kubegen: controller-gen for Rust.
