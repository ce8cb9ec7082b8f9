/* fs.c - the module's transport directory and its files.
 *
 * /sys/kernel/debug/systemtap/<module>/ holds ".cmd" (the control channel)
 * and "trace0".."traceN" (the data rings); when debugfs refuses (lockdown,
 * or built without it) the same files appear under /proc/systemtap/<module>/.
 * The shared "systemtap" directory is never removed: another module may be
 * using it, and an empty directory costs nothing. The file operations only
 * dispatch to ring.c and to the control handler in module.c.
 */
#include <linux/debugfs.h>
#include <linux/proc_fs.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/namei.h>

#include "stp_compat.h"
#include "stp_procroot.h"

static struct _stp_ring *_stp_fs_ctl;		/* the ring behind .cmd */
static struct dentry *_stp_debugfs_dir;	/* our directory, if in debugfs */
struct proc_dir_entry *_stp_proc_dir;	/* else in procfs */

static int _stp_fs_open_ring(struct _stp_ring *r, struct file *file)
{
	if (atomic_cmpxchg(&r->opened, 0, 1) != 0)
		return -EBUSY;
	_stp_ring_set_overwrite(r, 0);	/* a reader: keep every byte */
	file->private_data = r;
	return nonseekable_open(file->f_inode, file);
}

static int _stp_fs_release(struct inode *inode, struct file *file)
{
	struct _stp_ring *r = file->private_data;

	_stp_ring_set_overwrite(r, 1);	/* detached: a flight recorder */
	atomic_set(&r->opened, 0);
	return 0;
}

static ssize_t _stp_fs_read(struct file *file, char __user *buf, size_t count,
			    loff_t *ppos)
{
	return _stp_ring_read(file->private_data, buf, count,
			      file->f_flags & O_NONBLOCK);
}

static __poll_t _stp_fs_poll(struct file *file, poll_table *wait)
{
	return _stp_ring_poll(file->private_data, file, wait);
}

static ssize_t _stp_fs_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	if (file->private_data != _stp_fs_ctl)
		return -EBADF;	/* the data files are read-only */
	return _stp_ctl_write_cmd(buf, count);
}

static int _stp_debugfs_open(struct inode *inode, struct file *file)
{
	return _stp_fs_open_ring(inode->i_private, file);
}

static const struct file_operations _stp_debugfs_fops = {
	.owner = THIS_MODULE,
	.open = _stp_debugfs_open,
	.release = _stp_fs_release,
	.read = _stp_fs_read,
	.write = _stp_fs_write,
	.poll = _stp_fs_poll,
	.llseek = _stp_no_llseek,
};

/* procfs, unlike debugfs, takes no module reference for open files: take
 * one, so that (as with debugfs) the module outlives every open file and no
 * poller is left queued on a freed ring. proc_remove() waits for a release
 * in progress, so dropping the reference inside release is safe. */
static int _stp_proc_open(struct inode *inode, struct file *file)
{
	int rc;

	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	rc = _stp_fs_open_ring(_stp_pde_data(inode), file);
	if (rc)
		module_put(THIS_MODULE);
	return rc;
}

static int _stp_proc_release(struct inode *inode, struct file *file)
{
	_stp_fs_release(inode, file);
	module_put(THIS_MODULE);
	return 0;
}

static const struct proc_ops _stp_proc_fops = {
	.proc_open = _stp_proc_open,
	.proc_release = _stp_proc_release,
	.proc_read = _stp_fs_read,
	.proc_write = _stp_fs_write,
	.proc_poll = _stp_fs_poll,
	.proc_lseek = _stp_no_llseek,
};

static int _stp_debugfs_mkdir(const char *name)
{
	struct dentry *root, *dir;

	root = debugfs_lookup(STP_TRANSPORT_ROOT, NULL);
	if (!root) {
		root = debugfs_create_dir(STP_TRANSPORT_ROOT, NULL);
		/* another module may have won the race to create it */
		if (IS_ERR(root))
			root = debugfs_lookup(STP_TRANSPORT_ROOT, NULL);
		else
			dget(root);
	}
	if (IS_ERR_OR_NULL(root))
		return root ? PTR_ERR(root) : -ENOENT;
	dir = debugfs_create_dir(name, root);
	dput(root);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	_stp_debugfs_dir = dir;
	return 0;
}

static int _stp_procfs_mkdir(const char *name)
{
	char path[sizeof(STP_TRANSPORT_ROOT) + MODULE_NAME_LEN + 1];

	_stp_proc_root_ensure();
	snprintf(path, sizeof(path), STP_TRANSPORT_ROOT "/%s", name);
	_stp_proc_dir = proc_mkdir(path, NULL);
	return _stp_proc_dir ? 0 : -ENOMEM;
}

/* The files belong to the user who loaded the module (staprun's real ids,
 * as module_init runs in its context): their stapio, which runs as that
 * user, opens them, and only they (or root) may stop or unload it. */
static int _stp_fs_add(const char *name, umode_t mode, struct _stp_ring *r)
{
	struct proc_dir_entry *pde;

	if (_stp_debugfs_dir) {
		struct dentry *d = debugfs_create_file(name, mode,
					_stp_debugfs_dir, r, &_stp_debugfs_fops);

		if (IS_ERR(d))
			return PTR_ERR(d);
		d_inode(d)->i_uid = current_uid();
		d_inode(d)->i_gid = current_gid();
		return 0;
	}
	pde = proc_create_data(name, mode, _stp_proc_dir, &_stp_proc_fops, r);
	if (!pde)
		return -ENOMEM;
	proc_set_user(pde, current_uid(), current_gid());
	return 0;
}

/* Create the directory and its files: ctl, then nrings data rings. */
static int _stp_fs_init(const char *modname, struct _stp_ring *ctl,
			struct _stp_ring **rings, int nrings)
{
	char name[32];
	int i, rc;

	rc = _stp_debugfs_mkdir(modname);
	if (rc)
		rc = _stp_procfs_mkdir(modname);
	if (rc)
		return rc;
	_stp_fs_ctl = ctl;
	rc = _stp_fs_add(STP_CTL_NAME, 0600, ctl);
	for (i = 0; !rc && i < nrings; i++) {
		if (!rings[i])
			continue;
		snprintf(name, sizeof(name), STP_DATA_PREFIX "%d", i);
		rc = _stp_fs_add(name, 0400, rings[i]);
	}
	return rc;
}

/* Remove our directory, its rings closed first.  After a normal stop no
 * file is open (each holds a module reference); after rmmod -f some may
 * be, and _stp_transport_close waits for their release. */
static void _stp_fs_remove(void)
{
	debugfs_remove(_stp_debugfs_dir);
	_stp_debugfs_dir = NULL;
	proc_remove(_stp_proc_dir);
	_stp_proc_dir = NULL;
}
