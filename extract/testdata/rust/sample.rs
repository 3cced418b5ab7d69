//! Crate sample exercises every Rust construct the extractor knows.

use std::collections::HashMap;
use std::fmt::{self, Display};
use crate::util::helper as h;

/// The largest size.
pub const MAX_SIZE: usize = 10;

static mut COUNTER: u32 = 0;

/// A shape with a größe.
#[derive(Debug, Clone)]
pub struct Shape {
    /// The name.
    pub name: String,
    größe: f64,
    pub(crate) tags: Vec<Tag>,
}

/// A tuple struct.
pub struct Meters(pub f64);

/// Colours.
pub enum Color {
    /// Red.
    Red,
    Green(u8),
    Blue { level: u8 },
}

/// A union.
#[repr(C)]
pub union Bits {
    i: u32,
    f: f32,
}

/// Alias of a map.
pub type Index = HashMap<String, Shape>;

/// Things that have an area.
pub trait Area: Display {
    /// Kind constant.
    const KIND: &'static str;
    /// The associated type.
    type Output;
    /// Returns the area.
    fn area(&self) -> f64;
    /// Has a default.
    fn describe(&self) -> String {
        format!("{}", self.area())
    }
}

impl Shape {
    /// Creates a shape.
    pub fn new(name: &str) -> Self {
        let s = Shape { name: name.to_string(), größe: 0.0, tags: Vec::new() };
        helper(s.größe);
        s
    }

    fn secret(&mut self) {
        self.größe += 1.0;
    }
}

impl Area for Shape {
    const KIND: &'static str = "shape";
    type Output = f64;
    fn area(&self) -> f64 {
        self.größe * 2.0
    }
}

impl Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.name)
    }
}

impl std::ops::Add for Meters {
    type Output = Meters;
    fn add(self, other: Meters) -> Meters {
        Meters(self.0 + other.0)
    }
}

/// A nested module.
pub mod geometry {
    use super::Shape;

    /// Makes a unit shape.
    pub(crate) fn unit() -> Shape {
        Shape::new("unit")
    }

    pub struct Point<T> {
        pub x: T,
    }
}

/// Generic helper.
pub async fn process<T: Area + Clone>(items: &[T], limit: usize) -> Option<f64>
where
    T: Send,
{
    let total = items.iter().map(|i| i.area()).sum();
    compute(total, limit);
    Some(total)
}

fn helper(x: f64) -> f64 {
    x
}

/// A macro.
macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

extern "C" {
    fn abs(x: i32) -> i32;
}

#[cfg(test)]
mod tests {
    #[test]
    fn it_works() {
        assert_eq!(super::helper(1.0), 1.0);
    }
}
