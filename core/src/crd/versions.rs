//! Several versions of one kind → one CRD: CRD-wide settings must agree, exactly one version
//! stores, versions are ordered as controller-gen orders them.

use std::collections::BTreeMap;

use crate::model::{Conversion, Error, Errors, ResourceDef, Scope};

/// The CRD-wide settings of a kind, merged across its versions.
#[derive(Debug)]
pub struct Merged<'a> {
    /// API group.
    pub group: String,
    /// Kind.
    pub kind: String,
    /// Plural name.
    pub plural: String,
    /// Singular name.
    pub singular: String,
    /// Scope.
    pub scope: Scope,
    /// Short names, if any.
    pub short_names: Option<Vec<String>>,
    /// Categories, if any.
    pub categories: Option<Vec<String>>,
    /// CRD annotations, if any.
    pub annotations: Option<Vec<(String, String)>>,
    /// CRD labels, if any.
    pub labels: Option<Vec<(String, String)>>,
    /// The conversion webhook, if any.
    pub conversion: Option<Conversion>,
    /// The versions written to the CRD (skipped ones left out), ordered by name as controller-gen
    /// orders them, each with whether it is the storage version.
    pub versions: Vec<(&'a ResourceDef, bool)>,
}

/// Merges the versions of one kind. Every conflict is reported, naming both versions.
pub fn merge(defs: &[ResourceDef]) -> Result<Merged<'_>, Errors> {
    let mut errors = Errors::default();
    let Some(first) = defs.first().map(|d| &d.markers) else {
        return Err(Error::new(None, "", "a CRD needs at least one version").into());
    };
    let conflict = |errors: &mut Errors, key: &str, a: &ResourceDef, b: &ResourceDef| {
        let place = |d: &ResourceDef| match &d.markers.loc {
            Some(loc) => format!("{} ({loc})", d.markers.version),
            None => d.markers.version.clone(),
        };
        errors.push(Error::new(
            b.markers.loc.as_ref(),
            first.kind.clone(),
            format!(
                "versions {} and {} give different `{key}`: a CRD-wide setting must be given on \
                 one version or repeated identically",
                place(a),
                place(b)
            ),
        ));
    };
    macro_rules! crd_wide {
        ($field:ident) => {{
            let mut chosen: Option<&ResourceDef> = None;
            for d in defs.iter().filter(|d| d.markers.$field.is_some()) {
                match chosen {
                    Some(c) if c.markers.$field != d.markers.$field => {
                        conflict(&mut errors, stringify!($field), c, d)
                    }
                    Some(_) => {}
                    None => chosen = Some(d),
                }
            }
            chosen.and_then(|c| c.markers.$field.clone())
        }};
    }
    for d in defs.iter().skip(1) {
        if d.markers.group != first.group || d.markers.kind != first.kind {
            errors.push(Error::new(
                d.markers.loc.as_ref(),
                d.markers.kind.clone(),
                format!(
                    "`{}.{}` cannot be a version of `{}.{}`: a CRD's versions share group and kind",
                    d.markers.kind, d.markers.group, first.kind, first.group
                ),
            ));
        }
    }
    let plural = crd_wide!(plural);
    let singular = crd_wide!(singular);
    let scope = crd_wide!(scope);
    let short_names = crd_wide!(short_names);
    let categories = crd_wide!(categories);
    let annotations = crd_wide!(annotations);
    let labels = crd_wide!(labels);
    let conversion = crd_wide!(conversion);

    let mut by_name: BTreeMap<&str, &ResourceDef> = BTreeMap::new();
    for d in defs {
        if let Some(other) = by_name.insert(&d.markers.version, d) {
            conflict(&mut errors, "version (the same name twice)", other, d);
        }
    }
    let written: Vec<&ResourceDef> = by_name
        .values()
        .copied()
        .filter(|d| !d.markers.skip_version)
        .collect();
    let names = |ds: &[&ResourceDef]| {
        ds.iter()
            .map(|d| d.markers.version.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let storage: Vec<&ResourceDef> = written
        .iter()
        .copied()
        .filter(|d| d.markers.storage_version)
        .collect();
    let storage_of = |d: &ResourceDef| {
        written.len() == 1 || std::ptr::eq(d, storage.first().copied().unwrap_or(d))
    };
    let kind_error = |message: String| Error::new(first.loc.as_ref(), first.kind.clone(), message);
    if written.is_empty() {
        errors.push(kind_error(
            "every version has `skip_version`: the CRD would have none".into(),
        ));
    } else if written.len() > 1 && storage.len() != 1 {
        errors.push(kind_error(if storage.is_empty() {
            format!(
                "none of the versions {} is marked `storage_version`; mark exactly one",
                names(&written)
            )
        } else {
            format!(
                "versions {} are all marked `storage_version`; mark exactly one",
                names(&storage)
            )
        }));
    }
    if conversion.is_some() && written.len() < 2 {
        errors.push(kind_error(format!(
            "`conversion` converts between versions, and {} has only {}: give the kind a second \
             version, or remove `conversion`",
            first.kind,
            match written.first() {
                Some(d) => format!("version {}", d.markers.version),
                None => "none".into(),
            }
        )));
    }
    if !written.is_empty() && written.iter().all(|d| d.markers.served == Some(false)) {
        errors.push(kind_error(
            "no version is served: drop `served = false` from one".into(),
        ));
    }
    let merged = Merged {
        group: first.group.clone(),
        kind: first.kind.clone(),
        plural: plural.unwrap_or_else(|| first.plural()),
        singular: singular.unwrap_or_else(|| first.singular()),
        scope: scope.unwrap_or(Scope::Namespaced),
        short_names,
        categories,
        annotations,
        labels,
        conversion,
        versions: written.iter().map(|d| (*d, storage_of(d))).collect(),
    };
    errors.into_result(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ResourceMarkers, Shape};

    fn def(version: &str, f: impl FnOnce(&mut ResourceMarkers)) -> ResourceDef {
        let mut markers = ResourceMarkers {
            group: "g.io".into(),
            version: version.into(),
            kind: "Policy".into(),
            ..Default::default()
        };
        f(&mut markers);
        ResourceDef {
            markers,
            spec: Shape::Any,
            status: None,
        }
    }

    #[test]
    fn versions_sort_by_name_and_one_stores() {
        let defs = [
            def("v2", |_| {}),
            def("v1beta1", |m| m.storage_version = true),
            def("v1", |m| m.short_names = Some(vec!["po".into()])),
            def("v3", |m| m.skip_version = true),
        ];
        let m = merge(&defs).unwrap();
        let order: Vec<(&str, bool)> = m
            .versions
            .iter()
            .map(|(d, s)| (d.markers.version.as_str(), *s))
            .collect();
        assert_eq!(order, [("v1", false), ("v1beta1", true), ("v2", false)]);
        assert_eq!(m.plural, "policies");
        assert_eq!(m.short_names, Some(vec!["po".to_string()]));
    }

    #[test]
    fn no_versions_is_an_error() {
        assert!(
            merge(&[])
                .unwrap_err()
                .to_string()
                .contains("at least one version")
        );
    }

    #[test]
    fn versions_share_group_and_kind() {
        let defs = [def("v1", |_| {}), def("v2", |m| m.kind = "Other".into())];
        let e = merge(&defs).unwrap_err().to_string();
        assert!(
            e.contains("`Other.g.io` cannot be a version of `Policy.g.io`"),
            "{e}"
        );
    }

    #[test]
    fn a_single_version_stores_without_saying_so() {
        let defs = [def("v1", |_| {})];
        assert!(merge(&defs).unwrap().versions[0].1);
    }

    #[test]
    fn conflicts_are_errors_naming_both() {
        let defs = [
            def("v1", |m| m.scope = Some(Scope::Cluster)),
            def("v2", |m| {
                m.scope = Some(Scope::Namespaced);
                m.storage_version = true;
            }),
        ];
        let e = merge(&defs).unwrap_err().to_string();
        assert!(
            e.contains("versions v1 and v2 give different `scope`"),
            "{e}"
        );
        let none = [def("v1", |_| {}), def("v2", |_| {})];
        assert!(
            merge(&none)
                .unwrap_err()
                .to_string()
                .contains("none of the versions v1, v2")
        );
        let two = [
            def("v1", |m| m.storage_version = true),
            def("v2", |m| m.storage_version = true),
        ];
        assert!(
            merge(&two)
                .unwrap_err()
                .to_string()
                .contains("versions v1, v2 are all marked")
        );
    }

    #[test]
    fn conversion_is_crd_wide_and_needs_two_versions() {
        let hook = |path: &str| Conversion {
            path: Some(path.into()),
            review_versions: vec!["v1".into()],
            ..Conversion::default()
        };
        let defs = [
            def("v1", |m| m.conversion = Some(hook("/convert"))),
            def("v2", |m| m.storage_version = true),
        ];
        assert_eq!(merge(&defs).unwrap().conversion, Some(hook("/convert")));
        let alone = [def("v1", |m| m.conversion = Some(hook("/convert")))];
        let e = merge(&alone).unwrap_err().to_string();
        assert!(
            e.contains("`conversion` converts between versions, and Policy has only version v1"),
            "{e}"
        );
        let differing = [
            def("v1", |m| m.conversion = Some(hook("/a"))),
            def("v2", |m| {
                m.conversion = Some(hook("/b"));
                m.storage_version = true;
            }),
        ];
        let e = merge(&differing).unwrap_err().to_string();
        assert!(
            e.contains("versions v1 and v2 give different `conversion`"),
            "{e}"
        );
        let none = [def("v1", |_| {}), def("v2", |m| m.storage_version = true)];
        assert_eq!(merge(&none).unwrap().conversion, None);
    }
}
