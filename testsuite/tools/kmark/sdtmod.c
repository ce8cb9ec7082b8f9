/* sdtmod.c - a kernel module with SDT markers (sys/sdt.h), for the
 * module("M").mark tests: markers of 0, 1 and 3 arguments of provider
 * sdtmod and one of 2 of provider other, fired once from its init and
 * on each write of a number N to /proc/sdtmod (arguments N, N - 10 and
 * the address of sdtmod_val). */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>
#include <sys/sdt.h>

static long sdtmod_val = 42;

static noinline int sdtmod_fire(int a, long b)
{
	STAP_PROBE(sdtmod, zero);
	STAP_PROBE1(sdtmod, one, a);
	DTRACE_PROBE3(sdtmod, three, a, b, &sdtmod_val);
	STAP_PROBE2(other, two_args, b, a);
	return a + 1;
}

static ssize_t sdtmod_write(struct file *f, const char __user *buf,
			    size_t len, loff_t *pos)
{
	int n;

	if (kstrtoint_from_user(buf, len, 10, &n))
		return -EINVAL;
	sdtmod_fire(n, n - 10L);
	return len;
}

static const struct proc_ops sdtmod_ops = {
	.proc_write = sdtmod_write,
};

static int __init sdtmod_init(void)
{
	if (!proc_create("sdtmod", 0200, NULL, &sdtmod_ops))
		return -ENOMEM;
	sdtmod_fire(7, -3);
	return 0;
}

static void __exit sdtmod_exit(void)
{
	remove_proc_entry("sdtmod", NULL);
}

module_init(sdtmod_init);
module_exit(sdtmod_exit);
MODULE_DESCRIPTION("SDT markers for the module(\"M\").mark tests");
MODULE_LICENSE("GPL");
