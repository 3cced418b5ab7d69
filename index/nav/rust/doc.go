// Package rust holds Rust's rules of resolution, the Hooks of index/nav/resolve for Rust:
// modules by file, paths from crate::, self::, super:: and use declarations, impl blocks'
// items, and the declared types of self, parameters and fields.
package rust
