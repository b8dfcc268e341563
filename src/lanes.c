#include "lanes.h"

#include "md5.h"

static const unsigned char *lane_input(const struct lane_task *t)
{
    return t->blocks > 0 ? t->p : NULL;
}

void lanes_init(struct lanes *s, unsigned cap)
{
    unsigned widest = md5_mb_kernels()[0]->lanes, i;

    s->used = 0;
    s->hashed = s->offered = 0;
    s->cap = cap < widest ? cap : widest;
    if (s->cap == 0)
        s->cap = 1;
    for (i = 0; i < MD5_MB_MAX_LANES; i++)
        s->l.in[i] = NULL;
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
    md5_mb_set_lane(&s->l, i, state);
    s->l.in[i] = lane_input(t);
}

void lanes_feed(struct lanes *s, struct lane_task *t, const unsigned char *p, size_t blocks)
{
    t->p = p;
    t->blocks = blocks;
    s->l.in[t->lane] = lane_input(t);
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
    k = md5_mb_pick(running);
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
