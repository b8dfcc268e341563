#include "lanes.h"

#include <string.h>

#include "md5.h"

static const unsigned char *lane_input(const struct lane_task *t)
{
    return t->blocks > 0 ? t->p : NULL;
}

void lanes_init(struct lanes *s, unsigned cap)
{
    unsigned widest = md5_mb_kernels()[0]->lanes, i;

    s->used = 0;
    s->hashed = s->offered = s->queued = s->held_back = 0;
    s->cap = cap < widest ? cap : widest;
    if (s->cap == 0)
        s->cap = 1;
    for (i = 0; i < MD5_MB_MAX_LANES; i++)
        s->l.in[i] = NULL;
}

unsigned lanes_side_by_side(unsigned most)
{
    unsigned n = 0;

    while (n < most && md5_mb_pick(n + 1)->lanes > n)
        n++;
    return n;
}

unsigned lanes_free(const struct lanes *s)
{
    return s->cap - s->used;
}

void lanes_add(struct lanes *s, struct lane_task *t, const uint32_t state[4])
{
    unsigned i = s->used++;

    s->task[i] = t;
    t->lane = i;
    t->p = NULL;
    t->blocks = 0;
    t->after = 0;
    md5_mb_set_lane(&s->l, i, state);
    s->l.in[i] = NULL;
}

void lanes_feed(struct lanes *s, struct lane_task *t, const unsigned char *p, size_t blocks,
                uint64_t after)
{
    t->p = p;
    t->blocks = blocks;
    t->after = after;
    s->l.in[t->lane] = lane_input(t);
}

void lanes_expect(struct lanes *s, uint64_t queued)
{
    s->queued = queued;
}

void lanes_take_counts(struct lanes *s, uint64_t *hashed, uint64_t *offered, uint64_t *held_back)
{
    *hashed = s->hashed;
    *offered = s->offered;
    *held_back = s->held_back;
    s->hashed = s->offered = s->held_back = 0;
}

/* Exchange the contents of lanes A and B. */
static void swap_lanes(struct lanes *s, unsigned a, unsigned b)
{
    uint32_t sa[4], sb[4];
    struct lane_task *t = s->task[a];

    if (a == b)
        return;
    md5_mb_get_lane(&s->l, a, sa);
    md5_mb_get_lane(&s->l, b, sb);
    md5_mb_set_lane(&s->l, a, sb);
    md5_mb_set_lane(&s->l, b, sa);
    s->task[a] = s->task[b];
    s->task[b] = t;
    s->task[a]->lane = a;
    s->task[b]->lane = b;
    s->l.in[a] = lane_input(s->task[a]);
    s->l.in[b] = lane_input(s->task[b]);
}

void lanes_remove(struct lanes *s, struct lane_task *t, uint32_t state[4])
{
    unsigned last = s->used - 1;

    md5_mb_get_lane(&s->l, t->lane, state);
    swap_lanes(s, t->lane, last);
    s->l.in[last] = NULL;
    s->used = last;
}

/* The widest kernel of K's instruction set narrower than K, or NULL. */
static const struct md5_mb_kernel *narrower(const struct md5_mb_kernel *k)
{
    const struct md5_mb_kernel *const *p, *best = NULL;

    for (p = md5_mb_kernels(); *p; p++)
        if (strcmp((*p)->isa, k->isa) == 0 && (*p)->lanes < k->lanes &&
            (!best || (*p)->lanes > best->lanes))
            best = *p;
    return best;
}

static uint64_t left(const struct lane_task *t)
{
    return t->blocks + t->after;
}

/* K, or a narrower kernel when the longest message bounds the rounds at
 * its width too (lanes.h); the RUNNING busy lanes then put those with the
 * most left first. */
static const struct md5_mb_kernel *narrowest_as_fast(struct lanes *s, const struct md5_mb_kernel *k,
                                                     unsigned running)
{
    const struct md5_mb_kernel *n;
    uint64_t all = s->queued, longest = 0;
    unsigned i, j, most;

    for (i = 0; i < s->used; i++) {
        all += left(s->task[i]);
        longest = left(s->task[i]) > longest ? left(s->task[i]) : longest;
    }
    if (longest * k->lanes <= all)
        return k;
    while ((n = narrower(k)) != NULL && longest * n->lanes >= all)
        k = n;
    if (running <= k->lanes)
        return k;
    s->held_back++;
    for (i = 0; i < k->lanes; i++) {
        for (most = i, j = i + 1; j < running; j++)
            if (left(s->task[j]) > left(s->task[most]))
                most = j;
        swap_lanes(s, i, most);
    }
    return k;
}

unsigned lanes_run(struct lanes *s, struct lane_task *ended[MD5_MB_MAX_LANES])
{
    const struct md5_mb_kernel *k;
    unsigned running = 0, n = 0, i;
    size_t run;

    /* The running lanes first: a kernel runs lanes 0 .. its width - 1. */
    for (i = 0; i < s->used; i++)
        if (s->task[i]->blocks > 0)
            swap_lanes(s, i, running++);
    if (running == 0)
        return 0;
    k = narrowest_as_fast(s, md5_mb_pick(running), running);
    if (running > k->lanes)
        running = k->lanes;
    run = s->task[0]->blocks;
    for (i = 1; i < running; i++)
        if (s->task[i]->blocks < run)
            run = s->task[i]->blocks;
    k->run(&s->l, run);
    s->hashed += (uint64_t)run * running;
    s->offered += (uint64_t)run * k->lanes;
    for (i = 0; i < running; i++) {
        struct lane_task *t = s->task[i];

        t->p += MD5_BLOCK_SIZE * run;
        t->blocks -= run;
        if (t->blocks == 0) {
            s->l.in[i] = NULL;
            ended[n++] = t;
        }
    }
    return n;
}
