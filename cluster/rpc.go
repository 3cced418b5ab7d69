package cluster

// ShardSubject is the subject a shard (a repository's, or a compound's) is asked on: any
// operation of the contract, a tools.ShardCall. Its serving nodes answer it in the queue
// group ShardQueue(shard), so NATS spreads the requests over them and one that dies stops
// getting them.
func ShardSubject(shard string) string { return "quarry.shard." + shard + ".call" }

// ShardQueue is the queue group of shard's serving nodes.
func ShardQueue(shard string) string { return "quarry.shard." + shard }
