package cluster

// SearchSubject is the subject a repository's shard is searched on; its serving nodes
// answer it in the queue group ShardQueue(repo), so NATS spreads the requests over them
// and one that dies stops getting them.
func SearchSubject(repo string) string { return "quarry.shard." + repo + ".search" }

// ShardQueue is the queue group of repo's serving nodes.
func ShardQueue(repo string) string { return "quarry.shard." + repo }
