/* kpcycle.c - a bare kprobe on vfs_read, with no stap code: the testbed's
 * own soundness under kernel text patching (shell/testbed-text-patching).
 * Loading registers it, unloading removes it; each patches vfs_read's
 * ftrace site while other CPUs run through it. */
#include <linux/module.h>
#include <linux/kprobes.h>

static atomic_t hits;

static int kpcycle_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&hits);
	return 0;
}

static struct kprobe kp = {
	.symbol_name = "vfs_read",
	.pre_handler = kpcycle_pre,
};

static int __init kpcycle_init(void)
{
	return register_kprobe(&kp);
}

static void __exit kpcycle_exit(void)
{
	unregister_kprobe(&kp);
	pr_info("kpcycle: %d hits\n", atomic_read(&hits));
}

module_init(kpcycle_init);
module_exit(kpcycle_exit);
MODULE_LICENSE("GPL");
