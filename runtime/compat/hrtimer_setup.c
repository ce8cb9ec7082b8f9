/* hrtimer_setup: hrtimer_setup() initializes an hrtimer with its function
 * (6.13 on; 7.2 has no hrtimer_init(), which left the function to be set
 * by hand). */
#include <linux/hrtimer.h>

static enum hrtimer_restart stp_feature_fn(struct hrtimer *t)
{
	return HRTIMER_NORESTART;
}

void stp_feature(struct hrtimer *t);
void stp_feature(struct hrtimer *t)
{
	hrtimer_setup(t, stp_feature_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}
