package embed

// Fields are a symbol's words by where they come from.
type Fields struct {
	Name, Signature, Doc, Body []string
}

// MaxBodyWords is how many words of a body count (its start says most about it).
const MaxBodyWords = 300

// Field weights of a symbol's vector, measured on the quality suite's description queries
// (dev half, corpus.sh small): each field's mean vector is unit length before weighting,
// so a long body does not drown the name.
const (
	NameWeight      = 1.0
	SignatureWeight = 0.5
	DocWeight       = 1.0
	BodyWeight      = 1.0
)

// FieldsOf returns the words of a symbol's name, signature, doc comment and body (body ""
// for symbols whose body is not read).
func FieldsOf(name, signature, doc, body string) Fields {
	f := Fields{Name: Words(name), Signature: Words(signature), Doc: Words(doc)}
	if body != "" {
		f.Body = Words(body)
		if len(f.Body) > MaxBodyWords {
			f.Body = f.Body[:MaxBodyWords]
		}
	}
	return f
}

// All returns the fields' words in order, and the name's (what a model learns from).
func (f Fields) All() []string {
	out := make([]string, 0, len(f.Name)+len(f.Signature)+len(f.Doc)+len(f.Body))
	out = append(out, f.Name...)
	out = append(out, f.Signature...)
	out = append(out, f.Doc...)
	return append(out, f.Body...)
}

// EmbedSymbol returns a symbol's unit vector: the weighted sum of its fields' unit mean
// vectors; nil when no word of it has a vector.
func (m *Model) EmbedSymbol(f Fields) []float32 {
	out := make([]float32, m.Dim)
	any := false
	for _, part := range []struct {
		words []string
		w     float32
	}{{f.Name, NameWeight}, {f.Signature, SignatureWeight}, {f.Doc, DocWeight}, {f.Body, BodyWeight}} {
		v := m.Embed(part.words, nil)
		if v == nil {
			continue
		}
		any = true
		for k := range out {
			out[k] += part.w * v[k]
		}
	}
	if !any {
		return nil
	}
	normalize(out)
	return out
}
