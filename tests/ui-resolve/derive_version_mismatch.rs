//! What every derive expansion holds, with a `kubegen-derive` version other than kubegen's (two
//! versions of kubegen in one build): one error naming the fix, not a panic in `crd()`.

kubegen::__private::derive_version!("0.0.0-other");

fn main() {}
