//! Which features each package is built with: cargo's `--features`, `--all-features` and
//! `--no-default-features`, applied to each selected package's `[features]` table as cargo
//! applies them (a feature enables the features it lists, `default` unless
//! `--no-default-features`; `dep:x` enables no feature; `x/y` enables the feature `x` when
//! `x` is an optional dependency without `dep:`, `x?/y` does not).
//!
//! Each package's own features, as `cargo build -p <package>` decides them: not the
//! workspace's unified set, where another member's dependency may turn more of them on.

use std::collections::{BTreeMap, BTreeSet};

use clap::Args;
use kubegen_core::model::Diagnostic;
use kubegen_core::parse::values::nearest;

/// A package's `[features]` table, with the implicit feature of each optional dependency
/// (`x = ["dep:x"]`), as `cargo metadata` gives it.
pub type Table = BTreeMap<String, Vec<String>>;

/// The feature flags, spelled as cargo spells them.
#[derive(Debug, Clone, Default, Args)]
pub struct FeatureArgs {
    /// Features to enable, separated by spaces or commas, as cargo's `--features`: each one
    /// for every selected package that has it, `package/feature` for one package.
    #[arg(short = 'F', long = "features", value_name = "FEATURES")]
    pub features: Vec<String>,
    /// Enable every feature of every selected package.
    #[arg(long)]
    pub all_features: bool,
    /// Do not enable the `default` feature.
    #[arg(long)]
    pub no_default_features: bool,
}

impl FeatureArgs {
    /// The features asked for, one by one.
    fn requested(&self) -> impl Iterator<Item = &str> {
        self.features
            .iter()
            .flat_map(|f| f.split([' ', ',']))
            .filter(|f| !f.is_empty())
    }

    /// The features the package `package`, whose table is `table`, is built with (`default`
    /// among them when it is on). A name it has no feature of is passed over: [`check`]
    /// reports those.
    ///
    /// [`check`]: FeatureArgs::check
    pub fn enabled(&self, package: &str, table: &Table) -> BTreeSet<String> {
        let mut on = BTreeSet::new();
        if self.all_features {
            for feature in table.keys() {
                activate(table, feature, &mut on);
            }
        }
        if !self.no_default_features {
            activate(table, "default", &mut on);
        }
        for requested in self.requested() {
            match requested.split_once('/') {
                Some((p, feature)) if p == package => activate(table, feature, &mut on),
                // A feature of a dependency: as the same value in the package's table.
                Some(_) => value(table, requested, &mut on),
                None => activate(table, requested, &mut on),
            }
        }
        on
    }

    /// Whether every feature asked for is one of a selected package (`packages`: name and
    /// table): `package/feature` of that package, a plain name of at least one of them.
    ///
    /// # Errors
    ///
    /// The first name no selected package has as a feature, naming the package and a feature
    /// with a similar name.
    pub fn check(&self, packages: &[(&str, &Table)]) -> Result<(), Diagnostic> {
        for requested in self.requested() {
            let (candidates, feature) = match requested.split_once('/') {
                Some((package, feature)) => match packages.iter().find(|(p, _)| *p == package) {
                    Some(selected) => (std::slice::from_ref(selected), feature),
                    // A dependency's feature.
                    None => continue,
                },
                None => (packages, requested),
            };
            if candidates
                .iter()
                .any(|(_, table)| table.contains_key(feature))
            {
                continue;
            }
            return Err(unknown(feature, candidates));
        }
        Ok(())
    }
}

/// The error for a feature none of `packages` has.
fn unknown(feature: &str, packages: &[(&str, &Table)]) -> Diagnostic {
    let names: Vec<String> = packages.iter().map(|(p, _)| format!("`{p}`")).collect();
    let message = match names.as_slice() {
        [one] => format!("package {one} has no feature `{feature}`"),
        all => format!(
            "none of the selected packages ({}) has a feature `{feature}`",
            all.join(", ")
        ),
    };
    let near = packages.iter().find_map(|(package, table)| {
        let features: Vec<&str> = table.keys().map(String::as_str).collect();
        nearest(feature, &features).map(|near| (package, near))
    });
    let d = Diagnostic::plain(message);
    match (near, packages) {
        (Some((_, near)), [_]) => d.with_help(format!("did you mean `{near}`?"), None),
        (Some((package, near)), _) => d.with_help(
            format!("did you mean `{near}` (of package `{package}`)?"),
            None,
        ),
        (None, [(_, table)]) if table.is_empty() => d.with_note("it has no features"),
        (None, [(_, table)]) => {
            let all: Vec<String> = table.keys().map(|f| format!("`{f}`")).collect();
            d.with_note(format!("its features: {}", all.join(", ")))
        }
        (None, _) => d,
    }
}

