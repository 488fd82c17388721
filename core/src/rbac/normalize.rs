//! controller-gen's `GenerateRoles`, step by step, with its merge hazard fixed.
//!
//! 1. Bucket the rules by (namespace, role name).
//! 2. Split each rule into one rule per resource (a rule without resources stays whole).
//! 3. Rewrite the group `core` to `""`; sort and deduplicate every list.
//! 4. Merge the verbs of rules equal in (groups, resources, resource names, URLs).
//! 5. Merge the resources of rules equal in (groups, resource names, URLs, verbs).
//! 6. Merge the groups of rules equal in (resources, resource names, URLs, verbs).
//! 7. Merge the URLs of rules equal in (groups, resources, resource names, verbs).
//! 8. Sort by `groups + resources + resourceNames + urls` (each joined with `&`).
//! 9. Verbs that contain `*` become just `*`.
//!
//! Documents come in (namespace, role name) order, so the ClusterRoles come first.
//!
//! The hazard: after steps 5–7 controller-gen files each merged rule under its
//! (groups, resources, resource names, URLs) key, and a rule already under that key (with
//! other verbs) is overwritten and lost. `g1/r/get` + `g2/r/get` + `g1;g2/r/list` gives
//! `[g1,g2]/r/get` and `[g1,g2]/r/list` in step 6, and Go's map order decides which one
//! survives. Here the two are merged into one rule with both verbs, which grants exactly
//! their union. Every merge joins rules that differ in one list only, so the output grants
//! exactly what the input grants; where no key collides, the output is controller-gen's.

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};

use super::{ALL_VERBS, PolicyRule, RbacRule, Role};
use crate::model::Loc;

/// The ClusterRole and Roles that `rules` ask for: one per (namespace, role name), with
/// `default_role` for rules without `role_name`; the ClusterRoles first, then the Roles by
/// namespace and name.
pub fn roles(rules: &[RbacRule], default_role: &str) -> Vec<Role> {
    let mut buckets: BTreeMap<(String, String), Vec<Draft>> = BTreeMap::new();
    for rule in rules {
        let namespace = rule.namespace.clone().unwrap_or_default();
        let name = match &rule.role_name {
            Some(name) if !name.is_empty() => name.clone(),
            _ => default_role.to_string(),
        };
        let bucket = buckets.entry((namespace, name)).or_default();
        if rule.resources.is_empty() {
            bucket.push(Draft::new(rule, Vec::new()));
        } else {
            for resource in &rule.resources {
                bucket.push(Draft::new(rule, vec![resource.clone()]));
            }
        }
    }
    buckets
        .into_iter()
        .map(|((namespace, name), drafts)| Role {
            namespace: (!namespace.is_empty()).then_some(namespace),
            name,
            rules: normalize(drafts),
        })
        .collect()
}

/// The lists a rule is filed under: groups, resources, resource names, URLs.
type Key = [Vec<String>; 4];

/// The list one merge step unions.
#[derive(Clone, Copy)]
enum Dim {
    Resources,
    Groups,
    Urls,
}

/// A rule being merged; every list sorted and deduplicated.
#[derive(Clone, Debug)]
struct Draft {
    groups: Vec<String>,
    resources: Vec<String>,
    resource_names: Vec<String>,
    urls: Vec<String>,
    verbs: Vec<String>,
    sources: BTreeSet<Loc>,
}

impl Draft {
    /// Steps 2 and 3 for one resource (or none) of `rule`.
    fn new(rule: &RbacRule, resources: Vec<String>) -> Self {
        let groups = rule.groups.iter().map(|g| {
            if g == "core" {
                String::new()
            } else {
                g.clone()
            }
        });
        Draft {
            groups: set(groups),
            resources: set(resources),
            resource_names: set(rule.resource_names.iter().cloned()),
            urls: set(rule.urls.iter().cloned()),
            verbs: set(rule.verbs.iter().cloned()),
            sources: rule.loc.iter().cloned().collect(),
        }
    }

    fn key(&self) -> Key {
        [
            self.groups.clone(),
            self.resources.clone(),
            self.resource_names.clone(),
            self.urls.clone(),
        ]
    }

