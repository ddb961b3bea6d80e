//! The table of body kinds, generated from the [`Body`] enum itself.
//!
//! The declaration order of `Body`'s variants is the kind index (postcard
//! writes the variant index first), and serde's derive already lists the
//! variants' snake_case names in that order. Both are read from there, so a
//! kind is added by appending one variant to `Body`, one arm to
//! [`crate::roles::check`] (the compiler insists), and one example to
//! `testkit::every_kind` (a test insists); nothing else can fall out of step.

use std::sync::OnceLock;

use serde::de::{self, Deserialize, Visitor};

use crate::body::Body;

/// The snake_case names of every kind, by index (as in JSON and FORMAT.md).
pub fn kind_names() -> &'static [&'static str] {
    static NAMES: OnceLock<&'static [&'static str]> = OnceLock::new();
    NAMES.get_or_init(variant_names::<Body>)
}

/// Number of kinds this library knows.
pub fn kind_count() -> u32 {
    kind_names().len() as u32
}

/// The snake_case name of kind `index`, if known.
pub fn kind_name(index: u32) -> Option<&'static str> {
    kind_names().get(index as usize).copied()
}

/// The variant names, in declaration order, of any enum deriving
/// `Deserialize` (empty for other types).
pub fn variant_names<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut capture = Capture(None);
    let _ = T::deserialize(&mut capture);
    capture.0.unwrap_or(&[])
}

/// The kind index of a body: the first varint of its postcard encoding.
pub(crate) fn kind_index_of(body: &Body) -> u32 {
    let mut buf = [0u8; 5];
    // The buffer is too small for most bodies; postcard has written the
    // variant index, the first field, by the time it says so.
    let _ = postcard::to_slice(body, &mut buf);
    crate::event::read_canonical_varint_u32(&buf)
        .map(|(v, _)| v)
        .unwrap_or(u32::MAX)
}

/// A deserializer that only records the variant list serde gives it.
struct Capture(Option<&'static [&'static str]>);

#[derive(Debug)]
struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("variant list captured")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Stop
    }
}

impl<'de> de::Deserializer<'de> for &mut Capture {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Stop> {
        self.0 = Some(variants);
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}
