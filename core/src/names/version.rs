//! Kubernetes version names (`v1`, `v2beta1`, `v1alpha3`) and their priority, as apimachinery's
//! `version.CompareKubeAwareVersionStrings` orders a CRD's versions.

use std::cmp::Ordering;
use std::fmt;

/// An object's `apiVersion`: `group/version`, or `version` alone in the core group (`""`).
pub fn api_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    }
}

/// How stable a Kubernetes version is, least first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stability {
    /// `v1alpha1`
    Alpha,
    /// `v1beta1`
    Beta,
    /// `v1`
    Stable,
}

/// A Kubernetes-like version name, `v<major>` or `v<major>(alpha|beta)<minor>`
/// (apimachinery's `^v([\d]+)(?:(alpha|beta)([\d]+))?$`). Ordered by priority, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KubeVersion {
    /// The number after `v`.
    pub major: u64,
    /// Alpha, beta or stable.
    pub stability: Stability,
    /// The number after `alpha`/`beta`; 0 for a stable version.
    pub minor: u64,
}

impl KubeVersion {
    /// The version `name` names, `None` when it is not Kubernetes-like (`v1gamma1`, `1`,
    /// `v1beta`).
    pub fn parse(name: &str) -> Option<KubeVersion> {
        let rest = name.strip_prefix('v')?;
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (major, tail) = rest.split_at_checked(digits)?;
        let major = number(major)?;
        let (stability, minor) = if tail.is_empty() {
            (Stability::Stable, 0)
        } else if let Some(n) = tail.strip_prefix("beta") {
            (Stability::Beta, number(n)?)
        } else if let Some(n) = tail.strip_prefix("alpha") {
            (Stability::Alpha, number(n)?)
        } else {
            return None;
        };
        Some(KubeVersion {
            major,
            stability,
            minor,
        })
    }
}

/// A run of ASCII digits as a number.
fn number(digits: &str) -> Option<u64> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

impl Ord for KubeVersion {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.major, self.stability, self.minor).cmp(&(other.major, other.stability, other.minor))
    }
}

impl PartialOrd for KubeVersion {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for KubeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.stability {
            Stability::Stable => write!(f, "v{}", self.major),
            Stability::Beta => write!(f, "v{}beta{}", self.major, self.minor),
            Stability::Alpha => write!(f, "v{}alpha{}", self.major, self.minor),
        }
    }
}

/// Kubernetes' version priority, lowest first: `v1alpha1 < v1beta1 < v1 < v2`, with names that
/// are not Kubernetes-like before all of them; equal priorities in reverse alphabetical order
/// (the alphabetically first is the highest).
pub fn kube_order(a: &str, b: &str) -> Ordering {
    let priority = match (KubeVersion::parse(a), KubeVersion::parse(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => Ordering::Equal,
    };
    priority.then_with(|| b.cmp(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kubernetes_versions_only() {
        for good in ["v1", "v2beta3", "v1alpha1", "v10"] {
            let parsed = KubeVersion::parse(good).unwrap();
            assert_eq!(parsed.to_string(), good);
        }
        for bad in [
            "", "v", "1", "v1gamma1", "v1beta", "vbeta1", "v1beta1x", "V1", "v1-beta1",
        ] {
            assert_eq!(KubeVersion::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn orders_by_kubernetes_priority() {
        let mut names = vec![
            "v1", "foo", "v1alpha1", "v2", "v1beta2", "bar", "v1beta1", "v10",
        ];
        names.sort_by(|a, b| kube_order(a, b));
        assert_eq!(
            names,
            [
                "foo", "bar", "v1alpha1", "v1beta1", "v1beta2", "v1", "v2", "v10"
            ]
        );
    }
}
