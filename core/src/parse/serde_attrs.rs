//! The `#[serde(...)]` attributes that change a type's JSON form. Others are skipped: serde
//! itself reports malformed ones.

use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitStr, Token};

use crate::model::{ContainerAttrs, FieldAttrs, RenameRule, SerdeDefault, VariantAttrs};

/// A container's serde attributes.
pub fn container(attrs: &[Attribute]) -> syn::Result<ContainerAttrs> {
    let mut out = ContainerAttrs::default();
    each(attrs, |key, meta| {
        match key {
            "rename_all" => out.rename_all = rename_rule(meta)?,
            "rename_all_fields" => out.rename_all_fields = rename_rule(meta)?,
            "tag" => out.tag = Some(string(meta)?),
            "content" => out.content = Some(string(meta)?),
            "untagged" => out.untagged = true,
            "transparent" => out.transparent = true,
            "default" => out.default = Some(serde_default(meta)?),
            "into" => out.into = Some(string(meta)?),
            _ => skip_value(meta)?,
        }
        Ok(())
    })?;
    Ok(out)
}

/// A field's serde attributes.
pub fn field(attrs: &[Attribute]) -> syn::Result<FieldAttrs> {
    let mut out = FieldAttrs::default();
    each(attrs, |key, meta| {
        match key {
            "rename" => out.rename = serialize_name(meta)?,
            "skip" | "skip_serializing" => out.skip = true,
            "flatten" => out.flatten = true,
            "default" => out.default = Some(serde_default(meta)?),
            "skip_serializing_if" => {
                skip_value(meta)?;
                out.skip_serializing_if = true;
            }
            "with" | "serialize_with" => {
                skip_value(meta)?;
                out.custom = true;
            }
            _ => skip_value(meta)?,
        }
        Ok(())
    })?;
    Ok(out)
}

/// A variant's serde attributes.
pub fn variant(attrs: &[Attribute]) -> syn::Result<VariantAttrs> {
    let mut out = VariantAttrs::default();
    each(attrs, |key, meta| {
        match key {
            "rename" => out.rename = serialize_name(meta)?,
            "rename_all" => out.rename_all = rename_rule(meta)?,
            "skip" | "skip_serializing" => out.skip = true,
            "untagged" => out.untagged = true,
            _ => skip_value(meta)?,
        }
        Ok(())
    })?;
    Ok(out)
}

fn each(
    attrs: &[Attribute],
    mut f: impl FnMut(&str, &ParseNestedMeta) -> syn::Result<()>,
) -> syn::Result<()> {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            f(&key, &meta)
        })?;
    }
    Ok(())
}

fn string(meta: &ParseNestedMeta) -> syn::Result<String> {
    Ok(meta.value()?.parse::<LitStr>()?.value())
}

/// `rename = "x"` or `rename(serialize = "x", deserialize = "y")`: the serialize side.
fn serialize_name(meta: &ParseNestedMeta) -> syn::Result<Option<String>> {
    if meta.input.peek(Token![=]) {
        return string(meta).map(Some);
    }
    let mut name = None;
    meta.parse_nested_meta(|inner| {
        let value = string(&inner)?;
        if inner.path.is_ident("serialize") {
            name = Some(value);
        }
        Ok(())
    })?;
    Ok(name)
}

/// `default` (`Default::default()`) or `default = "path"` (a function).
fn serde_default(meta: &ParseNestedMeta) -> syn::Result<SerdeDefault> {
    if meta.input.peek(Token![=]) {
        string(meta).map(SerdeDefault::Function)
    } else {
        Ok(SerdeDefault::Trait)
    }
}

fn rename_rule(meta: &ParseNestedMeta) -> syn::Result<Option<RenameRule>> {
    let Some(name) = serialize_name(meta)? else {
        return Ok(None);
    };
    match RenameRule::from_name(&name) {
        Some(rule) => Ok(Some(rule)),
        None => Err(meta.error(format!("unknown serde rename rule `{name}`"))),
    }
}

/// Consumes `= value` or `(...)` after a key we do not interpret.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(src: &str) -> Vec<Attribute> {
        let item: syn::ItemStruct = syn::parse_str(&format!("{src} struct S;")).unwrap();
        item.attrs
    }

    #[test]
    fn containers() {
        let c = container(&attrs(
            r#"#[serde(rename_all = "camelCase", tag = "kind", deny_unknown_fields)] #[serde(default, bound(serialize = "T: X"))]"#,
        ))
        .unwrap();
        assert_eq!(c.rename_all, Some(RenameRule::Camel));
        assert_eq!(c.tag.as_deref(), Some("kind"));
        assert_eq!(c.default, Some(SerdeDefault::Trait));
        let c = container(&attrs(r#"#[serde(default = "Self::fallback")]"#)).unwrap();
        assert_eq!(
            c.default,
            Some(SerdeDefault::Function("Self::fallback".into()))
        );
        let e = container(&attrs(r#"#[serde(rename_all = "camelcase")]"#)).unwrap_err();
        assert!(e.to_string().contains("unknown serde rename rule"));
    }

    #[test]
    fn fields() {
        let f = field(&attrs(
            r#"#[serde(rename(serialize = "a", deserialize = "b"), skip_serializing_if = "Option::is_none", default = "d", alias = "z")]"#,
        ))
        .unwrap();
        assert_eq!(f.rename.as_deref(), Some("a"));
        assert!(f.skip_serializing_if && !f.skip);
        assert_eq!(f.default, Some(SerdeDefault::Function("d".into())));
        let plain = field(&attrs("#[serde(skip_serializing)]")).unwrap();
        assert!(plain.skip && plain.default.is_none());
        let f = field(&attrs("#[serde(default)]")).unwrap();
        assert_eq!(f.default, Some(SerdeDefault::Trait));
    }
}
