package codemodel

import (
	_ "embed"
	"encoding/hex"
	"sync"
)

// shippedModel is the model Quarry ships: trained by `go run ./train fit` from the corpus
// train/corpus.sh gathers (train/README.md says how, and what it measured).
//
//go:embed quarry.qcm
var shippedModel []byte

var shipped = sync.OnceValues(func() (*Model, error) { return Decode(shippedModel) })

// Shipped returns the model built into the binary, decoded once. Its error means a damaged
// build (the file is checked by its id): nothing a user can fix but a rebuild.
func Shipped() (*Model, error) { return shipped() }

// ShippedID returns the id of the model built into the binary as Model.ID gives it, read
// from its header without decoding it (a re-index that embeds nothing needs no more).
// Shipped checks the whole file against it.
func ShippedID() string {
	if len(shippedModel) < len(magic)+4+8 {
		return ""
	}
	return hex.EncodeToString(shippedModel[len(magic)+4 : len(magic)+4+8])
}
