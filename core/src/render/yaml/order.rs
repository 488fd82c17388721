//! Mapping key order: yaml.v2's `keyList.Less` for string keys.
//!
//! yaml.v2 sorts the keys of every map it marshals. For string keys the order is not
//! bytewise: strings are compared rune by rune; two letters compare by code point, a
//! non-letter sorts before a letter, and runs of digits compare by numeric value, so
//! `a2 < a10`. When one string is a prefix of the other, the shorter one sorts first.
//!
//! Letters and digits follow Go's `unicode.IsLetter` / `unicode.IsDigit`. The standard
//! library has no general-category table, so outside ASCII they are approximated with
//! [`char::is_alphabetic`] and [`char::is_numeric`] (see [`is_letter`] and [`is_digit`]);
//! for ASCII the result is exact.

use std::cmp::Ordering;

/// Compares two mapping keys the way yaml.v2 (v2.4.0) sorts them before writing a map.
///
/// It returns [`Ordering::Equal`] only for equal strings. Beware that yaml.v2's rule is not
/// transitive once a digit run has leading zeros: `"110" < "0110" < "01x" < "110"`. For
/// such key sets controller-gen's own output depends on Go's random map iteration order;
/// kubegen picks one order deterministically (see `sort_by_key_order`).
pub fn key_order(a: &str, b: &str) -> Ordering {
    if a == b {
        Ordering::Equal
    } else if key_less(a, b) {
        Ordering::Less
    } else if key_less(b, a) {
        Ordering::Greater
    } else {
        // Unreachable for distinct strings (the last rule of `key_less` compares the two
        // differing runes), kept as a stable fallback.
        a.cmp(b)
    }
}

/// Whether, among keys like this one, bytewise order is already yaml.v2's: ASCII letters, and
/// other characters that sort below every letter (no digits, whose runs compare by value, and
/// none of ``[\]^_` `` and above, which sort after the uppercase letters bytewise but before
/// every letter in yaml.v2). Most Kubernetes keys are camelCase words, so sorting stays cheap.
fn bytewise_is_yaml_order(key: &str) -> bool {
    key.bytes()
        .all(|b| b.is_ascii_alphabetic() || (b < b'A' && !b.is_ascii_digit()))
}

/// Sorts `items` by their key with [`key_order`], deterministically.
///
/// The items are first put in bytewise key order, then merge-sorted (stable) with
/// [`key_order`]. For the usual keys this is exactly yaml.v2's order; for key sets on which
/// [`key_order`] is cyclic, the result still depends only on the set of keys, not on the
/// order they came in. Hand-written because `slice::sort_by` may panic on an inconsistent
/// comparator.
pub(crate) fn sort_by_key_order<T>(items: &mut Vec<T>, key: impl Fn(&T) -> &str) {
    if items.len() < 2 {
        return;
    }
    items.sort_by(|a, b| key(a).cmp(key(b)));
    if items.iter().all(|item| bytewise_is_yaml_order(key(item))) {
        return;
    }
    let mut run: Vec<T> = std::mem::take(items);
    let mut width = 1;
    while width < run.len() {
        let mut merged: Vec<T> = Vec::with_capacity(run.len());
        let mut rest = run.into_iter().peekable();
        loop {
            let left: Vec<T> = rest.by_ref().take(width).collect();
            if left.is_empty() {
                break;
            }
            let right: Vec<T> = rest.by_ref().take(width).collect();
            let mut left = left.into_iter().peekable();
            let mut right = right.into_iter().peekable();
            loop {
                let take_right = match (left.peek(), right.peek()) {
                    (Some(l), Some(r)) => key_order(key(r), key(l)) == Ordering::Less,
                    (Some(_), None) => false,
                    (None, Some(_)) => true,
                    (None, None) => break,
                };
                let next = if take_right {
                    right.next()
                } else {
                    left.next()
                };
                merged.extend(next);
            }
        }
        run = merged;
        width *= 2;
    }
    *items = run;
}

/// yaml.v2 `keyList.Less` for two strings.
fn key_less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    for (i, (&ac, &bc)) in ar.iter().zip(&br).enumerate() {
        if ac == bc {
            continue;
        }
        let al = is_letter(ac);
        let bl = is_letter(bc);
        if al && bl {
            return ac < bc;
        }
        if al || bl {
            // Exactly one is a letter: the non-letter sorts first.
            return bl;
        }
        // Neither is a letter: compare the digit runs starting here by value.
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if ac == '0' || bc == '0' {
            // Inside a run that already has a non-zero digit, the zero is significant.
            let preceding_nonzero = ar
                .iter()
                .take(i)
                .rev()
                .take_while(|c| is_digit(**c))
                .any(|c| *c != '0');
            if preceding_nonzero {
                an = 1;
                bn = 1;
            }
        }
        let (an, ai) = digit_run(&ar, i, an);
        let (bn, bi) = digit_run(&br, i, bn);
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ac < bc;
    }
    ar.len() < br.len()
}

/// Accumulates the digit run of `s` starting at `start` onto `n` (Go's int64 arithmetic,
/// wrapping like Go on overflow); returns the value and the index just past the run.
fn digit_run(s: &[char], start: usize, mut n: i64) -> (i64, usize) {
    let mut i = start;
    for &c in s.iter().skip(start).take_while(|c| is_digit(**c)) {
        n = n
            .wrapping_mul(10)
            .wrapping_add(i64::from(u32::from(c)) - i64::from(u32::from('0')));
        i += 1;
    }
    (n, i)
}