    /// The key of a merge step: everything but `dim`, plus the verbs.
    fn key_without(&self, dim: Dim) -> Key {
        let [groups, resources, resource_names, urls] = self.key();
        match dim {
            Dim::Resources => [groups, resource_names, urls, self.verbs.clone()],
            Dim::Groups => [resources, resource_names, urls, self.verbs.clone()],
            Dim::Urls => [groups, resources, resource_names, self.verbs.clone()],
        }
    }

    /// controller-gen's sort key, `ruleKey.String()`.
    fn sort_key(&self) -> String {
        [
            &self.groups,
            &self.resources,
            &self.resource_names,
            &self.urls,
        ]
        .map(|list| list.join("&"))
        .join(" + ")
    }

    /// Takes in `other`, equal to `self` in everything but `dim`.
    fn merge_along(&mut self, other: Draft, dim: Dim) {
        let (mine, theirs) = match dim {
            Dim::Resources => (&mut self.resources, other.resources),
            Dim::Groups => (&mut self.groups, other.groups),
            Dim::Urls => (&mut self.urls, other.urls),
        };
        *mine = set(mine.drain(..).chain(theirs));
        self.sources.extend(other.sources);
    }

    /// Takes in `other`, equal to `self` in everything but the verbs.
    fn merge_verbs(&mut self, other: Draft) {
        self.verbs = set(self.verbs.drain(..).chain(other.verbs));
        self.sources.extend(other.sources);
    }

    /// Step 9 and the output form.
    fn finish(self) -> PolicyRule {
        let verbs = if self.verbs.iter().any(|v| v == ALL_VERBS) {
            vec![ALL_VERBS.to_string()]
        } else {
            self.verbs
        };
        PolicyRule {
            api_groups: self.groups,
            resources: self.resources,
            resource_names: self.resource_names,
            non_resource_urls: self.urls,
            verbs,
            sources: self.sources.into_iter().collect(),
        }
    }
}

