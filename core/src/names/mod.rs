//! The naming rules of Kubernetes objects, each written once: DNS labels and subdomains, API
//! groups and kinds ([`is_dns_label`], [`is_group`], [`is_kind`]), property names as CEL
//! escapes them ([`cel_name`]), Kubernetes version names and their priority ([`KubeVersion`],
//! [`kube_order`]), an object's `apiVersion` ([`api_version`]), the plural of a kind as controller-gen computes it ([`pluralize`]), and the
//! name a misspelled one was meant to be ([`nearest`]), and the approval the API server asks of
//! a CRD in a Kubernetes group ([`approval_problem`]). The derive, `gen-cli`, the scaffold, CRD
//! assembly, webhooks and the checks all use these.

mod approval;
mod cel;
mod dns;
mod plural;
mod version;

pub use approval::{APPROVAL_ANNOTATION, approval_problem, is_protected_group};
pub use cel::{cel_field, cel_name};
#[cfg(feature = "admit")]
pub(crate) use dns::is_label_shaped;
pub use dns::{dashed, is_dns_label, is_dns_subdomain, is_dns1035_label, is_group, is_kind};
pub use plural::{pluralize, resource_plural};
pub use version::{KubeVersion, Stability, api_version, kube_order};

/// How a "did you mean" ends a message: `. Did you mean `x`?` ([`did_you_mean`], and
/// darling's own wording); front ends turn it into a `help:`.
pub const SUGGESTION: &str = ". Did you mean `";

/// `. Did you mean `c`?` for the candidate `c` [`nearest`] to `input`, or nothing.
pub fn did_you_mean(input: &str, candidates: &[&str]) -> String {
    nearest(input, candidates)
        .map(|c| format!("{SUGGESTION}{c}`?"))
        .unwrap_or_default()
}

/// The candidate closest to `input`, if one is close enough to be what was meant (the "did you
/// mean" of every message): the last of those most [`similar`] to it, above 0.8. A `const fn`,
/// so that the derive's compile-time checks suggest what the CLI does.
pub const fn nearest<'a>(input: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let mut best: Option<(f64, &'a str)> = None;
    let mut i = 0;
    while i < candidates.len() {
        // `i` < `candidates.len()`: the loop condition.
        let score = similar(input, candidates[i]);
        let beats = match best {
            Some((top, _)) => score >= top,
            None => true,
        };
        if score > 0.8 && beats {
            best = Some((score, candidates[i]));
        }
        i += 1;
    }
    match best {
        Some((_, c)) => Some(c),
        None => None,
    }
}

/// The longest name, in characters, [`similar`] compares; longer ones are similar to nothing.
pub const SIMILAR_MAX: usize = 256;

/// The Jaro-Winkler similarity of `a` and `b` over their characters (0: nothing in common, 1:
/// equal), as `strsim::jaro_winkler` computes it, in a `const fn`; 0 when either is longer than
/// [`SIMILAR_MAX`] characters.
pub const fn similar(a: &str, b: &str) -> f64 {
    let (Some((a, a_len)), Some((b, b_len))) = (chars(a), chars(b)) else {
        return 0.0;
    };
    let sim = jaro(&a, a_len, &b, b_len);
    if sim <= 0.7 {
        return sim;
    }
    let mut prefix = 0;
    while prefix < 4 && prefix < a_len && prefix < b_len && a[prefix] == b[prefix] {
        // `prefix` < both lengths: the loop condition.
        prefix += 1;
    }
    sim + 0.1 * prefix as f64 * (1.0 - sim)
}

