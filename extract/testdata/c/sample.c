/* Sample exercises every C construct the extractor knows. */
#include <stdio.h>
#include "util/helper.h"

/** The largest size. */
#define MAX_SIZE 10
#define SQUARE(x) ((x) * (x))

/* A global counter. */
int counter = 0;
static const char *größe_name = "größe";
extern int shared_total;

/** A point in the plane. */
struct point {
    int x; /* trailing */
    /** The y coordinate. */
    int y;
    struct point *next;
};

/** A tagged value. */
union value {
    int i;
    float f;
};

/** Colours. */
enum color {
    RED,
    /** Green. */
    GREEN = 2,
    BLUE
};

/** A shape type. */
typedef struct shape {
    const char *name;
    double area;
} shape_t;

typedef int (*callback_fn)(int, void *);
typedef unsigned long size_type;

/** Returns the sum of a and b. */
int add(int a, int b)
{
    return a + b;
}

/* Private helper. */
static double scale(struct point *p, double f)
{
    int local = 3;
    double r = p->x * f + local;
    printf("%f\n", r);
    return r;
}

void run(shape_t *s, callback_fn cb)
{
    struct point p = { 1, 2 };
    s->area = scale(&p, 2.0);
    cb(counter, s);
    add(p.x, p.y);
}

int *make_buffer(size_type n);
