package extract

import "testing"

func TestSQLSymbols(t *testing.T) {
	f := extractString(t, "a.sql", `-- users are the accounts.
CREATE TABLE auth.users (
    id BIGINT PRIMARY KEY,
    "Email" VARCHAR(255) NOT NULL
);

CREATE INDEX idx_users_email ON auth.users ("Email");

-- active_users hides the deleted ones.
CREATE VIEW auth.active_users AS SELECT id FROM auth.users;
`)
	checkSymbols(t, f, []symWant{
		{"users", Struct, "", "users are the accounts.", ""},
		{"id", Field, "", "", "users"},
		{"Email", Field, "", "", "users"},
		{"idx_users_email", Variable, "", "", ""},
		{"active_users", Type, "", "active_users hides the deleted ones.", ""},
	})
	syms := symbolsByName(f)
	for name, want := range map[string]string{
		"users": "CREATE TABLE auth.users",
		"id":    "id BIGINT PRIMARY KEY",
		"Email": `"Email" VARCHAR(255) NOT NULL`,
	} {
		if got := syms[name].Signature; got != want {
			t.Errorf("signature of %s = %q, want %q", name, got, want)
		}
	}
	if got := syms["users"].Metadata["schema"]; got != "auth" {
		t.Errorf("schema of users = %q, want auth", got)
	}
	if got := syms["idx_users_email"].Metadata["table"]; got != "auth.users" {
		t.Errorf("table of idx_users_email = %q, want auth.users", got)
	}
	if !hasIdent(f, "users", TypeUsage) {
		t.Errorf("missing type usage of users in %+v", f.Identifiers)
	}
}

// TestSQLProcedure recovers a procedure, which the grammar does not parse, and keeps the
// table after it.
func TestSQLProcedure(t *testing.T) {
	f := extractString(t, "a.sql", `-- archive moves old rows away.
CREATE PROCEDURE billing.archive(cutoff TIMESTAMP)
LANGUAGE sql
AS $$
    DELETE FROM billing.invoices WHERE issued_at < cutoff;
$$;

CREATE TABLE kept (id INT);
`)
	checkSymbols(t, f, []symWant{
		{"archive", Function, "", "archive moves old rows away.", ""},
		{"kept", Struct, "", "", ""},
	})
	s := symbolsByName(f)["archive"]
	if want := "CREATE PROCEDURE billing.archive(cutoff TIMESTAMP)"; s.Signature != want || s.Metadata["schema"] != "billing" {
		t.Errorf("archive: signature %q schema %q, want %q schema billing", s.Signature, s.Metadata["schema"], want)
	}
}
