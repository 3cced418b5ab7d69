package extract

import "testing"

// An import's alias is a use of kind import too (the name the import binds: in
// try: from m import __version__ as m_version / except ImportError: m_version = None, a use
// of the fallback); an alias that repeats the name (from .json import jsonify as jsonify)
// is not recorded twice.
func TestPythonImportAliasUse(t *testing.T) {
	f := extractString(t, "a.py", `try:
    from charset_normalizer import __version__ as cn_version
except ImportError:
    cn_version = None
import numpy as np
from .json import jsonify as jsonify
`)
	count := map[string]int{}
	for _, id := range f.Identifiers {
		if id.Kind == ImportRef {
			count[id.Name]++
		}
	}
	for name, want := range map[string]int{"__version__": 1, "cn_version": 1, "numpy": 1, "np": 1, "jsonify": 1} {
		if count[name] != want {
			t.Errorf("%d uses of kind import named %s, want %d (all: %v)", count[name], name, want, count)
		}
	}
}
