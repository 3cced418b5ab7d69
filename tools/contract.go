// Package tools is Quarry's agent contract: the typed requests and results of every
// operation (search, goto, symbols, refs, workspace management), the one failure envelope
// with its closed set of error codes, and the JSON Schemas generated from these types. The
// CLI's --json output, the MCP server and Go callers all speak these types, so they cannot
// drift apart.
//
// The contract has its own version, AgentVersion, separate from Quarry's release: adding a
// field, an operation or an error code is a minor bump; removing or renaming one is a major
// bump.
package tools

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/workspace"
)

// AgentVersion is the version of the agent contract.
const AgentVersion = "1.5"

// Code is an error code of the contract. The set is closed within a major AgentVersion.
type Code string

// Error codes.
const (
	CodeBadQuery             Code = "BAD_QUERY"              // the query cannot be searched (empty, only punctuation, too long)
	CodeUnknownField         Code = "UNKNOWN_FIELD"          // a request field or parameter that does not exist
	CodeBadValue             Code = "BAD_VALUE"              // a field's value is out of range, of the wrong type or not one of its choices
	CodeNotIndexed           Code = "NOT_INDEXED"            // the workspace has no usable index yet
	CodeUnknownWorkspace     Code = "UNKNOWN_WORKSPACE"      // no registered workspace has this id
	CodePathOutsideWorkspace Code = "PATH_OUTSIDE_WORKSPACE" // a path argument resolves outside the workspace
	CodeNotFound             Code = "NOT_FOUND"              // a file or directory that does not exist
	CodeTimeout              Code = "TIMEOUT"                // the operation ran out of time
	CodeUnreadable           Code = "UNREADABLE"             // a file that exists but cannot be read or parsed
	CodeBusy                 Code = "INDEX_BUSY"             // another process is writing the index
	CodeNotAllowed           Code = "NOT_ALLOWED"            // this server does not let its clients do this (a flag of the server would), or a request from another site
	CodeShardUnavailable     Code = "SHARD_UNAVAILABLE"      // a cluster's shard did not answer in time (no node serves it, or none answered)
	CodeInternal             Code = "INTERNAL"               // anything else: a bug or an environment failure
)

// Codes lists every error code, for documents and schemas.
var Codes = []Code{CodeBadQuery, CodeUnknownField, CodeBadValue, CodeNotIndexed, CodeUnknownWorkspace,
	CodePathOutsideWorkspace, CodeNotFound, CodeTimeout, CodeUnreadable, CodeBusy, CodeNotAllowed, CodeShardUnavailable, CodeInternal}

// Error is a failure of an operation, as the contract reports it.
type Error struct {
	Code    Code   `json:"code" jsonschema:"the error code, one of a closed set"`
	Message string `json:"message" jsonschema:"what was wrong and what would be accepted"`
	Path    string `json:"path,omitempty" jsonschema:"the path or field the error is about, if any"`
	err     error
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.err }

// Errorf returns an Error of code.
func Errorf(code Code, path, format string, a ...any) *Error {
	return &Error{Code: code, Path: path, Message: fmt.Sprintf(format, a...)}
}

// NewError returns an Error of code whose cause is err.
func NewError(code Code, path, message string, err error) *Error {
	return &Error{Code: code, Path: path, Message: message, err: err}
}

// Wrap returns e with another message: the same failure (code, path, cause) told in the
// words of another surface (the command line names flags where the contract names fields).
func Wrap(e *Error, message string) *Error {
	return &Error{Code: e.Code, Path: e.Path, Message: message, err: e}
}

// Envelope is the one shape of a failure on the wire.
type Envelope struct {
	OK    bool   `json:"ok" jsonschema:"always false"`
	Error *Error `json:"error"`
}

// Fail returns the envelope of err.
func Fail(err error) Envelope { return Envelope{OK: false, Error: AsError(err)} }

// AsError maps err to the contract's Error: errors of the contract as they are, known
// conditions of the lower layers to their codes, anything else to INTERNAL.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	wrap := func(code Code, path string) *Error {
		return &Error{Code: code, Message: err.Error(), Path: path, err: err}
	}
	var bad *search.BadRequestError
	var pat *query.PatternError
	switch {
	case errors.Is(err, search.ErrEmptyQuery):
		return wrap(CodeBadQuery, "query")
	case errors.As(err, &bad):
		if bad.Field == "query" {
			return wrap(CodeBadQuery, "query")
		}
		if f, ok := contractFields[bad.Field]; ok {
			return wrap(CodeBadValue, f)
		}
		return wrap(CodeBadValue, bad.Field)
	case errors.As(err, &pat):
		return wrap(CodeBadValue, "file_pattern")
	case errors.Is(err, languages.ErrUnknownLanguage):
		return wrap(CodeBadValue, "language")
	case errors.Is(err, workspace.ErrUnknownWorkspace):
		return wrap(CodeUnknownWorkspace, "workspace")
	case errors.Is(err, workspace.ErrNotIndexed):
		return wrap(CodeNotIndexed, "")
	case errors.Is(err, store.ErrNotWritable):
		// The environment's, not the request's: the index keeps answering as it is.
		return &Error{Code: CodeInternal, Message: err.Error() + "; make .quarry/ writable (searches keep answering from the index as it is)", err: err}
	case errors.Is(err, fulltext.ErrLocked), errors.Is(err, workspace.ErrLocked):
		return wrap(CodeBusy, "")
	case errors.Is(err, context.DeadlineExceeded):
		return wrap(CodeTimeout, "")
	case errors.Is(err, os.ErrNotExist), errors.Is(err, workspace.ErrNotDirectory):
		return wrap(CodeNotFound, "")
	case errors.Is(err, os.ErrPermission):
		return wrap(CodeUnreadable, "")
	}
	return wrap(CodeInternal, "")
}

// contractFields maps the index's names of request fields to the contract's where they differ.
var contractFields = map[string]string{"context": "context_lines"}

// ErrorInfo is a problem met during an operation that did not stop it (a workspace that
// could not be searched among several).
type ErrorInfo struct {
	Code      Code   `json:"code"`
	Message   string `json:"message"`
	Workspace string `json:"workspace,omitempty"`
	Path      string `json:"path,omitempty"`
}

// Truncation reasons.
const (
	TruncatedLimit    = "limit"     // more results than the limit
	TruncatedMaxBytes = "max_bytes" // the results did not fit in max_bytes
	TruncatedTimeout  = "timeout"   // the time budget ran out first: what was found until then
	TruncatedShards   = "shards"    // a cluster's shards did not all answer: errors names them
)
