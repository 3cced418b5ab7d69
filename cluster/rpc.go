package cluster

// ShardSubject is the subject a repository's shard is asked on (any operation of the
// contract, a tools.ShardCall); its serving nodes answer it in the queue group
// ShardQueue(repo), so NATS spreads the requests over them and one that dies stops getting
// them.
func ShardSubject(repo string) string { return "quarry.shard." + repo + ".call" }

// ShardQueue is the queue group of repo's serving nodes.
func ShardQueue(repo string) string { return "quarry.shard." + repo }
