/* stp_params.h - script globals as module parameters.
 *
 * staprun mod.ko name=value (and stap -G name=value) sets a global before
 * the session starts.  Numbers are 64-bit, in any base strtoll accepts.
 */
#ifndef STP_PARAMS_H
#define STP_PARAMS_H

static int _stp_param_set_int64(const char *val, const struct kernel_param *kp)
{
	return kstrtoll(val, 0, (long long *)kp->arg);
}

static int _stp_param_get_int64(char *buf, const struct kernel_param *kp)
{
	return sprintf(buf, "%lld\n", *(long long *)kp->arg);
}

static const struct kernel_param_ops param_ops_stp_int64 = {
	.set = _stp_param_set_int64,
	.get = _stp_param_get_int64,
};

#define param_check_stp_int64(name, p) __param_check(name, p, int64_t)

#endif