/// Go's `unicode.IsLetter` (general category L): exact for ASCII, approximated elsewhere
/// by the Alphabetic property minus numeric characters (letter numbers such as `Ⅻ`).
fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphabetic()
    } else {
        c.is_alphabetic() && !c.is_numeric()
    }
}

/// Go's `unicode.IsDigit` (general category Nd): exact for ASCII, approximated elsewhere
/// by the Numeric property minus alphabetic characters.
fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        c.is_numeric() && !c.is_alphabetic()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(keys: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = keys.iter().map(|s| s.to_string()).collect();
        sort_by_key_order(&mut v, |s| s.as_str());
        v
    }

    #[test]
    fn digit_runs_compare_numerically() {
        assert_eq!(key_order("a2", "a10"), Ordering::Less);
        assert_eq!(key_order("a10", "a2"), Ordering::Greater);
        assert_eq!(key_order("v1beta1", "v1alpha2"), Ordering::Greater);
        assert_eq!(key_order("x9", "x10y"), Ordering::Less);
        assert_eq!(key_order("a100", "a101"), Ordering::Less);
        assert_eq!(key_order("a101", "a100"), Ordering::Greater);
    }

    #[test]
    fn leading_zeros_make_a_longer_run_sort_later() {
        // Same value: the shorter run first.
        assert_eq!(key_order("a1", "a01"), Ordering::Less);
        assert_eq!(key_order("a01", "a1"), Ordering::Greater);
    }

    #[test]
    fn uppercase_letters_sort_before_lowercase() {
        assert_eq!(key_order("B", "a"), Ordering::Less);
        assert_eq!(key_order("Z", "a"), Ordering::Less);
        assert_eq!(key_order("a", "B"), Ordering::Greater);
        assert_eq!(key_order("XValidation", "x-kubernetes"), Ordering::Less);
    }

    #[test]
    fn non_letters_sort_before_letters() {
        assert_eq!(key_order("_x", "x"), Ordering::Less);
        assert_eq!(key_order("x", "_x"), Ordering::Greater);
        // Bytewise '~' (0x7E) > 'z', but a non-letter sorts before any letter.
        assert_eq!(key_order("a~", "az"), Ordering::Less);
        assert_eq!(key_order("x-kubernetes-validations", "xa"), Ordering::Less);
    }

    #[test]
    fn symbols_sort_before_digits_and_among_themselves_by_code_point() {
        // Bytewise '0' (0x30) < '_' (0x5F), but a non-digit run has the value 0 and is
        // shorter than a digit run, so '_' comes first.
        assert_eq!(key_order("a_", "a0"), Ordering::Less);
        assert_eq!(key_order("a-", "a_"), Ordering::Less);
        assert_eq!(key_order("a.", "a-"), Ordering::Greater);
    }

    #[test]
    fn prefix_sorts_first() {
        assert_eq!(key_order("spec", "specs"), Ordering::Less);
        assert_eq!(key_order("specs", "spec"), Ordering::Greater);
        assert_eq!(key_order("", "a"), Ordering::Less);
        assert_eq!(key_order("same", "same"), Ordering::Equal);
    }

    #[test]
    fn bytewise_fast_path_agrees_with_key_order() {
        let alphabet = ["a", "B", "z", "Z", "-", ".", "/", "$", " ", "aa", "Ab"];
        let mut keys: Vec<String> = Vec::new();
        for a in alphabet {
            for b in alphabet {
                keys.push(format!("{a}{b}"));
            }
        }
        assert!(keys.iter().all(|k| bytewise_is_yaml_order(k)));
        let mut bytewise = keys.clone();
        bytewise.sort();
        bytewise.dedup();
        for pair in bytewise.windows(2) {
            assert_eq!(key_order(&pair[0], &pair[1]), Ordering::Less, "{pair:?}");
        }
        for not_simple in ["a1", "x_y", "Z[", "é"] {
            assert!(!bytewise_is_yaml_order(not_simple), "{not_simple}");
        }
    }

    #[test]
    fn sorting_a_key_list() {
        assert_eq!(
            sorted(&[
                "type",
                "x-kubernetes-int-or-string",
                "XPreserve",
                "a10",
                "a2",
                "_z",
                "A"
            ]),
            vec![
                "_z",
                "A",
                "XPreserve",
                "a2",
                "a10",
                "type",
                "x-kubernetes-int-or-string"
            ]
        );
        assert_eq!(sorted(&["b", "a"]), vec!["a", "b"]);
        assert_eq!(sorted(&[]), Vec::<String>::new());
        assert_eq!(
            sorted(&["c", "b", "a", "e", "d"]),
            vec!["a", "b", "c", "d", "e"]
        );
    }

    #[test]
    fn cyclic_keys_sort_deterministically() {
        // yaml.v2's comparison is cyclic here; Go's output varies from run to run.
        assert_eq!(key_order("110", "0110"), Ordering::Less);
        assert_eq!(key_order("0110", "01x"), Ordering::Less);
        assert_eq!(key_order("01x", "110"), Ordering::Less);
        let expected = sorted(&["110", "0110", "01x", "a"]);
        assert_eq!(expected.last().map(String::as_str), Some("a"));
        for keys in [["0110", "01x", "110", "a"], ["a", "01x", "110", "0110"]] {
            assert_eq!(sorted(&keys), expected);
        }
    }
}
