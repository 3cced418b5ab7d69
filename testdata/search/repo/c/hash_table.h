/*
 * hash_table.h - a string-keyed hash table with separate chaining.
 *
 * Keys are copied on insert; values are opaque pointers owned by the caller.
 */
#ifndef HASH_TABLE_H
#define HASH_TABLE_H

#include <stddef.h>

/* One key/value pair in a bucket's chain. */
struct hash_entry {
    char *key;
    void *value;
    struct hash_entry *next;
};

/* A hash table; create it with hash_table_create. */
struct hash_table {
    struct hash_entry **buckets;
    size_t bucket_count;
    size_t size; /* number of entries */
};

/* Called on each value by hash_table_destroy, unless NULL. */
typedef void (*hash_table_free_fn)(void *value);

struct hash_table *hash_table_create(size_t initial_buckets);
int hash_table_insert(struct hash_table *table, const char *key, void *value);
void *hash_table_get(const struct hash_table *table, const char *key);
int hash_table_remove(struct hash_table *table, const char *key);
void hash_table_destroy(struct hash_table *table, hash_table_free_fn free_value);

#endif /* HASH_TABLE_H */
