// Command server runs the storefront HTTP API.
package main

import (
	"context"
	"database/sql"
	"flag"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/acme/storefront/go/config"
	"github.com/acme/storefront/go/pool"
	"github.com/acme/storefront/go/retry"
	"github.com/acme/storefront/go/server"
)

func main() {
	configPath := flag.String("config", "storefront.conf", "path to the settings file")
	flag.Parse()

	logger := log.New(os.Stderr, "storefront ", log.LstdFlags|log.Lmicroseconds)
	cfg, err := config.Load(*configPath)
	if err != nil {
		logger.Fatalf("loading config: %v", err)
	}

	db, err := sql.Open("pgx", cfg.DatabaseURL)
	if err != nil {
		logger.Fatalf("opening database: %v", err)
	}
	dial := func(ctx context.Context) (pool.Conn, error) { return db.Conn(ctx) }
	connPool := pool.New(dial, cfg.MaxOpenConns, cfg.MaxIdleConns, cfg.AcquireTimeout)
	defer connPool.Close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// The database may still be starting when the server comes up in the same deployment.
	err = retry.Do(ctx, 5, retry.DefaultBackoff, func(ctx context.Context) error {
		conn, err := connPool.Acquire(ctx)
		if err != nil {
			return err
		}
		err = conn.PingContext(ctx)
		connPool.Release(conn, err)
		return err
	})
	if err != nil {
		logger.Fatalf("database unreachable: %v", err)
	}

	srv := server.New(cfg, connPool, logger)
	logger.Printf("listening on %s", cfg.Addr)
	if err := srv.ListenAndServe(ctx); err != nil {
		logger.Fatal(err)
	}
}
