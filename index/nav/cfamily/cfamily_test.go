package cfamily

import (
	"slices"
	"testing"
)

func TestCDeclTypeAndTemplateNames(t *testing.T) {
	for _, c := range []struct{ decl, name, want string }{
		{"const struct sha1_ctx *restrict ctx", "ctx", "sha1_ctx"},
		{"SHA256_CTX *ctx", "ctx", "SHA256_CTX"},
		{"unsigned int count", "count", ""},
		{"return ctx", "ctx", ""},
		{"std::shared_ptr<App> app", "app", "App"},
		{"std::vector<Option> opts", "opts", ""},
		{"int other", "ctx", ""},
	} {
		if got := cDeclType(c.decl, c.name); got != c.want {
			t.Errorf("cDeclType(%q, %s) = %q, want %q", c.decl, c.name, got, c.want)
		}
	}
	got := templateNames("<typename T, int N = 3, typename... Ts, template <typename> class TT>")
	if want := []string{"T", "N", "Ts", "TT"}; !slices.Equal(got, want) {
		t.Errorf("templateNames = %v, want %v", got, want)
	}
}
