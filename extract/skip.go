package extract

// SkipReason says why a file was not indexed or not extracted: the one vocabulary of the
// discovery (workspace), the store (index: a file remembered as skipped) and extraction.
type SkipReason string

// Reasons a file or directory is not indexed, or a file not extracted.
const (
	// SkipIgnored: a rule in .gitignore, .git/info/exclude or .quarryignore.
	SkipIgnored SkipReason = "ignored"
	// SkipBuiltin: VCS metadata and .quarry, dependency and cache directories, and build
	// output (see the workspace package's discovery rules). vendor/ is not one: vendored
	// code is source, and search ranks it lower.
	SkipBuiltin SkipReason = "builtin"
	// SkipTooLarge: larger than the size limit.
	SkipTooLarge SkipReason = "too_large"
	// SkipBinary: a NUL byte near the start.
	SkipBinary SkipReason = "binary"
	// SkipMinified: minified or otherwise machine-packed text.
	SkipMinified SkipReason = "minified"
	// SkipSymlink: a symlink to a directory, out of the root, broken, or in a loop.
	SkipSymlink SkipReason = "symlink"
	// SkipUnreadable: permission denied, or vanished or changed while walking.
	SkipUnreadable SkipReason = "unreadable"
	// SkipNotRegular: a named pipe, socket or device; reading one could block or never end.
	SkipNotRegular SkipReason = "not_regular"
	// SkipUnknownLanguage: no language claims the file (extraction only; its content is
	// still indexed).
	SkipUnknownLanguage SkipReason = "unknown_language"
	// SkipNoExtractor: the language has no extractor (extraction only).
	SkipNoExtractor SkipReason = "no_extractor"
)

// String returns the reason as it appears in reports and JSON.
func (r SkipReason) String() string { return string(r) }
