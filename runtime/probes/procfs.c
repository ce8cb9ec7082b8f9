/* probes/procfs.c - procfs("path").read/.write probes: files in /proc.
 *
 * Each path is one file in /proc/systemtap/<module>/ (a path with
 * subdirectories fails, as with stap 4.8).  Reading it from the start
 * runs its read probe, whose `$value = …` / `$value .= …` build the
 * file's text (up to the probe's maxsize) in a buffer of that open file;
 * writing it runs its write probes (a path may have several, run in the
 * script's order) once per MAXSTRINGLEN-1 bytes written, with the bytes
 * as $value.
 * One mutex serializes all procfs probes, so $value always means the
 * buffer of the file being served.
 */
#include <linux/fs.h>
#include <linux/mm.h>	/* kvmalloc, kvfree (in slab.h on newer kernels) */
#include <linux/proc_fs.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include "stp_compat.h"
#include "stp_mem.h"
#include "stp_procroot.h"

struct stp_procfs_file {
	const char *path;		/* in the module's directory */
	struct stp_probe *read_probe;
	struct stp_probe **write_probes;	/* nwrite of them */
	int nwrite;
	size_t maxsize;			/* of the read buffer */
	umode_t mode;
	struct proc_dir_entry *pde;
};

struct _stp_procfs_buf {
	size_t len, size;
	char data[];
};

static DEFINE_MUTEX(_stp_procfs_lock);
static struct _stp_procfs_buf *_stp_procfs_cur;	/* under the lock */
static char _stp_procfs_in[MAXSTRINGLEN];	/* a write's bytes, ditto */
static struct proc_dir_entry *_stp_procfs_dir;
static int _stp_procfs_own_dir;

/* $value .= V: the file's text may grow past MAXSTRINGLEN, to maxsize. */
static __maybe_unused void _stp_procfs_append(struct context *c, const char *v)
{
	struct _stp_procfs_buf *b = _stp_procfs_cur;
	size_t n;

	if (!b)
		return;
	n = strlen(v);
	if (n > b->size - b->len)
		n = b->size - b->len;
	memcpy(b->data + b->len, v, n);
	b->len += n;
}

/* $value = V in a read probe. */
static __maybe_unused void _stp_procfs_set(struct context *c, const char *v)
{
	if (_stp_procfs_cur)
		_stp_procfs_cur->len = 0;
	_stp_procfs_append(c, v);
}

/* $value in a write probe. */
static __maybe_unused const char *_stp_procfs_value(struct context *c)
{
	return _stp_procfs_in;
}

static int _stp_procfs_open(struct inode *inode, struct file *file)
{
	struct stp_procfs_file *f = _stp_pde_data(inode);
	struct _stp_procfs_buf *b;

	if (!f->read_probe || !(file->f_mode & FMODE_READ))
		return 0;
	b = kvmalloc(sizeof *b + f->maxsize, GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->len = 0;
	b->size = f->maxsize;
	file->private_data = b;
	return 0;
}

static int _stp_procfs_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

static ssize_t _stp_procfs_read(struct file *file, char __user *buf,
				size_t count, loff_t *ppos)
{
	struct stp_procfs_file *f = _stp_pde_data(file_inode(file));
	struct _stp_procfs_buf *b = file->private_data;

	if (!b)
		return -EINVAL;
	if (*ppos == 0) {
		mutex_lock(&_stp_procfs_lock);
		b->len = 0;
		_stp_procfs_cur = b;
		_stp_hit(f->read_probe, NULL, NULL, NULL);
		_stp_procfs_cur = NULL;
		mutex_unlock(&_stp_procfs_lock);
	}
	return _stp_fileop_read_buffer(buf, count, ppos, b->data, b->len);
}

static ssize_t _stp_procfs_write(struct file *file, const char __user *buf,
				 size_t count, loff_t *ppos)
{
	struct stp_procfs_file *f = _stp_pde_data(file_inode(file));
	size_t done = 0, n;
	int i;

	if (!f->nwrite)
		return -EINVAL;
	mutex_lock(&_stp_procfs_lock);
	while (done < count) {
		n = min_t(size_t, count - done, sizeof _stp_procfs_in - 1);
		if (_stp_fileop_copy_from_user(_stp_procfs_in, buf + done, n)) {
			mutex_unlock(&_stp_procfs_lock);
			return done ? done : -EFAULT;
		}
		_stp_procfs_in[n] = '\0';
		for (i = 0; i < f->nwrite; i++)
			_stp_hit(f->write_probes[i], NULL, NULL, NULL);
		done += n;
	}
	_stp_procfs_in[0] = '\0';
	mutex_unlock(&_stp_procfs_lock);
	*ppos += done;
	return done;
}

static const struct proc_ops _stp_procfs_ops = {
	.proc_open = _stp_procfs_open,
	.proc_release = _stp_procfs_release,
	.proc_read = _stp_procfs_read,
	.proc_write = _stp_procfs_write,
	.proc_lseek = default_llseek,
};

/* /proc/systemtap/<module>: the transport's when it is in procfs.  The
 * module's name is the one it runs under (staprun -R renames it). */
static int _stp_procfs_mkroot(void)
{
	char path[sizeof("systemtap/") + MODULE_NAME_LEN];

	snprintf(path, sizeof(path), "systemtap/%s", THIS_MODULE->name);
	if (_stp_proc_dir) {
		_stp_procfs_dir = _stp_proc_dir;
		return 0;
	}
	_stp_proc_root_ensure();
	_stp_procfs_dir = proc_mkdir(path, NULL);
	_stp_procfs_own_dir = _stp_procfs_dir != NULL;
	return _stp_procfs_dir ? 0 : -ENOMEM;
}

static void _stp_procfs_stop(struct stp_procfs_file *files, int n);

/* A file that cannot be made fails the run, as with stap. */
static int _stp_procfs_failed(struct stp_procfs_file *f, const char *why)
{
	char msg[MAXSTRINGLEN];
	struct stp_probe *p = f->read_probe ? f->read_probe : f->write_probes[0];

	snprintf(msg, sizeof msg, "Could not create path \"%s\"%s", f->path, why);
	_stp_transport_error(msg);
	snprintf(msg, sizeof msg, "probe %s registration error [man warning::pass5] (rc -1)",
		 p->pp);
	_stp_transport_error(msg);
	return -1;
}

static int _stp_procfs_start(struct stp_procfs_file *files, int n)
{
	struct stp_procfs_file *f;
	int i, rc = _stp_procfs_mkroot();

	for (i = 0; !rc && i < n; i++) {
		f = &files[i];
		if (strchr(f->path, '/'))
			rc = _stp_procfs_failed(f, ", contains subdirectories");
		else if (!(f->pde = proc_create_data(f->path, f->mode, _stp_procfs_dir,
						     &_stp_procfs_ops, f)))
			rc = _stp_procfs_failed(f, "");
	}
	if (rc)
		_stp_procfs_stop(files, n);
	return rc;
}

static void _stp_procfs_stop(struct stp_procfs_file *files, int n)
{
	int i;

	if (_stp_procfs_own_dir) {
		proc_remove(_stp_procfs_dir);
	} else {
		for (i = n - 1; i >= 0; i--)
			proc_remove(files[i].pde);	/* NULL is fine */
	}
	for (i = 0; i < n; i++)
		files[i].pde = NULL;
	_stp_procfs_dir = NULL;
	_stp_procfs_own_dir = 0;
}
