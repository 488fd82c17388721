//! The attributes of a module's items and of the items of its `impl` and `trait` blocks, where
//! kubegen's attributes are found.

use syn::{Attribute, ImplItem, Item, ItemImpl, ItemTrait, TraitItem};

/// An item inside an `impl` or `trait` block (a method, an associated const or type).
#[derive(Clone, Copy, Debug)]
pub enum AssocItem<'a> {
    /// An item of an `impl` block.
    Impl {
        /// The `impl` block.
        block: &'a ItemImpl,
        /// The item.
        item: &'a ImplItem,
    },
    /// An item of a `trait` definition.
    Trait {
        /// The trait.
        block: &'a ItemTrait,
        /// The item.
        item: &'a TraitItem,
    },
}

impl<'a> AssocItem<'a> {
    /// The attributes written on the item (none for unparsed tokens).
    pub fn attrs(&self) -> &'a [Attribute] {
        match self {
            AssocItem::Impl { item, .. } => match item {
                ImplItem::Const(item) => &item.attrs,
                ImplItem::Fn(item) => &item.attrs,
                ImplItem::Type(item) => &item.attrs,
                ImplItem::Macro(item) => &item.attrs,
                _ => &[],
            },
            AssocItem::Trait { item, .. } => match item {
                TraitItem::Const(item) => &item.attrs,
                TraitItem::Fn(item) => &item.attrs,
                TraitItem::Type(item) => &item.attrs,
                TraitItem::Macro(item) => &item.attrs,
                _ => &[],
            },
        }
    }
}

/// The attributes written on `item`, outer and inner (none for unparsed tokens).
pub fn item_attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(item) => &item.attrs,
        Item::Enum(item) => &item.attrs,
        Item::ExternCrate(item) => &item.attrs,
        Item::Fn(item) => &item.attrs,
        Item::ForeignMod(item) => &item.attrs,
        Item::Impl(item) => &item.attrs,
        Item::Macro(item) => &item.attrs,
        Item::Mod(item) => &item.attrs,
        Item::Static(item) => &item.attrs,
        Item::Struct(item) => &item.attrs,
        Item::Trait(item) => &item.attrs,
        Item::TraitAlias(item) => &item.attrs,
        Item::Type(item) => &item.attrs,
        Item::Union(item) => &item.attrs,
        Item::Use(item) => &item.attrs,
        _ => &[],
    }
}

/// The items inside the `impl` and `trait` blocks among `items`.
pub fn associated_items(items: &[Item]) -> Vec<AssocItem<'_>> {
    let mut found = Vec::new();
    for item in items {
        match item {
            Item::Impl(block) => found.extend(
                block
                    .items
                    .iter()
                    .map(|item| AssocItem::Impl { block, item }),
            ),
            Item::Trait(block) => found.extend(
                block
                    .items
                    .iter()
                    .map(|item| AssocItem::Trait { block, item }),
            ),
            _ => {}
        }
    }
    found
}
