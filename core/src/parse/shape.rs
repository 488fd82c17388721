//! Rust types → shapes. The syntax is walked here once; resolving a path is the front end's
//! job ([`Resolver`]): the CLI resolves through the crate's modules, the derive guesses from
//! the path as written ([`Syntactic`]) for its compile-time checks.

use syn::spanned::Spanned;
use syn::{Expr, GenericArgument, Lit, PathArguments, Type};

use crate::known;
use crate::model::Shape;

/// Turns a type path into a shape.
pub trait Resolver {
    /// The shape of the type `path` names, given its generic arguments' shapes. An `Err` is a
    /// message for the path's location.
    fn resolve(&self, path: &syn::Path, args: Vec<Shape>) -> Result<Shape, String>;
}

/// The shape of a Rust type.
pub fn shape_of(ty: &Type, r: &dyn Resolver) -> syn::Result<Shape> {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            let args = generic_args(&p.path)
                .map(|t| shape_of(t, r))
                .collect::<syn::Result<Vec<_>>>()?;
            // At the type's name (a path's last segment), where rustc points at a type it
            // cannot find: one token, which both front ends underline alike.
            let name = p
                .path
                .segments
                .last()
                .map_or_else(|| p.path.span(), |s| s.ident.span());
            r.resolve(&p.path, args)
                .map_err(|msg| syn::Error::new(name, msg))
        }
        Type::Reference(t) => shape_of(&t.elem, r),
        Type::Paren(t) => shape_of(&t.elem, r),
        Type::Group(t) => shape_of(&t.elem, r),
        Type::Slice(t) => Ok(Shape::Seq {
            item: Box::new(shape_of(&t.elem, r)?),
            set: false,
            len: None,
        }),
        Type::Array(t) => {
            let len = match &t.len {
                Expr::Lit(lit) => match &lit.lit {
                    Lit::Int(n) => n.base10_parse::<u64>().ok(),
                    _ => None,
                },
                _ => None,
            };
            let Some(len) = len else {
                return Err(syn::Error::new(
                    t.len.span(),
                    "write the array length as a number: kubegen reads it from the source \
                     (it becomes minItems and maxItems)",
                ));
            };
            Ok(Shape::Seq {
                item: Box::new(shape_of(&t.elem, r)?),
                set: false,
                len: Some(len),
            })
        }
        Type::Tuple(t) if t.elems.is_empty() => Err(syn::Error::new(
            t.span(),
            "`()` serializes as `null`, which a CRD schema cannot describe",
        )),
        Type::Tuple(t) => Err(syn::Error::new(
            t.span(),
            "a tuple serializes as a JSON array of mixed types, which a CRD schema cannot \
             describe: use a struct with named fields",
        )),
        other => Err(syn::Error::new(
            other.span(),
            "this type has no JSON form a CRD schema can describe",
        )),
    }
}

/// The type arguments of a path's last segment (lifetimes and consts skipped).
pub fn generic_args(path: &syn::Path) -> impl Iterator<Item = &Type> {
    path.segments
        .last()
        .into_iter()
        .flat_map(|seg| match &seg.arguments {
            PathArguments::AngleBracketed(a) => a.args.iter().collect::<Vec<_>>(),
            _ => Vec::new(),
        })
        .filter_map(|arg| match arg {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        })
}

/// The path without generic arguments, `a::b::C`.
pub fn path_string(path: &syn::Path) -> String {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let joined = segments.join("::");
    if path.leading_colon.is_some() {
        format!("::{joined}")
    } else {
        joined
    }
}

/// `X` when `ty` is written `Option<X>` (or `std::option::Option<X>`, `core::...`).
///
/// The derive names an optional field's schema, checks and apply configuration through `X`,
/// whose schema `Option` only marks as not required: the compiler then meets a type without a
/// schema in one way everywhere (`X: KubeSchema`), and reports it once, at `X`.
pub fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    if p.qself.is_some() {
        return None;
    }
    let written = path_string(&p.path);
    let option = written == "Option" || known::canonical(&written) == "std::option::Option";
    let mut args = generic_args(&p.path);
    match (option, args.next(), args.next()) {
        (true, Some(inner), None) => Some(inner),
        _ => None,
    }
}

