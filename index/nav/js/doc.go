// Package js holds JavaScript's and TypeScript's rules of resolution, the Hooks of
// index/nav/resolve for them: a parameter or local hides what a bare name means outside,
// modules found as Node and TypeScript find them and what they export, what this is, and a
// definition's uses under the names importers bind it to.
package js
