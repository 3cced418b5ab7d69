package server

import (
	"context"
	"database/sql"
	"errors"
	"net/http"

	"github.com/acme/storefront/go/pool"
)

// User is the public profile returned by GET /users/{id}.
type User struct {
	ID          int64  `json:"id"`
	Email       string `json:"email"`
	DisplayName string `json:"display_name"`
	Active      bool   `json:"active"`
}

// querier is the part of a database connection the user handlers need.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func asQuerier(c pool.Conn) (querier, error) {
	q, ok := c.(querier)
	if !ok {
		return nil, errors.New("connection does not support queries")
	}
	return q, nil
}

// loadUser reads one row of the users table.
func loadUser(ctx context.Context, c pool.Conn, id int64) (*User, error) {
	q, err := asQuerier(c)
	if err != nil {
		return nil, err
	}
	var u User
	err = q.QueryRowContext(ctx,
		`SELECT id, email, display_name, is_active FROM users WHERE id = $1`, id,
	).Scan(&u.ID, &u.Email, &u.DisplayName, &u.Active)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, &httpError{http.StatusNotFound, "no such user"}
	}
	return &u, err
}

// deactivateUser marks a user inactive; their orders are kept.
func deactivateUser(ctx context.Context, c pool.Conn, id int64) error {
	q, err := asQuerier(c)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `UPDATE users SET is_active = FALSE WHERE id = $1`, id)
	return err
}
