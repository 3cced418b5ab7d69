package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Job operations.
const (
	OpIndex  = "index"  // build (or rebuild) the repository's shard from its source
	OpRemove = "remove" // forget the repository
)

// Job is an index job: what the stream carries.
type Job struct {
	Op     string    `json:"op"`
	Repo   string    `json:"repo"`
	Source string    `json:"source,omitempty"`
	Queued time.Time `json:"queued"`
}

// JobAckWait is how long an indexer may go without saying it is still at a job before the
// job is given to another indexer; indexers say so every JobAckWait/3.
var JobAckWait = 30 * time.Second

// Enqueue publishes j to the jobs stream; JetStream keeps it until an indexer acknowledges it.
func (c *Cluster) Enqueue(ctx context.Context, j Job) error {
	if err := CheckName(j.Repo); err != nil {
		return err
	}
	j.Queued = time.Now().UTC()
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	// While the stream elects a new leader (a server of the cluster died), a publish finds
	// no one to answer: it is tried again for a while.
	ctx, cancel := context.WithTimeout(ctx, 3*opTimeout)
	defer cancel()
	for {
		pctx, pcancel := context.WithTimeout(ctx, opTimeout)
		_, err := c.JS.Publish(pctx, JobsSubject+"."+j.Repo, b, jetstream.WithRetryAttempts(10), jetstream.WithRetryWait(250*time.Millisecond))
		pcancel()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster: queue the %s job of %s: %w", j.Op, j.Repo, err)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// Indexers returns the consumer the indexers share: each job goes to one of them, and comes
// back to the queue when its indexer stops acknowledging it (it died).
func (c *Cluster) Indexers(ctx context.Context) (jetstream.Consumer, error) {
	cons, err := c.jobs.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
		Durable: IndexersName, AckPolicy: jetstream.AckExplicitPolicy, AckWait: JobAckWait,
		MaxDeliver: -1, FilterSubject: JobsSubject + ".>", Description: "Quarry's indexers",
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: the indexers' consumer: %w", err)
	}
	return cons, nil
}

// PendingJobs returns how many jobs wait or are being done.
func (c *Cluster) PendingJobs(ctx context.Context) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	info, err := c.jobs.Info(ctx)
	if err != nil {
		return 0, fmt.Errorf("cluster: the jobs stream: %w", err)
	}
	return info.State.Msgs, nil
}
