package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools/clusterops"
)

// clusterFlags are how a command reaches a cluster: its URL and, optionally, a NATS
// credentials file (a user and password come from QUARRY_NATS_USER and
// QUARRY_NATS_PASSWORD, never from a flag).
type clusterFlags struct {
	url   string
	creds string
}

// clusterCommands are the commands that answer from a cluster with --cluster URL.
var clusterCommands = map[string]bool{"search": true, "goto": true, "refs": true, "callers": true, "callees": true,
	"explain": true, "q": true, "serve": true, "mcp": true}

func (c *clusterFlags) add(cmd *cobra.Command, required bool) {
	help := "the cluster's NATS server(s), nats://HOST:PORT (comma-separated for several)"
	if !required {
		help = "answer from a Quarry cluster instead of the local index: its NATS server(s), nats://HOST:PORT"
	}
	cmd.Flags().StringVar(&c.url, "cluster", "", help)
	cmd.Flags().StringVar(&c.creds, "nats-creds", "", "a NATS credentials file (a user JWT and its seed) or a user's nkey seed, mode 600 (else "+clusterops.EnvUser+" and "+clusterops.EnvPassword+" from the environment)")
}

// manage runs a catalog operation (the contract's cluster operation) on the cluster the
// flags name, printing its answer as JSON with --json.
func (c *clusterFlags) manage(cmd *cobra.Command, jsonOut bool, req clusterops.ClusterRequest) (*clusterops.ClusterResult, error) {
	if c.url == "" {
		return nil, jsonFailure(cmd, jsonOut, usagef(cmd.CommandPath(), "--cluster nats://HOST:PORT is required"))
	}
	svc, err := newService(cmd) // attached to the cluster --cluster names
	if err != nil {
		return nil, jsonFailure(cmd, jsonOut, err)
	}
	res, err := clusterops.Manage(cmd.Context(), svc, req)
	if err != nil {
		return nil, jsonFailure(cmd, jsonOut, err)
	}
	if jsonOut {
		return nil, writeJSON(cmd.OutOrStdout(), res)
	}
	return res, nil
}

func newNodeCmd() *cobra.Command {
	var cf clusterFlags
	var o clusterops.NodeOptions
	var smallMB, compoundMB int64
	cmd := &cobra.Command{
		Use:   "node --cluster URL --data DIR [--index] [--serve]",
		Short: "Run a node of a Quarry cluster: index repositories into shards, serve shards",
		Long: `Run a node of a Quarry cluster (NATS JetStream at --cluster). With --index it takes index
jobs (quarry cluster add/update): it reads the repository (a path it can read, or a git URL
it clones into --data), indexes it as quarry index does, uploads the shard and records it
in the catalog. With --serve it loads the shards placed on it (each on 2 nodes, by
rendezvous hashing over the live nodes) and answers their searches. With neither, both.
A repository whose index is small joins a compound shard with other small ones (each
keeps its own index; a compound is placed, loaded and asked as one shard). It runs
until interrupted.`,
		Example: `  quarry node --cluster nats://127.0.0.1:4222 --data /var/lib/quarry/node1
  QUARRY_NATS_USER=quarry QUARRY_NATS_PASSWORD=... quarry node --cluster nats://nats1:4222 --data ./n1 --serve`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !o.Index && !o.Serve {
				o.Index, o.Serve = true, true
			}
			if smallMB < 0 || compoundMB < 0 {
				return usagef(cmd.CommandPath(), "--compound-small-mb and --compound-max-mb take a size in MB, 0 or more")
			}
			o.Compounding = &clusterops.Compounding{Small: smallMB << 20, Max: compoundMB << 20}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			o.Logf = func(format string, args ...any) {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
			}
			if cf.url == "" {
				return usagef(cmd.CommandPath(), "--cluster nats://HOST:PORT is required")
			}
			svc, err := serviceFor(cmd, false) // one NATS connection: the node's own
			if err != nil {
				return err
			}
			return clusterops.Node(ctx, svc, clusterops.Connection{URL: cf.url, CredsFile: cf.creds, Name: "quarry node " + o.ID, Logf: o.Logf}, o)
		},
	}
	cf.add(cmd, true)
	f := cmd.Flags()
	f.StringVar(&o.Data, "data", "", "the node's directory: sources it clones, its builds and the shards it serves")
	f.StringVar(&o.ID, "id", "", "the node's id in the cluster (default: host name and process id)")
	f.BoolVar(&o.Index, "index", false, "take index jobs")
	f.BoolVar(&o.Serve, "serve", false, "serve the shards placed on this node")
	f.IntVar(&o.Replicas, "replicas", clusterops.DefaultReplicas, "nodes serving each shard")
	f.Int64Var(&smallMB, "compound-small-mb", clusterops.DefaultCompounding.Small>>20, "an index this indexer builds of at most this many MB joins a compound shard")
	f.Int64Var(&compoundMB, "compound-max-mb", clusterops.DefaultCompounding.Max>>20, "the size of a compound shard, in MB (0: every repository a shard of its own)")
	return cmd
}

func newClusterCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cluster",
		Short: "Manage the repositories of a Quarry cluster",
		Long: `Add, re-index, remove and list the repositories a Quarry cluster searches. The nodes
(quarry node) do the indexing and serving; these commands write the catalog and queue jobs.`,
		Args: cobra.NoArgs,
	}
	var addName string
	op := func(use, short string, args cobra.PositionalArgs, request func([]string) clusterops.ClusterRequest, print func(io.Writer, *clusterops.ClusterResult)) *cobra.Command {
		var cf clusterFlags
		var jsonOut bool
		c := &cobra.Command{
			Use: use, Short: short, Args: args,
			RunE: func(cmd *cobra.Command, args []string) error {
				res, err := cf.manage(cmd, jsonOut, request(args))
				if err != nil || res == nil {
					return err
				}
				print(cmd.OutOrStdout(), res)
				return nil
			},
		}
		cf.add(c, true)
		c.Flags().BoolVar(&jsonOut, "json", false, "print the answer of the contract's cluster operation (quarry schema cluster)")
		return c
	}
	queued := func(w io.Writer, res *clusterops.ClusterResult) {
		fmt.Fprintf(w, "%s: queued for indexing from %s\n", res.Repos[0].Name, res.Repos[0].Source)
	}
	add := op("add PATH_OR_GIT_URL [--name NAME]", "Add a repository and queue its indexing", cobra.ExactArgs(1),
		func(args []string) clusterops.ClusterRequest {
			return clusterops.ClusterRequest{Operation: clusterops.OpAdd, Name: addName, Source: args[0]}
		}, queued)
	add.Flags().StringVar(&addName, "name", "", "the repository's name (default: the last element of its path or URL)")
	update := op("update NAME", "Queue a new index of a repository from its source", cobra.ExactArgs(1),
		func(args []string) clusterops.ClusterRequest {
			return clusterops.ClusterRequest{Operation: clusterops.OpUpdate, Name: args[0]}
		}, queued)
	remove := op("remove NAME", "Remove a repository and its shard", cobra.ExactArgs(1),
		func(args []string) clusterops.ClusterRequest {
			return clusterops.ClusterRequest{Operation: clusterops.OpRemove, Name: args[0]}
		}, func(w io.Writer, res *clusterops.ClusterResult) { fmt.Fprintf(w, "%s: removed\n", res.Repos[0].Name) })
	var listLimit int
	var listCursor string
	list := op("list --cluster URL [--limit N] [--cursor C] [--json]", "List the repositories, their shards and the nodes serving each", cobra.NoArgs,
		func([]string) clusterops.ClusterRequest {
			return clusterops.ClusterRequest{Operation: clusterops.OpList, Limit: listLimit, Cursor: listCursor}
		},
		func(w io.Writer, st *clusterops.ClusterResult) {
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "REPOSITORY\tVERSION\tSHARD\tFILES\tSYMBOLS\tMB\tSERVED BY\tSTATE")
			for _, r := range st.Repos {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%.1f\t%v\t%s\n", r.Name, r.Version, r.ShardName(), r.Files, r.Symbols, float64(r.Bytes)/(1<<20), r.ServedBy, r.State)
			}
			tw.Flush()
			if len(st.Repos) < st.Total {
				fmt.Fprintf(w, "%d of %d repositories", len(st.Repos), st.Total)
				if st.NextCursor != "" {
					fmt.Fprintf(w, "; next page: --cursor %s", st.NextCursor)
				}
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "%d nodes live, %d jobs queued\n", len(st.Nodes), st.PendingJobs)
		})
	list.Flags().IntVar(&listLimit, "limit", 0, "at most this many repositories, by name, 1 to 1000 (default 100)")
	list.Flags().StringVar(&listCursor, "cursor", "", "the next page: the cursor the previous page named")
	cmd.AddCommand(add, update, remove, list)
	return cmd
}