/// What the derive can tell from a path as written, without name resolution: primitives,
/// prelude names, common std collections by name, and full paths to known types; a std path
/// to any other type is an error. Anything else is [`Shape::Opaque`] (checked later, at run
/// time or by the CLI).
pub struct Syntactic;

/// Names the derive takes for std types when written alone.
const STD_NAMES: &[(&str, &str)] = &[
    ("String", "std::string::String"),
    ("Vec", "std::vec::Vec"),
    ("Option", "std::option::Option"),
    ("Box", "std::boxed::Box"),
    ("BTreeMap", "std::collections::BTreeMap"),
    ("HashMap", "std::collections::HashMap"),
    ("BTreeSet", "std::collections::BTreeSet"),
    ("HashSet", "std::collections::HashSet"),
    ("VecDeque", "std::collections::VecDeque"),
    ("Arc", "std::sync::Arc"),
    ("Rc", "std::rc::Rc"),
    ("Cow", "std::borrow::Cow"),
];

impl Resolver for Syntactic {
    fn resolve(&self, path: &syn::Path, args: Vec<Shape>) -> Result<Shape, String> {
        let written = path_string(path);
        let canonical = match STD_NAMES.iter().find(|(name, _)| *name == written) {
            Some((_, full)) => full.to_string(),
            None => known::canonical(&written),
        };
        // The derive's view: the Kubernetes version k8s-openapi is compiled for.
        match known::lookup(&canonical, args, &known::Kubernetes::compiled()) {
            Some(result) => result,
            // Only kubegen can give a std type a schema (the orphan rule): one it has not is
            // the derive's error, not the compiler's at each use of the type.
            None if canonical.starts_with("std::") => Err(known::unknown_foreign(&canonical)),
            None => Ok(Shape::Opaque(written)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Scalar;

    fn shape(src: &str) -> syn::Result<Shape> {
        shape_of(&syn::parse_str(src).unwrap(), &Syntactic)
    }

    #[test]
    fn std_types_by_syntax() {
        assert_eq!(
            format!(
                "{:?}",
                shape("Option<Vec<std::collections::BTreeMap<String, u8>>>").unwrap()
            ),
            "Option<Vec<Map<String, Int { wide: false, unsigned: true }>>>"
        );
        assert_eq!(
            shape("&'static str").unwrap(),
            Shape::Scalar(Scalar::String)
        );
        assert_eq!(
            format!("{:?}", shape("[i32; 3]").unwrap()),
            "[Int { wide: false, unsigned: false }; 3]"
        );
        assert_eq!(shape("MyType").unwrap(), Shape::Opaque("MyType".into()));
        assert_eq!(
            format!("{:?}", shape("Vec<MyType>").unwrap()),
            "Vec<Opaque(MyType)>"
        );
    }

    #[test]
    fn the_inside_of_an_option_as_written() {
        let inner = |src: &str| {
            let ty: Type = syn::parse_str(src).unwrap();
            option_inner(&ty).map(|t| quote::ToTokens::to_token_stream(t).to_string())
        };
        assert_eq!(inner("Option<Vec<Port>>").as_deref(), Some("Vec < Port >"));
        assert_eq!(inner("::core::option::Option<u8>").as_deref(), Some("u8"));
        assert_eq!(
            inner("std::option::Option<Option<u8>>").as_deref(),
            Some("Option < u8 >")
        );
        assert_eq!(inner("Vec<Option<u8>>"), None);
        assert_eq!(inner("my::Option<u8>"), None);
        assert_eq!(inner("<T as Tr>::Option"), None);
    }

    #[test]
    fn unsupported_types_are_errors() {
        assert!(
            shape("(i32, String)")
                .unwrap_err()
                .to_string()
                .contains("tuple")
        );
        assert!(
            shape("[u8; N]")
                .unwrap_err()
                .to_string()
                .contains("array length")
        );
        assert!(
            shape("BTreeMap<Vec<u8>, String>")
                .unwrap_err()
                .to_string()
                .contains("map keys")
        );
    }
}
