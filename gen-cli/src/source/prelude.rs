//! The names every module sees without importing them: the types and traits of the std
//! prelude (Rust 2021/2024), and the primitive types.

/// The prelude's type-namespace names, each with its module in `std`.
pub(super) const PRELUDE: &[(&str, &str)] = &[
    ("Option", "option"),
    ("Result", "result"),
    ("Vec", "vec"),
    ("String", "string"),
    ("ToString", "string"),
    ("Box", "boxed"),
    ("ToOwned", "borrow"),
    ("Clone", "clone"),
    ("Copy", "marker"),
    ("Send", "marker"),
    ("Sized", "marker"),
    ("Sync", "marker"),
    ("Unpin", "marker"),
    ("Drop", "ops"),
    ("Fn", "ops"),
    ("FnMut", "ops"),
    ("FnOnce", "ops"),
    ("AsyncFn", "ops"),
    ("AsyncFnMut", "ops"),
    ("AsyncFnOnce", "ops"),
    ("Default", "default"),
    ("Eq", "cmp"),
    ("PartialEq", "cmp"),
    ("Ord", "cmp"),
    ("PartialOrd", "cmp"),
    ("AsMut", "convert"),
    ("AsRef", "convert"),
    ("From", "convert"),
    ("Into", "convert"),
    ("TryFrom", "convert"),
    ("TryInto", "convert"),
    ("Iterator", "iter"),
    ("IntoIterator", "iter"),
    ("Extend", "iter"),
    ("DoubleEndedIterator", "iter"),
    ("ExactSizeIterator", "iter"),
    ("FromIterator", "iter"),
    ("Future", "future"),
    ("IntoFuture", "future"),
];

/// The primitive types, by name.
pub(super) const PRIMITIVES: &[&str] = &[
    "bool", "char", "str", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64",
    "u128", "usize", "f32", "f64",
];

/// `["std", "option", "Option"]` for `Option`: the std path of a prelude name.
pub(super) fn std_path(name: &str) -> Option<Vec<String>> {
    let (name, module) = PRELUDE.iter().find(|(n, _)| *n == name)?;
    Some(vec![
        "std".to_owned(),
        (*module).to_owned(),
        (*name).to_owned(),
    ])
}

/// The primitive type called `name`, if there is one.
pub(super) fn primitive(name: &str) -> Option<&'static str> {
    PRIMITIVES.iter().copied().find(|p| *p == name)
}
