/*
 * hash_table.c - implementation of the chained hash table declared in hash_table.h.
 */
#include "hash_table.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LOAD_NUM 3
#define MAX_LOAD_DEN 4

/* FNV-1a, 64-bit: fast, and good enough for short keys such as product SKUs. */
static unsigned long long hash_string(const char *s)
{
    unsigned long long h = 14695981039346656037ULL;
    while (*s) {
        h ^= (unsigned char)*s++;
        h *= 1099511628211ULL;
    }
    return h;
}

struct hash_table *hash_table_create(size_t initial_buckets)
{
    struct hash_table *table = malloc(sizeof *table);
    if (!table)
        return NULL;
    table->bucket_count = initial_buckets ? initial_buckets : 16;
    table->buckets = calloc(table->bucket_count, sizeof *table->buckets);
    table->size = 0;
    if (!table->buckets) {
        free(table);
        return NULL;
    }
    return table;
}

/* Doubles the bucket array and rehashes every entry into it. */
static int hash_table_grow(struct hash_table *table)
{
    size_t new_count = table->bucket_count * 2;
    struct hash_entry **buckets = calloc(new_count, sizeof *buckets);
    if (!buckets)
        return -1;
    for (size_t i = 0; i < table->bucket_count; i++) {
        struct hash_entry *e = table->buckets[i];
        while (e) {
            struct hash_entry *next = e->next;
            size_t idx = hash_string(e->key) % new_count;
            e->next = buckets[idx];
            buckets[idx] = e;
            e = next;
        }
    }
    free(table->buckets);
    table->buckets = buckets;
    table->bucket_count = new_count;
    return 0;
}

/*
 * Inserts key with value, replacing the value of an existing key. Returns 0 on success
 * and -1 when memory runs out. The table grows when the load factor would exceed 3/4.
 */
int hash_table_insert(struct hash_table *table, const char *key, void *value)
{
    size_t idx = hash_string(key) % table->bucket_count;
    for (struct hash_entry *e = table->buckets[idx]; e; e = e->next) {
        if (strcmp(e->key, key) == 0) {
            e->value = value;
            return 0;
        }
    }
    if ((table->size + 1) * MAX_LOAD_DEN > table->bucket_count * MAX_LOAD_NUM) {
        if (hash_table_grow(table) != 0)
            return -1;
        idx = hash_string(key) % table->bucket_count;
    }
    struct hash_entry *e = malloc(sizeof *e);
    if (!e)
        return -1;
    e->key = strdup(key);
    if (!e->key) {
        free(e);
        return -1;
    }
    e->value = value;
    e->next = table->buckets[idx];
    table->buckets[idx] = e;
    table->size++;
    return 0;
}

/* Returns the value stored under key, or NULL when there is none. */
void *hash_table_get(const struct hash_table *table, const char *key)
{
    size_t idx = hash_string(key) % table->bucket_count;
    for (struct hash_entry *e = table->buckets[idx]; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e->value;
    return NULL;
}

/* Removes key; returns 1 when it was present and 0 otherwise. */
int hash_table_remove(struct hash_table *table, const char *key)
{
    struct hash_entry **link = &table->buckets[hash_string(key) % table->bucket_count];
    for (struct hash_entry *e = *link; e; link = &e->next, e = e->next) {
        if (strcmp(e->key, key) == 0) {
            *link = e->next;
            free(e->key);
            free(e);
            table->size--;
            return 1;
        }
    }
    return 0;
}

void hash_table_destroy(struct hash_table *table, hash_table_free_fn free_value)
{
    if (!table)
        return;
    for (size_t i = 0; i < table->bucket_count; i++) {
        struct hash_entry *e = table->buckets[i];
        while (e) {
            struct hash_entry *next = e->next;
            if (free_value)
                free_value(e->value);
            free(e->key);
            free(e);
            e = next;
        }
    }
    free(table->buckets);
    free(table);
}
