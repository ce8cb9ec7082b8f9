/* sdtops.c - a kernel module with SDT markers whose operands the
 * module("M").mark tests read in other ways than sdtmod's: sdtops:global
 * reads sdtops_val itself (an operand relative to %rip; each write of N
 * to /proc/sdtops adds N to it after the markers), and sdtops:twice
 * fires at two sites whose operands differ (N + 1 in sdtops_fire, 2 * N
 * in sdtops_write). */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>
#include <sys/sdt.h>

static long sdtops_val = 42;

static noinline int sdtops_fire(int a)
{
	STAP_PROBE1(sdtops, global, sdtops_val);
	STAP_PROBE1(sdtops, twice, a + 1);
	return a + 1;
}

static ssize_t sdtops_write(struct file *f, const char __user *buf,
			    size_t len, loff_t *pos)
{
	int n;

	if (kstrtoint_from_user(buf, len, 10, &n))
		return -EINVAL;
	sdtops_fire(n);
	STAP_PROBE1(sdtops, twice, 2 * n);
	sdtops_val += n;
	return len;
}

static const struct proc_ops sdtops_ops = {
	.proc_write = sdtops_write,
};

static int __init sdtops_init(void)
{
	return proc_create("sdtops", 0200, NULL, &sdtops_ops) ? 0 : -ENOMEM;
}

static void __exit sdtops_exit(void)
{
	remove_proc_entry("sdtops", NULL);
}

module_init(sdtops_init);
module_exit(sdtops_exit);
MODULE_DESCRIPTION("SDT marker operands for the module(\"M\").mark tests");
MODULE_LICENSE("GPL");
