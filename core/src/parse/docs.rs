//! Doc comments → `description`: lines joined with `\n`, one leading space trimmed, leading and
//! trailing blank lines dropped.

use syn::{Attribute, Expr, Lit, Meta};

/// The processed doc comment of an item, if it has one.
pub fn doc(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(lit) => match &lit.lit {
                    Lit::Str(s) => Some(s.value()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .flat_map(|text| text.split('\n').map(str::to_string).collect::<Vec<_>>())
        .map(|line| {
            let line = line.strip_prefix(' ').unwrap_or(&line);
            line.trim_end().to_string()
        })
        .collect();
    let first = lines.iter().position(|l| !l.is_empty())?;
    let last = lines.iter().rposition(|l| !l.is_empty())?;
    Some(lines.get(first..=last)?.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::doc;

    #[test]
    fn doc_comments_become_descriptions() {
        let item: syn::ItemStruct = syn::parse_str(
            "///\n/// Size is the number of pods.\n///   Indented stays indented.\n///\n/// Second paragraph.\n///\nstruct S;",
        )
        .unwrap();
        assert_eq!(
            doc(&item.attrs).unwrap(),
            "Size is the number of pods.\n  Indented stays indented.\n\nSecond paragraph."
        );
        let bare: syn::ItemStruct = syn::parse_str("struct S;").unwrap();
        assert_eq!(doc(&bare.attrs), None);
    }
}