/// Turns `feature` on with what it enables, if the package has it.
fn activate(table: &Table, feature: &str, on: &mut BTreeSet<String>) {
    let Some(values) = table.get(feature) else {
        return;
    };
    if on.insert(feature.to_owned()) {
        for v in values {
            value(table, v, on);
        }
    }
}

/// Turns on what the feature value `v` enables: `x` is a feature; `dep:x` enables a
/// dependency only; `x/y` enables the feature `x` if there is one (the implicit feature of an
/// optional dependency), `x?/y` nothing of the package.
fn value(table: &Table, v: &str, on: &mut BTreeSet<String>) {
    if v.starts_with("dep:") {
        return;
    }
    match v.split_once('/') {
        Some((dependency, _)) if !dependency.ends_with('?') => activate(table, dependency, on),
        Some(_) => {}
        None => activate(table, v, on),
    }
}

#[cfg(test)]
mod tests {
    use super::{FeatureArgs, Table};
    use std::collections::BTreeSet;

    fn table(entries: &[(&str, &[&str])]) -> Table {
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
            .collect()
    }

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn args(features: &[&str], all: bool, no_default: bool) -> FeatureArgs {
        FeatureArgs {
            features: features.iter().map(|s| s.to_string()).collect(),
            all_features: all,
            no_default_features: no_default,
        }
    }

    /// Gateway-like: `experimental` implies `standard`; an optional dependency `extra` with
    /// its implicit feature, one behind `dep:`, a dependency feature.
    fn gateway() -> Table {
        table(&[
            ("default", &["standard"]),
            ("standard", &[]),
            ("experimental", &["standard", "dep:schemars", "extra?/x"]),
            ("extra", &["dep:extra"]),
            ("json", &["serde/derive", "extra/y"]),
        ])
    }

    #[test]
    fn features_as_cargo_enables_them() {
        let t = gateway();
        let enabled = |a: FeatureArgs| a.enabled("api", &t);
        assert_eq!(
            enabled(args(&[], false, false)),
            set(&["default", "standard"])
        );
        assert_eq!(enabled(args(&[], false, true)), set(&[]));
        assert_eq!(
            enabled(args(&["experimental"], false, true)),
            set(&["experimental", "standard"]),
            "`dep:` and a weak `extra?/x` enable no feature"
        );
        assert_eq!(
            enabled(args(&["json"], false, true)),
            set(&["json", "extra"]),
            "`extra/y` enables the optional dependency's implicit feature"
        );
        assert_eq!(
            enabled(args(&["api/experimental,json", "other/x"], false, true)),
            set(&["experimental", "standard", "json", "extra"]),
            "commas, `package/feature` of this package; another package's feature is not ours"
        );
        assert_eq!(
            enabled(args(&["other/experimental"], false, true)),
            set(&[]),
            "another package's feature"
        );
        assert_eq!(
            enabled(args(&[], true, true)),
            set(&["default", "standard", "experimental", "extra", "json"])
        );
    }

    #[test]
    fn unknown_features_name_the_package_and_a_near_name() {
        let api = gateway();
        let other = table(&[("fast", &[])]);
        let none = Table::new();
        let check = |a: FeatureArgs, packages: &[(&str, &Table)]| {
            a.check(packages).err().map(|d| {
                let help: Vec<String> = d.help.iter().map(|h| h.message.clone()).collect();
                (d.message, d.notes, help)
            })
        };
        assert_eq!(
            check(
                args(&["experimental", "api/json", "serde/derive"], false, false),
                &[("api", &api)]
            ),
            None
        );
        assert_eq!(
            check(args(&["experimantal"], false, false), &[("api", &api)]),
            Some((
                "package `api` has no feature `experimantal`".to_string(),
                vec![],
                vec!["did you mean `experimental`?".to_string()]
            ))
        );
        assert_eq!(
            check(
                args(&["fast"], false, false),
                &[("api", &api), ("other", &other)]
            ),
            None,
            "a plain name is for every selected package that has it"
        );
        assert_eq!(
            check(
                args(&["other/experimental"], false, false),
                &[("api", &api), ("other", &other)]
            ),
            Some((
                "package `other` has no feature `experimental`".to_string(),
                vec!["its features: `fast`".to_string()],
                vec![]
            ))
        );
        assert_eq!(
            check(
                args(&["experimentl"], false, false),
                &[("other", &other), ("api", &api)]
            ),
            Some((
                "none of the selected packages (`other`, `api`) has a feature `experimentl`"
                    .to_string(),
                vec![],
                vec!["did you mean `experimental` (of package `api`)?".to_string()]
            ))
        );
        assert_eq!(
            check(args(&["x"], false, false), &[("none", &none)]),
            Some((
                "package `none` has no feature `x`".to_string(),
                vec!["it has no features".to_string()],
                vec![]
            ))
        );
    }
}
