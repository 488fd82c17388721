//! Laying an overlay (a field's markers) on a base (its type's schema), as controller-gen's
//! flattener does: documentation and topology from the overlay win, validation rules are
//! concatenated (the overlay's first), and a validation keyword set differently on both sides
//! keeps both, as `allOf: [base's, overlay's]`.

use super::Site;
use crate::model::Error;
use crate::model::{ListType, Schema};

/// Merges `over` into `base`, adding to `errors` what cannot be merged.
pub(super) fn merge(
    mut base: Schema,
    over: Schema,
    site: &Site,
    errors: &mut Vec<Error>,
) -> Schema {
    let mut base_side = Schema::default();
    let mut over_side = Schema::default();

    // Documentation: the overlay wins.
    macro_rules! wins {
        ($($k:ident),*) => {$( if over.$k.is_some() { base.$k = over.$k; } )*};
    }
    wins!(
        description,
        title,
        example,
        external_docs,
        default,
        type_,
        format,
        x_map_type
    );
    base.nullable |= over.nullable;
    base.x_preserve_unknown_fields |= over.x_preserve_unknown_fields;
    base.x_embedded_resource |= over.x_embedded_resource;
    if over.x_int_or_string && !base.x_int_or_string {
        base.x_int_or_string = true;
        base.type_ = None;
        base.format = None;
        if base.any_of.is_empty() {
            base.any_of = vec![Schema::typed("integer"), Schema::typed("string")];
        }
    }

    // Topology keys cannot go into allOf: a different value is an error.
    // Each value is shown as its marker writes it.
    macro_rules! same_or_error {
        ($($k:ident => $key:literal, $shown:expr);*) => {$(
            match (&base.$k, over.$k) {
                (Some(a), Some(o)) if *a != o => errors.push(site.error(format!(
                    "`{}` is {:?} here but {:?} on the type: a field cannot change it",
                    $key, $shown(&o), $shown(a)
                ))),
                (_, Some(o)) => base.$k = Some(o),
                _ => {}
            }
        )*};
    }
    same_or_error!(
        x_list_type => "list_type", |t: &ListType| t.as_str();
        x_list_map_keys => "list_map_keys", |k: &Vec<String>| k.clone()
    );

    // Validation keywords: set once, or kept on both sides.
    macro_rules! validation {
        ($($k:ident $(+ $flag:ident)?),*) => {$(
            if over.$k.is_some() {
                if base.$k.is_none() {
                    base.$k = over.$k;
                    $( base.$flag = over.$flag; )?
                } else if base.$k != over.$k $( || base.$flag != over.$flag )? {
                    base_side.$k = base.$k.take();
                    over_side.$k = over.$k;
                    $(
                        base_side.$flag = std::mem::take(&mut base.$flag);
                        over_side.$flag = over.$flag;
                    )?
                }
            }
        )*};
    }
    validation!(
        enum_,
        maximum + exclusive_maximum,
        minimum + exclusive_minimum,
        multiple_of,
        max_length,
        min_length,
        pattern,
        max_items,
        min_items,
        max_properties,
        min_properties
    );
    if base_side != Schema::default() {
        base.all_of.push(base_side);
        base.all_of.push(over_side);
    }
    base.all_of.extend(over.all_of);
    // A junctor the base has already (a data enum's `oneOf`, int-or-string's `anyOf`) keeps its
    // branches: the overlay's joins `allOf`.
    let junctor = Schema {
        any_of: if base.any_of.is_empty() {
            base.any_of = over.any_of;
            Vec::new()
        } else {
            over.any_of
        },
        one_of: if base.one_of.is_empty() {
            base.one_of = over.one_of;
            Vec::new()
        } else {
            over.one_of
        },
        not: if base.not.is_none() {
            base.not = over.not;
            None
        } else {
            over.not
        },
        ..Schema::default()
    };
    if junctor != Schema::default() {
        base.all_of.push(junctor);
    }

    if let Some(items) = over.items {
        base.items = Some(Box::new(match base.items.take() {
            Some(base_items) => merge(*base_items, *items, site, errors),
            None => *items,
        }));
    }
    let mut rules = over.x_validations;
    rules.append(&mut base.x_validations);
    base.x_validations = rules;
    base
}