/// Sorted, without duplicates.
fn set(items: impl IntoIterator<Item = String>) -> Vec<String> {
    items
        .into_iter()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Steps 4 to 9 for one bucket.
fn normalize(drafts: Vec<Draft>) -> Vec<PolicyRule> {
    let mut rules = file_by_key(drafts);
    for dim in [Dim::Resources, Dim::Groups, Dim::Urls] {
        let mut merged: BTreeMap<Key, Draft> = BTreeMap::new();
        for rule in rules.into_values() {
            match merged.entry(rule.key_without(dim)) {
                Entry::Vacant(e) => {
                    e.insert(rule);
                }
                Entry::Occupied(mut e) => e.get_mut().merge_along(rule, dim),
            }
        }
        rules = file_by_key(merged.into_values());
    }
    let mut rules: Vec<Draft> = rules.into_values().collect();
    rules.sort_by_cached_key(|rule| (rule.sort_key(), rule.key()));
    rules.into_iter().map(Draft::finish).collect()
}

/// Files rules under their key; rules with the same key become one rule with the union of
/// their verbs. This is step 4, and it is also how steps 5–7 file their results, where
/// controller-gen overwrites.
fn file_by_key(rules: impl IntoIterator<Item = Draft>) -> BTreeMap<Key, Draft> {
    let mut filed: BTreeMap<Key, Draft> = BTreeMap::new();
    for rule in rules {
        match filed.entry(rule.key()) {
            Entry::Vacant(e) => {
                e.insert(rule);
            }
            Entry::Occupied(mut e) => e.get_mut().merge_verbs(rule),
        }
    }
    filed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(s: &str) -> Vec<String> {
        if s.is_empty() {
            Vec::new()
        } else {
            s.split(';').map(str::to_string).collect()
        }
    }

    /// A rule from `groups/resources/verbs`, at line `line` of `a.rs`.
    fn rule(spec: &str, line: usize) -> RbacRule {
        let parts: Vec<&str> = spec.split('/').collect();
        RbacRule {
            groups: list(parts[0]),
            resources: list(parts[1]),
            verbs: list(parts[2]),
            loc: Some(loc(line)),
            ..RbacRule::default()
        }
    }

    fn loc(line: usize) -> Loc {
        Loc::at("a.rs", line, 1)
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_merge_hazard_keeps_every_verb() {
        let rules = [
            rule("g1/r/get", 1),
            rule("g2/r/get", 2),
            rule("g1;g2/r/list", 3),
        ];
        let roles = roles(&rules, "manager-role");
        assert_eq!(roles.len(), 1);
        assert_eq!(
            roles[0].rules,
            [PolicyRule {
                api_groups: strings(&["g1", "g2"]),
                resources: strings(&["r"]),
                resource_names: vec![],
                non_resource_urls: vec![],
                verbs: strings(&["get", "list"]),
                sources: vec![loc(1), loc(2), loc(3)],
            }]
        );
    }

    #[test]
    fn the_url_merge_hazard_keeps_every_verb() {
        let url = |urls: &str, verbs: &str, line| RbacRule {
            urls: list(urls),
            verbs: list(verbs),
            loc: Some(loc(line)),
            ..RbacRule::default()
        };
        let rules = [
            url("/a", "get", 1),
            url("/b", "get", 2),
            url("/a;/b", "post", 3),
        ];
        let out = &roles(&rules, "r")[0].rules;
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0].non_resource_urls, strings(&["/a", "/b"]));
        assert_eq!(out[0].verbs, strings(&["get", "post"]));
    }

    #[test]
    fn buckets_sources_and_wildcards() {
        let mut here = rule("core/pods/get", 7);
        here.namespace = Some("here".into());
        let mut named = rule("apps/deployments/*;list", 8);
        named.role_name = Some("other".into());
        let mut empty = rule("g/pods/get", 6);
        empty.groups = vec![String::new()];
        let rules = [rule("core/pods/*", 5), here, empty, named];
        let roles = roles(&rules, "manager-role");
        let names: Vec<_> = roles
            .iter()
            .map(|r| (r.namespace.as_deref(), r.name.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                (None, "manager-role"),
                (None, "other"),
                (Some("here"), "manager-role")
            ]
        );
        // `core` is `""`, the `*` absorbs `get`, both sources are kept.
        let cluster = &roles[0].rules;
        assert_eq!(cluster.len(), 1);
        assert_eq!(cluster[0].api_groups, [""]);
        assert_eq!(cluster[0].verbs, ["*"]);
        assert_eq!(cluster[0].sources, [loc(5), loc(6)]);
        assert_eq!(roles[1].rules[0].verbs, ["*"]);
        assert_eq!(roles[2].rules[0].sources, [loc(7)]);
    }

    /// A tiny deterministic generator (Knuth's MMIX LCG).
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        /// A non-empty (or, with `may_be_empty`, possibly empty) pick from `pool`, with
        /// repeats, in random order.
        fn pick(&mut self, pool: &[&str], may_be_empty: bool) -> Vec<String> {
            let n = self.below(3) + usize::from(!may_be_empty);
            (0..n)
                .map(|_| pool[self.below(pool.len())].to_string())
                .collect()
        }

        /// A pick from `pool` one time in `one_in`, else `None`.
        fn option(&mut self, pool: &[&str], one_in: usize) -> Option<String> {
            (self.below(one_in) == 0).then(|| pool[self.below(pool.len())].to_string())
        }
    }

    /// Small pools, so that rules often share groups, resources or verbs and the merges (and
    /// controller-gen's key collisions) happen.
    fn random_rule(g: &mut Lcg, line: usize) -> RbacRule {
        let loc = Some(loc(line));
        if g.below(5) == 0 {
            return RbacRule {
                urls: g.pick(&["/a", "/b", "/c/*", "*"], false),
                verbs: g.pick(&["get", "post", "*"], false),
                role_name: g.option(&["r1"], 4),
                loc,
                ..RbacRule::default()
            };
        }
        let resource_names = if g.below(4) == 0 {
            g.pick(&["n1", "n2"], false)
        } else {
            Vec::new()
        };
        let groups = if g.below(8) == 0 {
            &["*", "g1"][..]
        } else {
            &["", "core", "g1", "g2"]
        };
        RbacRule {
            groups: g.pick(groups, false),
            resources: g.pick(&["r1", "r2", "r3/status"], false),
            resource_names,
            verbs: g.pick(&["get", "list", "*"], false),
            namespace: g.option(&["ns1", "ns2"], 4),
            role_name: g.option(&["r1", "manager-role"], 4),
            loc,
            urls: Vec::new(),
        }
    }

    /// The shape of controller-gen's collision, with random names: `a/r/v1`, `b/r/v1`,
    /// `a;b/r/v2` (or the same with URLs `a`, `b` in place of groups).
    fn hazard(g: &mut Lcg, line: usize) -> [RbacRule; 3] {
        let urls = g.below(4) == 0;
        let pool: &[&str] = if urls {
            &["/a", "/b", "/c/*"]
        } else {
            &["", "g1", "g2", "*"]
        };
        let a = g.below(pool.len());
        let b = (a + 1 + g.below(pool.len() - 1)) % pool.len();
        let verbs: &[&str] = if urls {
            &["get", "post", "put"]
        } else {
            &["get", "list", "watch"]
        };
        let v1 = g.below(verbs.len());
        let v2 = (v1 + 1 + g.below(verbs.len() - 1)) % verbs.len();
        let resource = ["r1", "r2"][g.below(2)];
        let make = |names: Vec<&str>, verb: &str, offset: usize| {
            let names = names.into_iter().map(str::to_string).collect();
            let mut rule = RbacRule {
                verbs: vec![verb.to_string()],
                loc: Some(loc(line + offset)),
                ..RbacRule::default()
            };
            if urls {
                rule.urls = names;
            } else {
                rule.groups = names;
                rule.resources = vec![resource.to_string()];
            }
            rule
        };
        [
            make(vec![pool[a]], verbs[v1], 0),
            make(vec![pool[b]], verbs[v1], 1),
            make(vec![pool[a], pool[b]], verbs[v2], 2),
        ]
    }

    /// One permission without its verb: (namespace, role, group, resource, name, url).
    /// `name` is `None` for every name; URL permissions have no group, resource or name.
    type Target = (String, String, String, String, Option<String>, String);

    /// The verbs granted on each target; a `*` among them stands alone.
    fn grants(
        rules: impl IntoIterator<Item = (Target, Vec<String>)>,
    ) -> BTreeMap<Target, BTreeSet<String>> {
        let mut out: BTreeMap<Target, BTreeSet<String>> = BTreeMap::new();
        for (target, verbs) in rules {
            out.entry(target).or_default().extend(verbs);
        }
        for verbs in out.values_mut() {
            if verbs.contains(ALL_VERBS) {
                *verbs = BTreeSet::from([ALL_VERBS.to_string()]);
            }
        }
        out
    }

    /// Every target of one rule's lists, each with the rule's verbs.
    fn expand(
        (namespace, role): (&str, &str),
        groups: &[String],
        resources: &[String],
        names: &[String],
        urls: &[String],
        verbs: &[String],
    ) -> Vec<(Target, Vec<String>)> {
        let mut out = Vec::new();
        let target = |g: &str, r: &str, n: Option<&String>, u: &str| {
            (
                namespace.to_string(),
                role.to_string(),
                g.to_string(),
                r.to_string(),
                n.cloned(),
                u.to_string(),
            )
        };
        for u in urls {
            out.push((target("", "", None, u), verbs.to_vec()));
        }
        let names: Vec<Option<&String>> = if names.is_empty() {
            vec![None]
        } else {
            names.iter().map(Some).collect()
        };
        for g in groups {
            let g = if g == "core" { "" } else { g.as_str() };
            for r in resources {
                for n in &names {
                    out.push((target(g, r, *n, ""), verbs.to_vec()));
                }
            }
        }
        out
    }

    fn input_grants(rules: &[RbacRule], default_role: &str) -> BTreeMap<Target, BTreeSet<String>> {
        grants(rules.iter().flat_map(|r| {
            let bucket = (
                r.namespace.as_deref().unwrap_or(""),
                r.role_name.as_deref().unwrap_or(default_role),
            );
            expand(
                bucket,
                &r.groups,
                &r.resources,
                &r.resource_names,
                &r.urls,
                &r.verbs,
            )
        }))
    }

    fn output_grants(roles: &[Role]) -> BTreeMap<Target, BTreeSet<String>> {
        grants(roles.iter().flat_map(|role| {
            let bucket = (role.namespace.as_deref().unwrap_or(""), role.name.as_str());
            role.rules.iter().flat_map(move |r| {
                expand(
                    bucket,
                    &r.api_groups,
                    &r.resources,
                    &r.resource_names,
                    &r.non_resource_urls,
                    &r.verbs,
                )
            })
        }))
    }

    /// controller-gen's `NormalizeRules`, literally (keys joined with `&`, merged rules put
    /// back with an overwriting insert), on one bucket; `None` when an insert overwrote a
    /// rule, as the real one then depends on Go's map order.
    fn controller_gen(drafts: Vec<Draft>) -> Option<Vec<PolicyRule>> {
        let joined = |d: &Draft| d.sort_key();
        let mut map: BTreeMap<String, Draft> = BTreeMap::new();
        for d in drafts {
            match map.entry(joined(&d)) {
                Entry::Vacant(e) => {
                    e.insert(d);
                }
                Entry::Occupied(mut e) => e.get_mut().merge_verbs(d),
            }
        }
        for dim in [Dim::Resources, Dim::Groups, Dim::Urls] {
            let mut groups: BTreeMap<Key, Vec<Draft>> = BTreeMap::new();
            for d in map.into_values() {
                groups.entry(d.key_without(dim)).or_default().push(d);
            }
            map = BTreeMap::new();
            for mut group in groups.into_values() {
                let mut first = group.remove(0);
                for other in group {
                    first.merge_along(other, dim);
                }
                if map.insert(joined(&first), first).is_some() {
                    return None;
                }
            }
        }
        Some(map.into_values().map(Draft::finish).collect())
    }

    #[test]
    fn output_grants_exactly_what_the_input_grants() {
        let mut g = Lcg(0x5eed);
        let mut collisions = 0;
        for case in 0..3000 {
            let n = 1 + g.below(12);
            let mut rules: Vec<RbacRule> = (0..n).map(|i| random_rule(&mut g, i + 1)).collect();
            if case % 3 == 0 {
                rules.extend(hazard(&mut g, n + 1));
                for i in (1..rules.len()).rev() {
                    rules.swap(i, g.below(i + 1));
                }
            }
            let out = roles(&rules, "manager-role");
            assert_eq!(
                output_grants(&out),
                input_grants(&rules, "manager-role"),
                "case {case}: {rules:#?}\n{out:#?}"
            );
            for role in &out {
                let mut keys = BTreeSet::new();
                for r in &role.rules {
                    for l in [
                        &r.api_groups,
                        &r.resources,
                        &r.resource_names,
                        &r.non_resource_urls,
                        &r.verbs,
                    ] {
                        assert!(
                            l.windows(2).all(|w| w[0] < w[1]),
                            "case {case}: unsorted {l:?}"
                        );
                    }
                    assert!(!r.api_groups.iter().any(|g| g == "core"), "case {case}");
                    let key = (
                        &r.api_groups,
                        &r.resources,
                        &r.resource_names,
                        &r.non_resource_urls,
                    );
                    assert!(keys.insert(key), "case {case}: two rules for {key:?}");
                    assert!(!r.sources.is_empty(), "case {case}: a rule without sources");
                }
                // Same output as controller-gen wherever its merge loses nothing.
                let drafts = rules
                    .iter()
                    .filter(|r| {
                        r.namespace.as_deref().unwrap_or("")
                            == role.namespace.as_deref().unwrap_or("")
                            && r.role_name.as_deref().unwrap_or("manager-role") == role.name
                    })
                    .flat_map(|r| {
                        let split: Vec<Vec<String>> = if r.resources.is_empty() {
                            vec![vec![]]
                        } else {
                            r.resources.iter().map(|x| vec![x.clone()]).collect()
                        };
                        split.into_iter().map(move |res| Draft::new(r, res))
                    })
                    .collect();
                match controller_gen(drafts) {
                    Some(theirs) => assert_eq!(role.rules, theirs, "case {case}: {rules:#?}"),
                    None => collisions += 1,
                }
            }
        }
        // The generator must reach the hazard for the test to mean something.
        assert!(collisions > 500, "only {collisions} key collisions");
    }
}
