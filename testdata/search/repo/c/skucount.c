/*
 * skucount - count how often each SKU appears in an order export.
 *
 * Usage: skucount < orders.csv
 * Reads one order line per row ("order_id,sku,quantity") and prints "sku total" lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash_table.h"

#define LINE_MAX_LEN 512

struct sku_total {
    char sku[64];
    long quantity;
};

int main(void)
{
    struct hash_table *totals = hash_table_create(64);
    struct sku_total **seen = NULL;
    size_t nseen = 0;
    char line[LINE_MAX_LEN];

    if (!totals) {
        perror("skucount");
        return 1;
    }
    while (fgets(line, sizeof line, stdin)) {
        char *order_id = strtok(line, ",");
        char *sku = strtok(NULL, ",");
        char *qty = strtok(NULL, ",\n");
        if (!order_id || !sku || !qty)
            continue;
        struct sku_total *t = hash_table_get(totals, sku);
        if (!t) {
            t = calloc(1, sizeof *t);
            struct sku_total **grown = realloc(seen, (nseen + 1) * sizeof *seen);
            if (!t || !grown || hash_table_insert(totals, sku, t) != 0) {
                fprintf(stderr, "skucount: out of memory\n");
                return 1;
            }
            strncpy(t->sku, sku, sizeof t->sku - 1);
            seen = grown;
            seen[nseen++] = t;
        }
        t->quantity += strtol(qty, NULL, 10);
    }
    for (size_t i = 0; i < nseen; i++)
        printf("%s %ld\n", seen[i]->sku, seen[i]->quantity);
    free(seen);
    hash_table_destroy(totals, free);
    return 0;
}