/// The Jaro similarity of the first `a_len` characters of `a` and `b_len` of `b`.
const fn jaro(a: &[u32; SIMILAR_MAX], a_len: usize, b: &[u32; SIMILAR_MAX], b_len: usize) -> f64 {
    if a_len == 0 && b_len == 0 {
        return 1.0;
    } else if a_len == 0 || b_len == 0 {
        return 0.0;
    }
    let range = (if a_len > b_len { a_len } else { b_len } / 2).saturating_sub(1);
    let (mut a_flags, mut b_flags) = ([false; SIMILAR_MAX], [false; SIMILAR_MAX]);
    let mut matches = 0_usize;
    let mut i = 0;
    while i < a_len {
        let low = i.saturating_sub(range);
        let high = if b_len < i + range + 1 {
            b_len
        } else {
            i + range + 1
        };
        let mut j = low;
        while j < high {
            // `i` < `a_len` and `j` < `b_len`, both at most `SIMILAR_MAX`.
            if a[i] == b[j] && !b_flags[j] {
                a_flags[i] = true;
                b_flags[j] = true;
                matches += 1;
                break;
            }
            j += 1;
        }
        i += 1;
    }
    if matches == 0 {
        return 0.0;
    }
    let (mut transpositions, mut j) = (0_usize, 0);
    let mut i = 0;
    while i < a_len {
        if a_flags[i] {
            // Every flagged character of `a` has one of `b` (as many are flagged in each).
            while !b_flags[j] {
                j += 1;
            }
            if a[i] != b[j] {
                transpositions += 1;
            }
            j += 1;
        }
        i += 1;
    }
    transpositions /= 2;
    ((matches as f64 / a_len as f64)
        + (matches as f64 / b_len as f64)
        + ((matches - transpositions) as f64 / matches as f64))
        / 3.0
}

/// The characters of `text` (decoded from its UTF-8) and how many there are, or `None` past
/// [`SIMILAR_MAX`].
const fn chars(text: &str) -> Option<([u32; SIMILAR_MAX], usize)> {
    let bytes = text.as_bytes();
    let mut out = [0; SIMILAR_MAX];
    let (mut at, mut n) = (0, 0);
    while at < bytes.len() {
        if n == SIMILAR_MAX {
            return None;
        }
        // A `str` is valid UTF-8: the lead byte says how many continuation bytes follow.
        let lead = bytes[at] as u32;
        let (mut c, extra) = match lead {
            0..=0x7f => (lead, 0),
            0xc0..=0xdf => (lead & 0x1f, 1),
            0xe0..=0xef => (lead & 0x0f, 2),
            _ => (lead & 0x07, 3),
        };
        let mut k = 1;
        while k <= extra {
            c = (c << 6) | (bytes[at + k] as u32 & 0x3f);
            k += 1;
        }
        out[n] = c;
        n += 1;
        at += 1 + extra;
    }
    Some((out, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `similar` is strsim's Jaro-Winkler, bit for bit, on names, typos, transpositions and
    /// non-ASCII text; and `nearest` picks what the strsim-based choice picks.
    #[test]
    fn similar_is_strsims_jaro_winkler() {
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "size",
            "sise",
            "siez",
            "replicas",
            "replcias",
            "controllerName",
            "controllerNam",
            "controllername",
            "parametersRef",
            "paramtersRef",
            "listeners",
            "limit",
            "note",
            "crème",
            "creme",
            "größe",
            "grösse",
            "日本語",
            "日本",
            "x-y-z",
            "martha",
            "marhta",
            "dixon",
            "dicksonx",
            "jellyfish",
            "smellyfish",
        ];
        for a in words {
            for b in words {
                assert_eq!(
                    similar(a, b).to_bits(),
                    strsim::jaro_winkler(a, b).to_bits(),
                    "{a:?} {b:?}"
                );
            }
            let strsim_choice = words
                .iter()
                .map(|c| (strsim::jaro_winkler(a, c), *c))
                .filter(|(score, _)| *score > 0.8)
                .max_by(|x, y| x.0.total_cmp(&y.0))
                .map(|(_, c)| c);
            assert_eq!(nearest(a, &words), strsim_choice, "{a:?}");
        }
        let long = "x".repeat(SIMILAR_MAX + 1);
        assert_eq!(similar(&long, &long), 0.0);
        assert_eq!(nearest("sise", &["name", "size"]), Some("size"));
        assert_eq!(nearest("other", &["name", "size"]), None);
    }
}
